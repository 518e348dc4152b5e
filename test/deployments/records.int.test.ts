/** The deployment records and the sweeper's reads of runs on DynamoDB Local (runtime/deployments/dynamodb-records.ts, runtime/contract/table/deployments.ts). */
import { DeleteItemCommand, GetItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { UnumFormatError } from '../../runtime/contract/errors';
import { type DeploymentRecord, type Item, type PutRequest, type RunRef, type UpdateRequest, decodeDeploymentList, decodeEnvelopeKey, deploymentKey, envelopeKeyKey, keyItem, parkedUpdate, runFinish, runStart } from '../../runtime/contract/table';
import { DynamoDbDeploymentRecords } from '../../runtime/deployments/dynamodb-records';
import { namedResourcesOf } from '../../runtime/deployments/properties';
import { sweep } from '../../runtime/deployments/sweep';
import { deleteWorkflow } from '../../runtime/deployments/workflow-deletion';
import { useTestDb } from '../support/dynamodb';
import { FakeResources } from './fakes';
import { D1, D2, D3, HANDOFF_SECONDS, RETENTION_SECONDS, at, fn, iso } from './world';

const db = useTestDb();

const deployment = (id: string, functions = [fn('A', id, '1')]): DeploymentRecord => ({
  deployment: id,
  activatedAt: iso(0),
  functions,
  schedulerRoleName: `wf-scheduler-${id}`,
  graph: { A: ['B'], B: [] },
  handoffSeconds: HANDOFF_SECONDS,
  runRetentionSeconds: RETENTION_SECONDS,
});

async function setUp() {
  const { name } = await db.table();
  const raw = async (key: string): Promise<Item | undefined> => (await db.client.send(new GetItemCommand({ TableName: name, Key: keyItem(key), ConsistentRead: true }))).Item;
  const put = (request: PutRequest) => db.client.send(new PutItemCommand({ TableName: name, ...request }));
  const update = (request: UpdateRequest) => db.client.send(new UpdateItemCommand({ TableName: name, ...request }));
  return { name, records: new DynamoDbDeploymentRecords(name, 'wf', db.client), raw, put, update };
}

test('a deployment is recorded once, superseded once, made current again, marked and removed, and recorded anew after', async () => {
  const { records, raw } = await setUp();
  expect(await records.list()).toEqual([]);
  expect(await records.put({ ...deployment(D1), activatedAt: iso(0) })).toBeUndefined();
  expect(await records.put({ ...deployment(D1), activatedAt: iso(5) })).toEqual(deployment(D1));
  expect(await records.put({ ...deployment(D2, [fn('A', D2, '2')]), activatedAt: iso(60) })).toBeUndefined();
  expect((await records.list()).map((d) => d.deployment)).toEqual([D1, D2]);

  expect(await records.supersede(D1, iso(60))).toBe(true);
  expect(await records.supersede(D1, iso(61))).toBe(false);
  // Made current again with the versions its aliases were moved to, remembering those they named before.
  expect(await records.reactivate(D1, iso(62), [fn('A', D1, '5')], [fn('A', D1, '1')])).toBe(true);
  expect(await records.get(D1)).toEqual({ ...deployment(D1, [fn('A', D1, '5')]), replaced: [fn('A', D1, '1')] });
  expect(await records.reactivate(D1, iso(62), [fn('A', D1, '1')], [])).toBe(true);
  expect(await records.get(D1)).toEqual(deployment(D1));
  expect(await records.get(D3)).toBeUndefined();
  expect(await records.supersede(D1, iso(63))).toBe(true);

  expect(await records.markRemoved(D1, iso(70), 1)).toBe(false);
  expect(await records.markRemoving(D2, iso(70))).toBe(false);
  expect(await records.markRemoving(D1, iso(70))).toBe(true);
  expect(await records.markRemoving(D1, iso(71))).toBe(false);
  expect(await records.reactivate(D1, iso(71), [fn('A', D1, '1')], [])).toBe(false);
  expect(await records.supersede(D1, iso(71))).toBe(false);
  // A record being removed is not written over.
  expect(await records.put({ ...deployment(D1), activatedAt: iso(72) })).toMatchObject({ removingAt: iso(70) });
  const ttl = Math.floor(at(80) / 1000) + RETENTION_SECONDS;
  expect(await records.markRemoved(D1, iso(80), ttl)).toBe(true);
  expect(await records.markRemoved(D1, iso(81), ttl)).toBe(false);
  expect((await records.list())[0]).toEqual({ ...deployment(D1), supersededAt: iso(63), removingAt: iso(70), removedAt: iso(80) });
  expect((await raw(deploymentKey('wf', D1)))?.ttl).toEqual({ N: String(ttl) });

  // The same deployment deployed again after its removal: a new record, which does not expire.
  expect(await records.put({ ...deployment(D1, [fn('A', D1, '9')]), activatedAt: iso(500) })).toBeUndefined();
  const again = await raw(deploymentKey('wf', D1));
  expect(again?.ttl).toBeUndefined();
  expect((await records.list()).find((d) => d.deployment === D1)).toEqual({ ...deployment(D1, [fn('A', D1, '9')]), activatedAt: iso(500) });
  // A new record may already remember versions its aliases named before.
  expect(await records.put({ ...deployment(D3), activatedAt: iso(600), replaced: [{ node: 'A', functionName: 'wf-A', version: '2' }] })).toBeUndefined();
  expect((await records.get(D3))?.replaced).toEqual([{ node: 'A', functionName: 'wf-A', version: '2' }]);
});

test('the list drops deployments whose records expired, and a record of a newer format is refused', async () => {
  const { name, records, raw, put } = await setUp();
  for (const [id, minute] of [[D1, 0], [D2, 60], [D3, 120]] as const) await records.put({ ...deployment(id), activatedAt: iso(minute) });
  await db.client.send(new DeleteItemCommand({ TableName: name, Key: keyItem(deploymentKey('wf', D2)) }));
  expect((await records.list()).map((d) => d.deployment)).toEqual([D1, D3]);
  expect(decodeDeploymentList(await raw(deploymentKey('wf')))).toEqual([D1, D3]);
  // Other workflows of the table have lists and records of their own.
  expect(await new DynamoDbDeploymentRecords(name, 'other', db.client).list()).toEqual([]);

  const newer = { ...(await raw(deploymentKey('wf', D3))), fv: { N: '99' } };
  await put({ Item: newer });
  await expect(records.list()).rejects.toThrow(UnumFormatError);
});

test('the runs started within a window, with their deployment, status and parked invocations', async () => {
  const { records, put, update } = await setUp();
  const run = (workflowId: string): RunRef => ({ workflow: 'wf', workflowId });
  const ttl = Math.floor(at(10_000) / 1000);
  await put(runStart(run('early'), iso(-30), ttl, undefined, D1));
  await put(runStart(run('running'), iso(10), ttl, undefined, D1));
  // A deadline after the real clock's now: a run past its deadline can only time out.
  const deadline = Date.parse('2100-01-01T00:00:00Z');
  await put(runStart(run('failed'), iso(20), ttl, deadline, D2));
  await put(runStart(run('legacy'), iso(30), ttl));
  await put(runStart({ workflow: 'other', workflowId: 'theirs' }, iso(15), ttl, undefined, D1));
  await update(parkedUpdate(run('failed'), 'inv-1', { functionName: `wf-A:${D2}`, event: '{}', until: Math.floor(at(900) / 1000) }, ttl));
  await update(runFinish(run('failed'), { status: 'FAILED', error: { node: 'A', error: 'Boom', cause: '' }, redrive: { redo: 'inv-1' } }, iso(25), ttl));

  const pages = [];
  for await (const page of records.runsStarted(iso(0), iso(60))) pages.push(...page);
  const byId = Object.fromEntries(pages.map((r) => [r.workflowId, r]));
  expect(Object.keys(byId).sort()).toEqual(['failed', 'legacy', 'running']);
  expect(byId.running.record).toMatchObject({ status: 'RUNNING', deployment: D1, startedAt: iso(10) });
  expect(byId.failed.record).toMatchObject({ status: 'FAILED', deployment: D2, finishedAt: iso(25), deadline });
  expect(byId.failed.redrive).toMatchObject({ redo: ['inv-1'] });
  expect(byId.legacy.record.deployment).toBeUndefined();
  expect(await records.parked('failed', ['inv-1', 'inv-2'])).toEqual([{ functionName: `wf-A:${D2}`, event: '{}', until: Math.floor(at(900) / 1000) }, undefined]);
});

test('a sweep on the table keeps a deployment while its run runs, then removes it', async () => {
  const { records, update, put } = await setUp();
  const resources = new FakeResources();
  for (const [id, from, until] of [[D1, 0, 60], [D2, 60, undefined]] as const) {
    const d = { ...deployment(id, [fn('A', id, id === D1 ? '1' : '2')]), activatedAt: iso(from) };
    await records.put(d);
    resources.deploy(id, d.functions, d.schedulerRoleName);
    if (until !== undefined) await records.supersede(id, iso(until));
  }
  const ttl = Math.floor(at(10_000) / 1000);
  const run: RunRef = { workflow: 'wf', workflowId: 'r1' };
  await put(runStart(run, iso(30), ttl, undefined, D1));
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  expect(await sweep({ workflow: 'wf', records, resources, now: () => at(100) })).toEqual({ kept: [{ deployment: D1, reason: 'run r1 is RUNNING' }], removed: [] });

  await update(runFinish(run, { status: 'SUCCEEDED', result: '1' }, iso(120), ttl));
  expect(await sweep({ workflow: 'wf', records, resources, now: () => at(200) })).toEqual({ kept: [], removed: [D1] });
  expect((await records.list()).map((d) => [d.deployment, d.removedAt])).toEqual([[D1, iso(200)], [D2, undefined]]);
  expect([...resources.aliases.keys()]).toEqual([`wf-A:${D2}`]);
});

test('the workflow deleted on the table: its current and superseded deployments recorded removed, a removed one left as it was', async () => {
  const { records, raw } = await setUp();
  const resources = new FakeResources();
  for (const [id, from, until] of [[D1, 0, 60], [D2, 60, 120], [D3, 120, undefined]] as const) {
    const d = { ...deployment(id), activatedAt: iso(from) };
    await records.put(d);
    resources.deploy(id, d.functions, d.schedulerRoleName);
    if (until !== undefined) await records.supersede(id, iso(until));
  }
  await records.markRemoving(D1, iso(100));
  await records.markRemoved(D1, iso(100), 1);
  expect(await deleteWorkflow({ records: () => records, resources, named: namedResourcesOf(undefined), now: () => at(500) })).toBe(`workflow deleted: 1 function, 4 roles; recorded ${D2}, ${D3} removed`);
  const ttl = Math.floor(at(500) / 1000) + RETENTION_SECONDS;
  expect((await records.list()).map((d) => [d.deployment, d.supersededAt, d.removingAt, d.removedAt])).toEqual([
    [D1, iso(60), iso(100), iso(100)],
    [D2, iso(120), iso(500), iso(500)],
    [D3, iso(500), iso(500), iso(500)],
  ]);
  expect((await raw(deploymentKey('wf', D3)))?.ttl).toEqual({ N: String(ttl) });
});

test('the envelope key is created once, 32 random bytes that no later deploy replaces; another workflow of the table gets its own', async () => {
  const { name, records, raw } = await setUp();
  expect(await records.createEnvelopeKey()).toBe(true);
  const key = decodeEnvelopeKey(await raw(envelopeKeyKey('wf')));
  expect(key?.length).toBe(32);
  expect(await records.createEnvelopeKey()).toBe(false);
  expect(decodeEnvelopeKey(await raw(envelopeKeyKey('wf')))).toEqual(key);
  // Its item has no TTL: the envelopes of every kept deployment, and parked ones, are sealed with it.
  expect((await raw(envelopeKeyKey('wf')))?.ttl).toBeUndefined();
  expect(await new DynamoDbDeploymentRecords(name, 'other', db.client).createEnvelopeKey()).toBe(true);
  expect(Buffer.from(decodeEnvelopeKey(await raw(envelopeKeyKey('other'))) ?? []).equals(Buffer.from(key ?? []))).toBe(false);
});
