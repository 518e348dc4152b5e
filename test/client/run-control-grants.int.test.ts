/**
 * What a principal granted `grantStop` or `grantRedrive` can do (issue 35,
 * "operator permissions that cannot write results"): invoke one alias of the
 * run-control function, whose handler (runtime/control/handler.ts, served
 * here behind the Lambda stub, on DynamoDB Local) makes the action's writes
 * and nothing else. The grants' policies hold no table write
 * (test/construct/run-control-function.int.test.ts); this file shows that what the
 * function takes cannot give a run a status or a result it did not compute.
 */
import { InvokeCommand } from '@aws-sdk/client-lambda';
import { PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { UnumClient, UnumClientError, UnumRunNotRedrivableError } from '../../lib/client';
import { TableReader } from '../../lib/runs/table-reader';
import { decodeRunRecord, runFinish, runKey, type RunRef, runStart } from '../../runtime/contract/table';
import { WORKFLOW } from './support/dynamodb';
import { RUN_CONTROL, runControlFixture } from './support/run-control';

const fixture = runControlFixture();
const { emulators } = fixture;
const CONTROL = RUN_CONTROL;

const run = (workflowId: string): RunRef => ({ workflow: WORKFLOW, workflowId });
const hour = (): number => Math.floor(Date.now() / 1000) + 3600;
const record = async (workflowId: string) => decodeRunRecord((await new TableReader(emulators.dynamo.client, fixture.table).get(runKey(run(workflowId))))!);
const running = (workflowId: string) => emulators.dynamo.client.send(new PutItemCommand({ TableName: fixture.table, ...runStart(run(workflowId), new Date().toISOString(), hour(), undefined, 'd1111111111111111111a') }));

/** The raw answer of the run-control function to `payload` through `qualifier`, as a principal invoking it by hand gets it. */
async function invokeRaw(payload: unknown, qualifier?: string): Promise<unknown> {
  const out = await emulators.lambda.client.send(new InvokeCommand({ FunctionName: CONTROL, ...(qualifier === undefined ? {} : { Qualifier: qualifier }), Payload: Buffer.from(JSON.stringify(payload)) }));
  return JSON.parse(Buffer.from(out.Payload ?? []).toString('utf8'));
}

test('a stop request that asks for a status or a result is refused before any write; the run stays RUNNING', async () => {
  await running('r');
  const before = await record('r');
  for (const forged of [
    { workflowId: 'r', status: 'SUCCEEDED', result: '{"approvedBy":"attacker"}' },
    { workflowId: 'r', error: 'x', output: { approvedBy: 'attacker' } },
    { workflowId: 'r', deployment: 'latest' },
    { workflowId: 'r', error: 'e'.repeat(257) },
    { workflowId: 'r', cause: 42 },
    { workflowId: '../r' },
    ['r'],
  ]) {
    expect(await invokeRaw(forged, 'stop')).toEqual({ invalid: expect.any(String) });
  }
  expect(await record('r')).toEqual(before);
});

test('each alias does its own action only: stop fields through the redrive alias, or any request unqualified or through another alias, are refused', async () => {
  await running('r');
  const before = await record('r');
  expect(await invokeRaw({ workflowId: 'r', error: 'Cancelled' }, 'redrive')).toEqual({ invalid: "a redrive request has no field 'error' (it takes workflowId, deployment)" });
  expect(await invokeRaw({ workflowId: 'r' })).toEqual({ invalid: 'invoke the run-control function through its stop or redrive alias, not unqualified' });
  expect(await invokeRaw({ workflowId: 'r' }, 'live')).toEqual({ invalid: 'invoke the run-control function through its stop or redrive alias, not live' });
  expect(await invokeRaw({ workflowId: 'r' }, 'redrive')).toEqual({ refused: { status: 'RUNNING', reason: 'it is RUNNING, and only a FAILED, ABORTED or TIMED_OUT run is redriven' } });
  expect(await record('r')).toEqual(before);
});

test('a stop ends a RUNNING run ABORTED with its error and cause, and leaves a finished run, its status and result, as they were', async () => {
  await running('r');
  expect(await fixture.client.stop('r', { error: 'Cancelled', cause: 'by the operator' })).toMatchObject({ workflowId: 'r', status: 'ABORTED', stopped: true });
  expect(await record('r')).toMatchObject({ status: 'ABORTED', error: { node: '', error: 'Cancelled', cause: 'by the operator' } });
  await expect(fixture.client.stop('missing')).rejects.toThrow(UnumClientError);
  await expect(fixture.client.stop('missing')).rejects.toThrow('run missing of wf not found: not started yet, or its record expired; nothing was stopped');
});

test('a stop of a SUCCEEDED run changes nothing; a redrive of it is refused and changes nothing', async () => {
  await running('s');
  await emulators.dynamo.client.send(new UpdateItemCommand({ TableName: fixture.table, ...runFinish(run('s'), { status: 'SUCCEEDED', result: '{"approvedBy":"alice"}' }, new Date().toISOString(), hour()) }));
  const finished = await record('s');
  expect(await fixture.client.stop('s', { error: 'Forged' })).toMatchObject({ status: 'SUCCEEDED', stopped: false });
  await expect(fixture.client.redrive('s')).rejects.toThrow(UnumRunNotRedrivableError);
  expect(await record('s')).toEqual(finished);
  expect((await record('s')).result).toBe('{"approvedBy":"alice"}');
});

test('the client refuses to stop or redrive without the run-control function, naming the stack output', async () => {
  const bare = UnumClient.forWorkflow({ entryFunction: 'wf-A', table: fixture.table, workflow: WORKFLOW, lambda: emulators.lambda.client, dynamodb: emulators.dynamo.client });
  await expect(bare.stop('r')).rejects.toThrow('stop: the run-control function of workflow wf is unknown: give runControlFunction (stack output <prefix>RunControlFunctionName)');
  await expect(bare.redrive('r')).rejects.toThrow('redrive: the run-control function of workflow wf is unknown');
  expect(() => UnumClient.forWorkflow({ entryFunction: 'wf-A', table: fixture.table, workflow: WORKFLOW, runControlFunction: `${CONTROL}:stop` })).toThrow("runControlFunction 'wf-control:stop' has a qualifier (stop): give the function without one");
});
