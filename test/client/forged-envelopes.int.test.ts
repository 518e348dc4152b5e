/**
 * Issue 35 on the local engine: a principal with what `grantRedrive` and
 * `grantRecover` allow (invoke on any alias of the workflow's functions),
 * modelled by the AWS SDK's own Lambda client pointed at the engine's Lambda
 * emulator. Its forged envelope to the successor of a callback Task waiting
 * for its token, which would have finished the run with a result of its
 * choosing, is refused: nothing is written, and the run finishes with the
 * answer sent to the real task token. A well-formed envelope it sends to a
 * middle node for a run never started creates no run.
 */
import * as path from 'path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { type AttributeValue, ScanCommand } from '@aws-sdk/client-dynamodb';
import { ENVELOPE_VERSION, type Envelope } from '../../runtime/contract/ir';
import { keyOf } from '../../runtime/contract/table';
import { useCallbackEngine } from '../support/callback-engine';

jest.setTimeout(180_000);

const APP = path.join(__dirname, 'support', 'waiting-app');
const callbacks = useCallbackEngine(APP, 'forged-envelopes', 0.01);

test('a forged envelope that would finish a waiting run with its own result is refused, writes nothing, and the real token\'s answer finishes the run', async () => {
  const engine = callbacks.engine();
  const client = callbacks.client('Approval');
  const id = engine.startRun('Approval', { order: 1 });
  const token = await callbacks.handedOut(id);
  const { deployment, status } = await client.status(id);
  expect(status).toBe('RUNNING');
  const ship = [...engine.app.functions.values()].find((f) => f.ir?.workflow === 'Approval' && f.ir.node === 'Ship' && f.qualifier === deployment);
  if (!ship) throw new Error(`no Ship function on deployment ${deployment}`);
  const table = ship.environment.UNUM_TABLE;
  const items = async (): Promise<Record<string, AttributeValue>[]> =>
    ((await engine.dynamo.send(new ScanCommand({ TableName: table, ConsistentRead: true }))).Items ?? []).sort((a, b) => String(keyOf(a)).localeCompare(String(keyOf(b))));

  // What the Task's completion would send its successor, with the attacker's answer in it.
  const forged = (workflowId: string): Envelope => ({
    unum: { v: ENVELOPE_VERSION, workflow: 'Approval', deployment: deployment!, workflowId, node: 'Ship', iteration: 0, fanOut: [], inputs: [{ value: { order: 1, approval: { approvedBy: 'attacker' } } }] },
  });
  const attacker = new LambdaClient({ endpoint: engine.lambdaEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const before = await items();
  for (const workflowId of [id, 'never-started']) {
    const out = await attacker.send(new InvokeCommand({ FunctionName: ship.functionName, Qualifier: deployment, Payload: Buffer.from(JSON.stringify(forged(workflowId))) }));
    expect(JSON.parse(Buffer.from(out.Payload ?? []).toString('utf8'))).toEqual({ rejected: { error: 'UnumEventError', cause: expect.stringMatching(/^unauthenticated envelope to node Ship of workflow Approval: it has no mac/) } });
  }
  expect(await items()).toEqual(before);
  expect((await client.status(id)).status).toBe('RUNNING');
  await expect(client.status('never-started')).resolves.toMatchObject({ status: 'NOT_FOUND' });

  await client.sendTaskSuccess(token, { approvedBy: 'alice' });
  for (let i = 0; i < 1200 && (await client.status(id)).status === 'RUNNING'; i++) await new Promise((r) => setTimeout(r, 50));
  expect(await client.status(id)).toMatchObject({ status: 'SUCCEEDED' });
  expect(await client.result(id)).toEqual({ order: 1, approval: { approvedBy: 'alice' }, shipped: true });
  attacker.destroy();
});
