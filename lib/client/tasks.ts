/**
 * Responses to task tokens of callback Tasks (docs/architecture.md
 * "Callbacks"): a synchronous invoke of the workflow's task-response
 * function, on the alias of the deployment the token names (the waiting
 * run's: a run never leaves its deployment), whose answer becomes nothing
 * (done), or an error saying why nothing changed.
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { qualifiedName, type TaskResponseAnswer } from '../../runtime/contract/ir';
import { decodeTaskToken, type TaskResponseRequest } from '../../runtime/contract/task-token';
import { UnumClientError, UnumTaskAlreadyCompletedError, UnumTaskTokenError } from './errors';

export async function respondToTask(lambda: LambdaClient, functionName: string | undefined, workflow: string, request: TaskResponseRequest): Promise<void> {
  if (!functionName) throw new UnumClientError(`workflow ${workflow} has no task-response function: it has no callback Task (or give taskResponseFunction, stack output TaskResponseFunctionName)`);
  // The deployment to answer on is in the token: one that does not decode has nowhere to go.
  const token = decodeTaskToken(request.token);
  if (typeof token === 'string') throw new UnumTaskTokenError(`invalid task token: ${token}; nothing was sent`);
  if (token.workflow !== workflow) throw new UnumTaskTokenError(`invalid task token: it is a token of workflow ${token.workflow}, not of ${workflow}; nothing was sent`);
  if (!token.deployment) throw new UnumTaskTokenError('invalid task token: it names no deployment (issued by a function the construct did not deploy); nothing was sent');
  const target = qualifiedName(functionName, token.deployment);
  let answer: TaskResponseAnswer;
  try {
    const out = await lambda.send(new InvokeCommand({ FunctionName: functionName, Qualifier: token.deployment, Payload: Buffer.from(JSON.stringify(request)) }));
    const payload = out.Payload ? Buffer.from(out.Payload).toString('utf8') : '';
    if (out.FunctionError) throw new Error(payload);
    answer = JSON.parse(payload) as TaskResponseAnswer;
  } catch (err) {
    // The sweeper removes a deployment's aliases once none of its runs can run or be redriven.
    const gone = (err as { name?: unknown }).name === 'ResourceNotFoundException' ? ` (deployment ${token.deployment} of workflow ${workflow} is not deployed, or was removed: no run of it can still wait)` : '';
    throw new UnumClientError(`responding to a task token: invoking ${target} failed: ${err instanceof Error ? err.message : String(err)}${gone}`);
  }
  if (answer.task === 'invalid') throw new UnumTaskTokenError(`invalid task token: ${answer.reason ?? 'no reason given'}`);
  if (answer.task === 'alreadyCompleted') throw new UnumTaskAlreadyCompletedError(`task already completed: ${answer.reason ?? 'another response or its timeout came first'}; nothing changed`);
}
