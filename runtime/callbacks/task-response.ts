/**
 * The workflow's task-response function (docs/architecture.md "Callbacks"):
 * the one door through which a principal allowed by `grantTaskResponse`
 * completes task tokens (`sendTaskSuccess`, `sendTaskFailure`,
 * `sendTaskHeartbeat`). Each deployment has its version (alias): the client
 * invokes the one the token's deployment names, which answers tokens of its
 * own deployment only. It reads the node from the token and invokes that
 * callback Task's function of this deployment (qualified, from
 * UNUM_TASK_FUNCTIONS) synchronously with the response, returning its
 * answer; it may invoke those functions only, and reads no table. Callers
 * never get invoke rights on workflow functions, and cannot send a timeout.
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ENV, type TaskResponseAnswer } from '../contract/ir';
import { decodeTaskToken, otherDeployment } from '../contract/task-token';


const KINDS = ['success', 'failure', 'heartbeat'];

let client: LambdaClient | undefined;

export async function handler(event: unknown): Promise<TaskResponseAnswer> {
  const r = (typeof event === 'object' && event !== null && !Array.isArray(event) ? event : {}) as Record<string, unknown>;
  const kinds = Object.keys(r).filter((k) => k !== 'token');
  if (kinds.length !== 1 || !KINDS.includes(kinds[0])) return { task: 'invalid', reason: 'a task response is { token } with exactly one of success, failure, heartbeat' };
  const token = decodeTaskToken(r.token);
  if (typeof token === 'string') return { task: 'invalid', reason: token };
  const deployment = process.env[ENV.deployment] ?? '';
  if (token.deployment !== deployment) return { task: 'invalid', reason: otherDeployment(token.deployment, deployment) };
  const functions = JSON.parse(process.env[ENV.taskFunctions] ?? '{}') as Record<string, string>;
  const functionName = token.workflow === process.env[ENV.workflow] && Object.hasOwn(functions, token.node) ? functions[token.node] : undefined;
  if (!functionName) return { task: 'invalid', reason: `the token names no callback Task of workflow ${process.env[ENV.workflow]}` };
  client ??= new LambdaClient({});
  const out = await client.send(new InvokeCommand({ FunctionName: functionName, Payload: Buffer.from(JSON.stringify({ unumTask: r })) }));
  const payload = out.Payload ? Buffer.from(out.Payload).toString('utf8') : 'null';
  if (out.FunctionError) throw new Error(`the callback Task's function ${functionName} failed: ${payload}`);
  return JSON.parse(payload) as TaskResponseAnswer;
}
