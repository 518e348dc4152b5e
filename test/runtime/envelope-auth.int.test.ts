/**
 * Authenticated envelopes on DynamoDB Local (issue 35): a node accepts only
 * envelopes its workflow's functions sealed. An envelope without their MAC,
 * or with a MAC of another key, is rejected before any read or write and
 * names no run, so it writes nothing: it neither creates a run nor ends one.
 * A sealed envelope delivered again is a duplicate, absorbed. A redrive's own
 * fields, outside the MAC, are checked against the table: a generation no
 * redrive marked, or a move the run record does not name, is refused without
 * a write. The failure recorder acts only on a failed envelope that was sealed.
 */
import { PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { sealEnvelope } from '../../runtime/contract/envelope-mac';
import type { FailureRecord } from '../../runtime/contract/failure-record';
import type { Envelope } from '../../runtime/contract/ir';
import { invocationName } from '../../runtime/contract/naming';
import { decodeRunRecord, keyOf, parkedUpdate, parkResent, type Item, runStart } from '../../runtime/contract/table';
import { createFailureRecorder } from '../../runtime/entry/failure-recorder';
import { createHandler } from '../../runtime/entry/handler';
import { counting } from '../support/counting-store';
import { useTestDb } from '../support/dynamodb';
import { testEnvelopeKey } from '../support/envelope-key';
import { defineWorkflow, Driver, lambdaContext, QueueInvoker, seq, succeed } from '../support/harness';

const db = useTestDb();

const D1 = 'd0000000000000000000a';
const D2 = 'd0000000000000000000b';
/** A -> B -> C: C's result is the run's. */
const nodes = (deployment = '') =>
  defineWorkflow('Auth', { A: { fn: (x: number) => x + 1, instructions: [seq('B')] }, B: { fn: (x: unknown) => x, instructions: [seq('C')] }, C: { instructions: [succeed] } }, {}, deployment);

const sorted = async (table: string): Promise<Item[]> => (await db.scan(table)).sort((a, b) => String(keyOf(a)).localeCompare(String(keyOf(b))));

/** A run held before B: RUNNING, with the real envelope A sealed for B. */
async function heldRun(deployment = ''): Promise<{ d: Driver; name: string; toB: Envelope }> {
  const { name, store } = await db.table();
  const d = new Driver(store, nodes(deployment));
  await d.run({ workflowId: 'r', input: 1 }, { hold: (x) => x.event.unum.node === 'B' });
  expect(decodeRunRecord((await db.run(name, 'r'))!).status).toBe('RUNNING');
  return { d, name, toB: d.held[0].event };
}

/** A value `depth` arrays deep: more than JSON.stringify's stack holds. */
const nested = (depth: number): unknown[] => {
  let value: unknown[] = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

const forged = (toB: Envelope, change: Record<string, unknown>): Envelope => ({ unum: { ...toB.unum, ...change } as Envelope['unum'] });

describe('an envelope the workflow\'s functions did not seal is rejected, naming no run, writing nothing', () => {
  const cases: [string, (toB: Envelope) => unknown, RegExp][] = [
    ['a well-formed envelope without a MAC, to a middle node, for a run never started', (toB) => forged(toB, { workflowId: 'ghost' }), /it has no mac/],
    ['the real envelope with the input changed, its MAC kept', (toB) => ({ ...forged(toB, { inputs: [{ value: { approvedBy: 'attacker' } }] }), mac: toB.mac }), /its mac does not verify/],
    ['an envelope sealed with another key', (toB) => sealEnvelope(new Uint8Array(32).fill(9), forged(toB, { inputs: [{ value: 666 }] })), /its mac does not verify/],
    ['a sealed envelope with a key beside unum and mac', (toB) => ({ ...toB, extra: 1 }), /unexpected key "extra"/],
    ['an input nested too deeply to serialize, with the real MAC', (toB) => ({ ...forged(toB, { inputs: [{ value: nested(200_000) }] }), mac: toB.mac }), /its mac does not verify/],
  ];
  test.each(cases)('%s', async (_, forge, reason) => {
    const { d, name, toB } = await heldRun();
    const before = await sorted(name);
    const c = counting(d.store);
    const invoker = new QueueInvoker();
    const handler = createHandler(nodes().B.module, { envelopeKey: testEnvelopeKey, ir: nodes().B.ir, store: c.store, invoker });
    await expect(handler(forge(toB), lambdaContext('fn-B'))).resolves.toEqual({ rejected: { error: 'UnumEventError', cause: expect.stringMatching(reason) } });
    expect([c.calls, invoker.sent, await sorted(name)]).toEqual([{}, [], before]);
    // The run goes on with what its own functions sent.
    await d.releaseHeld();
    expect(decodeRunRecord((await db.run(name, 'r'))!)).toMatchObject({ status: 'SUCCEEDED', result: '2' });
    expect(await db.run(name, 'ghost')).toBeUndefined();
  });
});

test('a sealed envelope delivered again is a duplicate: absorbed, the result unchanged', async () => {
  const { d, name, toB } = await heldRun();
  await d.releaseHeld();
  const after = await sorted(name);
  await d.deliver('fn-B', toB);
  await d.drain();
  expect(await sorted(name)).toEqual(after);
});

test('a generation no redrive marked (redrive is outside the MAC) is refused before the step, writing nothing', async () => {
  const { d, name, toB } = await heldRun();
  const before = await sorted(name);
  const answer = await d.handlers.get('fn-B')!({ ...toB, unum: { ...toB.unum, redrive: 1 } }, lambdaContext('fn-B'));
  expect(answer).toEqual({ rejected: { error: 'UnumEventError', cause: expect.stringMatching(/generation 1 to node B .* no redrive of that generation re-sent invocation .* \(its parked item is marked 0\)/) } });
  expect(await sorted(name)).toEqual(before);
  // Marked by a redrive of that generation (its parked item), the same envelope is taken.
  const run = { workflow: 'Auth', workflowId: 'r' };
  const invocation = invocationName(run, 'B', 0, []);
  await db.client.send(new UpdateItemCommand({ TableName: name, ...parkedUpdate(run, invocation, { functionName: 'fn-B', event: JSON.stringify(toB), until: 2_000_000_000 }, 2_000_000_000) }));
  await db.client.send(new UpdateItemCommand({ TableName: name, ...parkResent(run, invocation, 1) }));
  await expect(d.handlers.get('fn-B')!({ ...toB, unum: { ...toB.unum, redrive: 1 } }, lambdaContext('fn-B'))).resolves.toEqual({ workflowId: 'r' });
});

test('a move to another deployment (movedFrom) is taken only where the run record names that deployment', async () => {
  const { name, store } = await db.table();
  const run = { workflow: 'Auth', workflowId: 'm' };
  const invocation = invocationName(run, 'B', 0, []);
  const onD1 = sealEnvelope((await testEnvelopeKey('Auth')), { unum: { v: 4, workflow: 'Auth', deployment: D1, workflowId: 'm', node: 'B', iteration: 0, fanOut: [], inputs: [{ value: 5 }] } });
  const moved = { ...onD1, unum: { ...onD1.unum, deployment: D2, movedFrom: D1, redrive: 1 } };
  await db.client.send(new PutItemCommand({ TableName: name, ...runStart(run, new Date().toISOString(), 2_000_000_000, undefined, D1) }));
  await db.client.send(new UpdateItemCommand({ TableName: name, ...parkedUpdate(run, invocation, { functionName: `fn-B:${D1}`, event: JSON.stringify(onD1), until: 2_000_000_000 }, 2_000_000_000) }));
  await db.client.send(new UpdateItemCommand({ TableName: name, ...parkResent(run, invocation, 1) }));
  const invoker = new QueueInvoker();
  const onD2 = createHandler(nodes(D2).B.module, { envelopeKey: testEnvelopeKey, ir: nodes(D2).B.ir, store, invoker });
  const before = await sorted(name);
  await expect(onD2(moved, lambdaContext('fn-B'))).resolves.toEqual({ rejected: { error: 'UnumEventError', cause: expect.stringMatching(/moved from deployment d0+a to node B of deployment d0+b: the run record names deployment d0+a/) } });
  expect([invoker.sent, await sorted(name)]).toEqual([[], before]);
  // A redrive that moved the run wrote its deployment on the record first: then the moved envelope runs there.
  await db.client.send(new PutItemCommand({ TableName: name, Item: runStart(run, new Date().toISOString(), 2_000_000_000, undefined, D2).Item }));
  await expect(onD2(moved, lambdaContext('fn-B'))).resolves.toEqual({ workflowId: 'm' });
  expect(invoker.sent.map((s) => [s.functionName, s.event.unum.deployment, s.event.unum.node])).toEqual([[`fn-C:${D2}`, D2, 'C']]);
});

test('the failure recorder ignores a failed envelope that was not sealed: the run it names stays RUNNING, nothing is written', async () => {
  const { d, name, toB } = await heldRun();
  const before = await sorted(name);
  const record = (payload: unknown): FailureRecord => ({
    version: '1.0',
    requestContext: { requestId: 'q', functionArn: 'arn:aws:lambda:us-east-1:1:function:fn-B:$LATEST', condition: 'EventAgeExceeded', approximateInvokeCount: 1 },
    requestPayload: payload,
    responsePayload: { errorType: 'Error', errorMessage: 'throttled' },
  });
  const recorder = createFailureRecorder(d.store, 'Auth', { runRetentionSeconds: 3600, history: false }, { envelopeKey: testEnvelopeKey, invoker: new QueueInvoker() });
  await recorder(record(forged(toB, {})));
  expect(await sorted(name)).toEqual(before);
  // The same failure of the sealed envelope fails the run.
  await recorder(record(toB));
  expect(decodeRunRecord((await db.run(name, 'r'))!)).toMatchObject({ status: 'FAILED', error: { node: 'B' } });
});
