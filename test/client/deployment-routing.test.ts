/**
 * Every call the client makes names a deployment's alias, never `$LATEST`
 * (issue 34): a start goes to the entry's `live` alias, a task response to
 * the task-response function's alias of the deployment its token names. A
 * token that names no deployment is refused before any call.
 */
import { UnumClient, UnumClientError, UnumTaskTokenError } from '../../lib/client';
import { encodeTaskToken, newTaskSecret } from '../../runtime/contract/task-token';
import { stubDynamo, stubLambda } from './support/sdk-stub';

const D = 'd0123456789abcdef0123';
const INVOCATION = 'a'.repeat(43);
const token = (over: { workflow?: string; deployment?: string } = {}): string =>
  encodeTaskToken({ workflow: 'Orders', workflowId: 'run-1', node: 'Approve', invocation: INVOCATION, secret: newTaskSecret(), deployment: D, ...over });

function client(answer: unknown = { task: 'completed' }) {
  const lambda = stubLambda(answer);
  const c = UnumClient.forWorkflow({ entryFunction: 'wf-Entry', table: 't', workflow: 'Orders', taskResponseFunction: 'wf-Respond', lambda: lambda.client, dynamodb: stubDynamo([]) });
  return { c, invokes: lambda.invokes };
}

test('a start invokes the entry function\'s live alias, asynchronously', async () => {
  const { c, invokes } = client();
  const id = await c.start({ a: 1 }, { workflowId: 'run-1' });
  expect(invokes).toEqual([{ functionName: 'wf-Entry', qualifier: 'live', invocationType: 'Event', payload: { input: { a: 1 }, workflowId: id } }]);
});

test('a task response goes to the task-response function of the deployment the token names', async () => {
  const { c, invokes } = client();
  const t = token();
  await c.sendTaskSuccess(t, { ok: true });
  await c.sendTaskFailure(t, 'Rejected', 'no');
  await c.sendTaskHeartbeat(t);
  expect(invokes.map((i) => [i.functionName, i.qualifier])).toEqual([['wf-Respond', D], ['wf-Respond', D], ['wf-Respond', D]]);
  expect(invokes.map((i) => i.payload)).toEqual([{ token: t, success: { ok: true } }, { token: t, failure: { error: 'Rejected', cause: 'no' } }, { token: t, heartbeat: true }]);
});

test('a token of format 1, of no deployment, malformed or of another workflow is refused before any call', async () => {
  const { c, invokes } = client();
  const format1 = `u1.${Buffer.from(JSON.stringify(['Orders', 'run-1', 'Approve', INVOCATION, newTaskSecret()])).toString('base64url')}`;
  await expect(c.sendTaskSuccess(format1, 1)).rejects.toThrow(UnumTaskTokenError);
  await expect(c.sendTaskSuccess(format1, 1)).rejects.toThrow(/invalid task token: a task token of format 1, issued by an unum-cdk before deployments were pinned.*; nothing was sent/);
  await expect(c.sendTaskSuccess(token({ deployment: '' }), 1)).rejects.toThrow('invalid task token: it names no deployment (issued by a function the construct did not deploy); nothing was sent');
  await expect(c.sendTaskHeartbeat('u2.garbage')).rejects.toThrow(/invalid task token: the task token does not decode; nothing was sent/);
  await expect(c.sendTaskFailure(token({ workflow: 'Billing' }), 'E')).rejects.toThrow('invalid task token: it is a token of workflow Billing, not of Orders; nothing was sent');
  expect(invokes).toEqual([]);
});

test('the answer of the task-response function still decides: invalid and already completed are errors', async () => {
  await expect(client({ task: 'invalid', reason: 'no task waits' }).c.sendTaskSuccess(token(), 1)).rejects.toThrow('invalid task token: no task waits');
  await expect(client({ task: 'alreadyCompleted' }).c.sendTaskSuccess(token(), 1)).rejects.toThrow(/task already completed/);
});

test('a deployment whose task-response alias is gone is named in the error', async () => {
  const gone = Object.assign(new Error('Function not found: wf-Respond:' + D), { name: 'ResourceNotFoundException' });
  const c = UnumClient.forWorkflow({ entryFunction: 'wf-Entry', table: 't', workflow: 'Orders', taskResponseFunction: 'wf-Respond', lambda: { send: async () => { throw gone; } } as never, dynamodb: stubDynamo([]) });
  const err = await c.sendTaskSuccess(token(), 1).then(() => new Error('expected a refusal'), (e: unknown) => e as Error);
  expect(err).toBeInstanceOf(UnumClientError);
  expect(err.message).toBe(`responding to a task token: invoking wf-Respond:${D} failed: Function not found: wf-Respond:${D} (deployment ${D} of workflow Orders is not deployed, or was removed: no run of it can still wait)`);
});
