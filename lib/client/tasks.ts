/**
 * Responses to task tokens of callback Tasks (docs/architecture.md
 * "Callbacks"): a synchronous invoke of the workflow's task-response
 * function, whose answer becomes nothing (done), or an error saying why
 * nothing changed.
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { TaskResponseAnswer } from '../../runtime/contract/ir';
import type { TaskResponseRequest } from '../../runtime/contract/task-token';
import { UnumClientError, UnumTaskAlreadyCompletedError, UnumTaskTokenError } from './errors';

export async function respondToTask(lambda: LambdaClient, functionName: string | undefined, workflow: string, request: TaskResponseRequest): Promise<void> {
  if (!functionName) throw new UnumClientError(`workflow ${workflow} has no task-response function: it has no callback Task (or give taskResponseFunction, stack output TaskResponseFunctionName)`);
  let answer: TaskResponseAnswer;
  try {
    const out = await lambda.send(new InvokeCommand({ FunctionName: functionName, Payload: Buffer.from(JSON.stringify(request)) }));
    const payload = out.Payload ? Buffer.from(out.Payload).toString('utf8') : '';
    if (out.FunctionError) throw new Error(payload);
    answer = JSON.parse(payload) as TaskResponseAnswer;
  } catch (err) {
    throw new UnumClientError(`responding to a task token: invoking ${functionName} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (answer.task === 'invalid') throw new UnumTaskTokenError(`invalid task token: ${answer.reason ?? 'no reason given'}`);
  if (answer.task === 'alreadyCompleted') throw new UnumTaskAlreadyCompletedError(`task already completed: ${answer.reason ?? 'another response or its timeout came first'}; nothing changed`);
}
