/**
 * A redrive stays on the run's deployment, or with `deployment: 'latest'`
 * moves it to the newest one when its node graph is unchanged (issue 34), on
 * DynamoDB Local with records as the runtime and the sweeper write them: the
 * re-sent envelopes name the deployment and go to its aliases, and the run
 * record's deployment moves in the redrive's conditional write. The client
 * invokes the run-control function's `redrive` alias, served here by the
 * runtime's handler (runtime/control/handler.ts) behind the Lambda stub.
 */
import { PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { UnumRunNotRedrivableError } from '../../lib/client';
import { runClientCommand } from '../support/cli';
import { TableReader } from '../../lib/runs/table-reader';
import { TABLE_FORMAT, decodeRunRecord, deploymentListed, deploymentPut, deploymentSuperseded, parkedUpdate, type PutRequest, runFinish, runKey, type RunRef, runStart, type UpdateRequest } from '../../runtime/contract/table';
import { RUN_CONTROL, runControlFixture } from './support/run-control';
import { ENVELOPE_VERSION } from '../../runtime/contract/ir';
import type { StubFunction } from './support/lambda-stub';
import { WORKFLOW } from './support/dynamodb';

const [D1, D2] = ['d1111111111111111111a', 'd2222222222222222222b'];
const INVOCATION = 'B'.repeat(43);
const GRAPH = { A: ['B'], B: ['C'], C: [] };
const hour = (): number => Math.floor(Date.now() / 1000) + 3600;

const accept = async (): Promise<void> => undefined;
const functions: Record<string, StubFunction> = { [`wf-B:${D1}`]: accept, [`wf-B:${D2}`]: accept };
const fixture = runControlFixture(functions);
const { emulators } = fixture;
const CONTROL = RUN_CONTROL;

const put = (request: PutRequest) => emulators.dynamo.client.send(new PutItemCommand({ TableName: fixture.table, ...request }));
const write = (request: UpdateRequest) => emulators.dynamo.client.send(new UpdateItemCommand({ TableName: fixture.table, ...request }));
const run = (workflowId: string): RunRef => ({ workflow: WORKFLOW, workflowId });
const envelope = (workflowId: string, deployment: string | undefined, v: number = ENVELOPE_VERSION) =>
  ({ unum: { v, workflow: WORKFLOW, ...(deployment === undefined ? {} : { deployment }), workflowId, node: 'B', iteration: 0, fanOut: [], inputs: [{ value: 1 }] } });

/** A run of `deployment` (none: an older unum-cdk's) that FAILED at B, its invocation parked on B's alias of that deployment. */
async function failedRun(workflowId: string, deployment: string | undefined, v: number = ENVELOPE_VERSION): Promise<void> {
  await put(runStart(run(workflowId), new Date().toISOString(), hour(), undefined, deployment));
  const functionName = deployment === undefined ? 'wf-B' : `wf-B:${deployment}`;
  await write(parkedUpdate(run(workflowId), INVOCATION, { functionName, event: JSON.stringify(envelope(workflowId, deployment, v)), until: hour() }, hour()));
  await write(runFinish(run(workflowId), { status: 'FAILED', error: { node: 'B', error: 'Bug', cause: 'a bug' }, redrive: { redo: INVOCATION } }, new Date().toISOString(), hour()));
}

/** The sweeper's records: D1 activated, then D2 with `graph`, superseding D1. */
async function deployed(graph: Record<string, string[]>): Promise<void> {
  const record = (deployment: string, activatedAt: string, g: Record<string, string[]>) =>
    deploymentPut(WORKFLOW, { deployment, activatedAt, functions: [{ node: 'B', functionName: 'wf-B', version: '1' }], graph: g, handoffSeconds: 900, runRetentionSeconds: 86400 });
  await put(record(D1, '2026-01-01T00:00:00.000Z', GRAPH));
  await write(deploymentListed(WORKFLOW, D1));
  await put(record(D2, '2026-01-02T00:00:00.000Z', graph));
  await write(deploymentListed(WORKFLOW, D2));
  await write(deploymentSuperseded(WORKFLOW, D1, '2026-01-02T00:00:00.000Z'));
}

const record = async (workflowId: string) => decodeRunRecord((await new TableReader(emulators.dynamo.client, fixture.table).get(runKey(run(workflowId))))!);
const sent = () => emulators.lambda.invocations.filter((i) => i.functionName !== CONTROL).map((i) => ({ functionName: i.functionName, deployment: (i.payload as ReturnType<typeof envelope>).unum.deployment }));

test('a redrive goes on on the run\'s own deployment, even after a later deploy', async () => {
  await deployed(GRAPH);
  await failedRun('r', D1);
  expect(await fixture.client.redrive('r')).toEqual({ workflowId: 'r', redriveCount: 1, resumed: 1, deployment: D1 });
  expect(sent()).toEqual([{ functionName: `wf-B:${D1}`, deployment: D1 }]);
  expect(await record('r')).toMatchObject({ status: 'RUNNING', deployment: D1 });
});

test('latest with the same node graph: the run moves, its envelopes go to the new deployment\'s aliases', async () => {
  await deployed({ C: [], B: ['C'], A: ['B'] });
  await failedRun('r', D1);
  expect(await fixture.client.redrive('r', { deployment: 'latest' })).toEqual({ workflowId: 'r', redriveCount: 1, resumed: 1, deployment: D2, movedFrom: D1 });
  expect(sent()).toEqual([{ functionName: `wf-B:${D2}`, deployment: D2 }]);
  // Its MAC covers the deployment it was sealed on, which it keeps as movedFrom (no one but the functions can seal).
  expect(emulators.lambda.invocations.find((i) => i.functionName !== CONTROL)?.payload).toEqual({ unum: { ...envelope('r', D2).unum, movedFrom: D1, redrive: 1 } });
  expect(await record('r')).toMatchObject({ status: 'RUNNING', deployment: D2, redriveCount: 1 });
});

test('latest with another node graph: refused, naming what changed; nothing changes', async () => {
  await deployed({ A: ['Label'], Label: ['C'], C: [] });
  await failedRun('r', D1);
  const err = await fixture.client.redrive('r', { deployment: 'latest' }).then(() => new Error('expected a refusal'), (e: unknown) => e as Error);
  expect(err).toBeInstanceOf(UnumRunNotRedrivableError);
  expect(err.message).toBe(`run r (FAILED) cannot be redriven: the latest deployment ${D2} has another node graph than its deployment ${D1}: node 'A' now leads to 'Label' instead of 'B'; node 'B' was removed; node 'Label' was added`);
  expect(sent()).toEqual([]);
  expect(await record('r')).toMatchObject({ status: 'FAILED', deployment: D1 });
  expect((await record('r')).redriveCount).toBeUndefined();
});

test('latest recorded by a runtime that names invocations otherwise (fixture.table format 2, before the workflow tag): refused; nothing changes', async () => {
  await deployed(GRAPH);
  // D1's sweeper was of format 2: its record, and its runs' invocation names, are of that format.
  await emulators.dynamo.client.send(new UpdateItemCommand({ TableName: fixture.table, Key: { pk: { S: `dep#${WORKFLOW}#${D1}` } }, UpdateExpression: 'SET fv = :two', ExpressionAttributeValues: { ':two': { N: '2' } } }));
  await failedRun('r', D1);
  await expect(fixture.client.redrive('r', { deployment: 'latest' })).rejects.toThrow(
    `run r (FAILED) cannot be redriven: its deployment ${D1} names invocations as table format 2 does, the latest deployment ${D2} as format ${TABLE_FORMAT} does: it would not find the run's checkpoints`,
  );
  expect(sent()).toEqual([]);
  expect(await record('r')).toMatchObject({ status: 'FAILED', deployment: D1 });
});

test('latest on a run of the latest deployment is a plain redrive', async () => {
  await deployed(GRAPH);
  await failedRun('r', D2);
  expect(await fixture.client.redrive('r', { deployment: 'latest' })).toEqual({ workflowId: 'r', redriveCount: 1, resumed: 1, deployment: D2 });
});

test('a moved redrive that was interrupted is finished on the new deployment by a plain redrive', async () => {
  await deployed(GRAPH);
  await failedRun('r', D1);
  delete functions[`wf-B:${D2}`];
  await expect(fixture.client.redrive('r', { deployment: 'latest' })).rejects.toThrow(
    `redriving run r: invoking ${CONTROL}:redrive failed (call redrive again to finish): invoking wf-B:${D2} failed: Function not found: wf-B:${D2}`,
  );
  functions[`wf-B:${D2}`] = accept;
  emulators.lambda.invocations.length = 0;
  expect(await fixture.client.redrive('r')).toEqual({ workflowId: 'r', redriveCount: 1, resumed: 1, deployment: D2 });
  expect(sent()).toEqual([{ functionName: `wf-B:${D2}`, deployment: D2 }]);
});

test('refused: latest without deployment records, or for a run of an unum-cdk before deployments; a parked envelope of an older format', async () => {
  await failedRun('r', D1);
  await expect(fixture.client.redrive('r', { deployment: 'latest' })).rejects.toThrow('run r (FAILED) cannot be redriven: the workflow has no deployment record to move it to (the sweeper writes one at every deploy)');
  await failedRun('old', undefined);
  await expect(fixture.client.redrive('old', { deployment: 'latest' })).rejects.toThrow('it was started by an unum-cdk before deployments: it has no deployment to move from');
  await failedRun('v2', undefined, 2);
  await expect(fixture.client.redrive('v2')).rejects.toThrow('its parked invocations are envelopes of format 2, from an unum-cdk before deployment pinning: the functions run format 4 and would refuse them');
  await failedRun('v3', D1, 3);
  await expect(fixture.client.redrive('v3')).rejects.toThrow('its parked invocations are envelopes of format 3, from an unum-cdk before envelopes were authenticated: the functions run format 4 and would refuse them');
  expect(sent()).toEqual([]);
});

test('unum redrive --deployment latest; runs and status show the deployment', async () => {
  await deployed(GRAPH);
  await failedRun('r', D1);
  const where = ['--entry-function', 'wf-A', '--table', fixture.table, '--workflow', WORKFLOW, '--run-control-function', CONTROL];
  expect(await runClientCommand(['redrive', 'r', '--deployment', 'newest', ...where])).toMatchObject({ code: 2, err: expect.stringContaining("--deployment takes 'latest'") });
  expect(await runClientCommand(['redrive', 'r', '--deployment', 'latest', ...where])).toEqual({ code: 0, out: `redrove r (redrive 1): 1 invocation resumed on deployment ${D2} (moved from ${D1})\n`, err: '' });
  const status = await runClientCommand(['status', 'r', ...where]);
  expect(status.out).toContain(`deployment  ${D2}\n`);
  expect(JSON.parse((await runClientCommand(['status', 'r', '--json', ...where])).out)).toMatchObject({ deployment: D2 });
  const runs = await runClientCommand(['runs', ...where]);
  expect(runs.out.split('\n')[0]).toMatch(/^run\s+status\s+deployment\s+started/);
  expect(runs.out.split('\n')[1]).toMatch(new RegExp(`^r\\s+RUNNING\\s+${D2}\\s`));
  expect(JSON.parse((await runClientCommand(['runs', '--json', ...where])).out).runs[0]).toMatchObject({ workflowId: 'r', deployment: D2 });
  const deployments = await runClientCommand(['deployments', WORKFLOW, '--entry-function', 'wf-A', '--table', fixture.table, '--json']);
  expect(JSON.parse(deployments.out)).toMatchObject([{ deployment: D2, live: true }, { deployment: D1, live: false, supersededAt: '2026-01-02T00:00:00.000Z' }]);
  expect(await runClientCommand(['deployments', 'Other', ...where])).toMatchObject({ code: 2, err: expect.stringContaining("the workflow is named twice: 'Other' and --workflow 'wf'") });
});
