/**
 * Stop and redrive (`UnumClient.stop`, `redrive`): a synchronous invoke of
 * the workflow's run-control function through the alias of the action
 * (runtime/contract/run-control.ts), which makes the action's writes itself:
 * a principal allowed to stop or redrive is allowed that invoke, never a
 * write of the table. The answer becomes the result, or an error saying why
 * nothing changed.
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { qualifiedName } from '../../runtime/contract/ir';
import type { RedriveRequest, RedriveResult, RunControlAction, RunControlAnswer, RunControlStatus, StopRequest } from '../../runtime/contract/run-control';
import { UnumClientError } from './errors';

/** `redrive()` on a run that cannot be redriven: not FAILED, ABORTED or TIMED_OUT, nothing parked, failed where a redrive would fail again, or past its redrive window. Nothing was changed. */
export class UnumRunNotRedrivableError extends UnumClientError {
  constructor(readonly workflowId: string, readonly status: RunControlStatus, readonly reason: string) {
    super(`run ${workflowId} (${status}) cannot be redriven: ${reason}`);
  }
}

async function invokeRunControl(lambda: LambdaClient, functionName: string | undefined, workflow: string, action: RunControlAction, request: StopRequest | RedriveRequest): Promise<RunControlAnswer> {
  if (!functionName) throw new UnumClientError(`${action}: the run-control function of workflow ${workflow} is unknown: give runControlFunction (stack output <prefix>RunControlFunctionName)`);
  const target = qualifiedName(functionName, action);
  let answer: RunControlAnswer;
  try {
    const out = await lambda.send(new InvokeCommand({ FunctionName: functionName, Qualifier: action, Payload: Buffer.from(JSON.stringify(request)) }));
    const payload = out.Payload ? Buffer.from(out.Payload).toString('utf8') : '';
    if (out.FunctionError) throw new Error(errorMessage(payload));
    answer = JSON.parse(payload) as RunControlAnswer;
  } catch (err) {
    const again = action === 'redrive' ? ' (call redrive again to finish)' : '';
    throw new UnumClientError(`${action === 'stop' ? 'stopping' : 'redriving'} run ${request.workflowId}: invoking ${target} failed${again}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if ('invalid' in answer) throw new UnumClientError(`${action} of run ${request.workflowId} refused by ${target}: ${answer.invalid}`);
  return answer;
}

/** The message of a function error's payload (`{ errorMessage }`), else the payload. */
function errorMessage(payload: string): string {
  try {
    const parsed = JSON.parse(payload) as { errorMessage?: unknown };
    return typeof parsed.errorMessage === 'string' ? parsed.errorMessage : payload;
  } catch {
    return payload;
  }
}

/** Whether the stop stopped the run (false: it was not RUNNING). */
export async function requestStop(lambda: LambdaClient, functionName: string | undefined, workflow: string, request: StopRequest): Promise<boolean> {
  const answer = await invokeRunControl(lambda, functionName, workflow, 'stop', request);
  if (!('stopped' in answer)) throw new UnumClientError(`stop of run ${request.workflowId}: the run-control function answered ${JSON.stringify(answer)}`);
  return answer.stopped;
}

/** What the redrive did; throws `UnumRunNotRedrivableError` when the run cannot be redriven. */
export async function requestRedrive(lambda: LambdaClient, functionName: string | undefined, workflow: string, request: RedriveRequest): Promise<RedriveResult> {
  const answer = await invokeRunControl(lambda, functionName, workflow, 'redrive', request);
  if ('refused' in answer) throw new UnumRunNotRedrivableError(request.workflowId, answer.refused.status, answer.refused.reason);
  if (!('redriven' in answer)) throw new UnumClientError(`redrive of run ${request.workflowId}: the run-control function answered ${JSON.stringify(answer)}`);
  return answer.redriven;
}
