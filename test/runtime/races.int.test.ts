/**
 * Races and crashes against DynamoDB Local: concurrent duplicate executions,
 * a crash between checkpoint and invoke, and late duplicates after the run finished.
 */
import { createHandler } from '../../runtime/entry/handler';
import { ENVELOPE_VERSION, type Envelope } from '../../runtime/contract/ir';
import type { CheckpointStore, ReadSet } from '../../runtime/ports/store';
import { counting } from '../support/counting-store';
import { useTestDb } from '../support/dynamodb';
import { Driver, QueueInvoker, defineWorkflow, lambdaContext, seq, succeed } from '../support/harness';
import { overriding } from '../support/store-overrides';
import { sealed, testEnvelopeKey } from '../support/envelope-key';

const db = useTestDb();

const envelopeFor = (workflow: string, node: string, input: unknown, workflowId = 'w1'): Envelope => sealed({
  unum: { v: ENVELOPE_VERSION, workflow, deployment: '', workflowId, node, iteration: 0, fanOut: [], inputs: [{ value: input as never }] },
});

/**
 * Holds each of the first `n` reads until all `n` have been made, so that `n` concurrent executions all
 * find no checkpoint and race at the conditional put, however the machine schedules them.
 */
function readsMeetFirst(inner: CheckpointStore, n: number): CheckpointStore {
  let arrived = 0;
  let release!: () => void;
  const allArrived = new Promise<void>((resolve) => (release = resolve));
  return overriding(inner, {
    async read(...args) {
      const result = await inner.read(...args);
      if (arrived < n) {
        if (++arrived === n) release();
        await allArrived;
      }
      return result;
    },
  });
}

test('50 concurrent executions of one invocation commit one checkpoint and send one identical input', async () => {
  const { store } = await db.table();
  const c = counting(readsMeetFirst(store, 50));
  const nodes = defineWorkflow('race', {
    A: { fn: () => 0, instructions: [seq('B')] },
    B: { fn: () => ({ r: Math.random() }), instructions: [seq('C'), seq('D')] },
    C: { instructions: [succeed] },
    D: { instructions: [succeed] },
  });
  const invoker = new QueueInvoker();
  const h = createHandler(nodes.B.module, { envelopeKey: testEnvelopeKey, ir: nodes.B.ir, store: c.store, invoker });
  const event = envelopeFor('race', 'B', 1);
  await Promise.all(Array.from({ length: 50 }, () => h(event, lambdaContext('fn-B'))));
  expect(c.commits).toHaveLength(1);
  expect(c.calls.putCheckpoint).toBe(50);
  for (const target of ['fn-C', 'fn-D']) {
    const sent = invoker.sent.filter((s) => s.functionName === target).map((s) => s.event as Envelope);
    expect(sent).toHaveLength(50);
    // The lease is counted from each execution's clock (runtime/records/retention.ts): executions on either side of a
    // TTL granule's edge (a loaded machine spreads the 50 over seconds) carry different ones. Like the
    // fault checker's invariant 2, the input is everything else; every lease lies ahead.
    const withoutLease = sent.map(({ unum: { lease: _lease, ...rest } }) => JSON.stringify(rest));
    expect(new Set(withoutLease).size).toBe(1);
    expect(sent.every((e) => (e.unum.lease ?? 0) > Date.now() / 1000)).toBe(true);
  }
  const committed = (await store.getCheckpoint(c.commits[0])) as { json: string };
  expect(invoker.sent[0].event.unum.inputs[0]).toEqual({ value: JSON.parse(committed.json) });
});

test('a retry after a crash between checkpoint and invoke re-invokes with the committed value', async () => {
  const { store } = await db.table();
  const nodes = defineWorkflow('crash', {
    A: { fn: () => ({ r: Math.random() }), instructions: [seq('B')] },
    B: { instructions: [succeed] },
  });
  const invoker = new QueueInvoker();
  const h = createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker });
  invoker.failNext = 1;
  const ctx = lambdaContext('fn-A', 'req-1');
  await expect(h({ workflowId: 'c1', input: null }, ctx)).rejects.toThrow(/injected crash/);
  expect(invoker.sent).toHaveLength(0);
  await h({ workflowId: 'c1', input: null }, ctx);
  expect(invoker.sent).toHaveLength(1);
  const items = await db.scan((store as unknown as { tableName: string }).tableName);
  const ckpt = items.find((i) => i.pk.S?.startsWith('ckpt#'));
  expect(invoker.sent[0].event.unum.inputs[0]).toEqual({ value: JSON.parse(ckpt!.v.S as string) });
});

test('a late duplicate after the run finished: its put finds its checkpoint and its read the run ended: no invoke, no change', async () => {
  const { name, store } = await db.table();
  let calls = 0;
  const nodes = defineWorkflow('late', {
    A: { fn: (x: number) => x + 1, instructions: [seq('B')] },
    B: {
      fn: (x: number) => {
        calls++;
        return x * 2;
      },
      instructions: [seq('C')],
    },
    C: { instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'late-1', input: 1 });
  expect(calls).toBe(1);
  const toB = d.invoker.sent.find((s) => s.functionName === 'fn-B')!;
  const sentBefore = d.invoker.sent.length;
  const before = await db.run(name, 'late-1');
  // A duplicate delivery of B's event: its handler runs (its read goes beside its commit), the put finds B's
  // checkpoint and the read the run ended: it invokes nothing.
  await d.deliver('fn-B', toB.event);
  expect(calls).toBe(2);
  // The entry's start event delivered again finds the run record: nothing runs.
  await d.deliver('fn-A', { workflowId: 'late-1', input: 1 });
  expect(calls).toBe(2);
  expect(d.invoker.sent.length).toBe(sentBefore);
  const run = await db.run(name, 'late-1');
  expect(run?.status?.S).toBe('SUCCEEDED');
  expect(run).toEqual(before);
});

test('duplicate deliveries of every event, concurrently, still give exactly one result', async () => {
  const { name, store } = await db.table();
  const c = counting(store);
  const fanIn = { op: 'invoke' as const, invoke: { kind: 'fanIn' as const, target: 'J', size: 'frame' as const, tail: 0 } };
  const nodes = defineWorkflow('dups', {
    O: { fn: () => Array.from({ length: 20 }, () => Math.random()), instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    M: { fn: (x: number) => x + Math.random(), instructions: [fanIn] },
    J: { fn: (xs: number[]) => ({ n: xs.length, r: Math.random() }), join: { tails: ['M'] }, instructions: [seq('E')] },
    E: { fn: (x: unknown) => x, instructions: [succeed] },
  });
  const d = new Driver(c.store, nodes);
  await d.run({ workflowId: 'd1', input: null }, { deliveries: 3 });
  const run = await db.run(name, 'd1');
  expect(run?.status?.S).toBe('SUCCEEDED');
  expect(JSON.parse(run!.result!.S as string).n).toBe(20);
  // One commit per invocation: O, 20 branches, J (E's is the run's final write).
  expect(c.commits).toHaveLength(22);
  expect(c.calls.finishRun).toBeGreaterThanOrEqual(1);
  // One shard, holding every arrival once; nothing was deleted.
  const left = await db.scan(name);
  expect(left.filter((i) => i.pk.S?.startsWith('fanin#')).map((i) => i.a.NS?.length)).toEqual([20]);
});

test('a late duplicate branch after the join committed finds the join\'s checkpoint: no arrival, no second join', async () => {
  const { name, store } = await db.table();
  const fanIn = { op: 'invoke' as const, invoke: { kind: 'fanIn' as const, target: 'J', size: 'frame' as const, tail: 0 } };
  let joins = 0;
  const nodes = defineWorkflow('latebranch', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    M: { fn: (x: number) => x, instructions: [fanIn] },
    J: {
      fn: (xs: number[]) => {
        joins++;
        return xs;
      },
      join: { tails: ['M'] },
      instructions: [succeed],
    },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'lb', input: [1, 2, 3] });
  const branch = d.invoker.sent.find((s) => s.functionName === 'fn-M')!;
  const joinEvent = d.invoker.sent.find((s) => s.functionName === 'fn-J')!;
  const sent = d.invoker.sent.length;
  const shards = (await db.scan(name)).filter((i) => i.pk.S?.startsWith('fanin#'));
  await d.deliver('fn-M', branch.event);
  await d.deliver('fn-J', joinEvent.event);
  await d.drain();
  expect(joins).toBe(1);
  expect(d.invoker.sent.length).toBe(sent);
  expect((await db.scan(name)).filter((i) => i.pk.S?.startsWith('fanin#'))).toEqual(shards);
});

test('an origin that runs again (after a crash mid-launch) does not wipe recorded arrivals', async () => {
  const { name, store } = await db.table();
  const fanIn = { op: 'invoke' as const, invoke: { kind: 'fanIn' as const, target: 'J', size: 'frame' as const, tail: 0 } };
  const nodes = defineWorkflow('relaunch', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    M: { fn: (x: number) => x * 2, instructions: [fanIn] },
    J: { fn: (xs: number[]) => xs, join: { tails: ['M'] }, instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  // Run the origin, then let two branches arrive, then run the origin again (Lambda retry), then finish.
  await d.deliver('fn-O', { workflowId: 'rl', input: [1, 2, 3, 4] });
  const first = d.invoker.queue.splice(0, 2);
  d.invoker.queue.length = 0;
  for (const q of first) await d.deliver(q.functionName, q.event);
  await d.deliver('fn-O', { workflowId: 'rl', input: [1, 2, 3, 4] });
  await d.drain();
  const run = await db.run(name, 'rl');
  expect(JSON.parse(run!.result!.S as string)).toEqual([2, 4, 6, 8]);
});

test('a duplicate origin whose stale read missed its checkpoint, after the join finished, loses the put and invokes no branch', async () => {
  const { name, store } = await db.table();
  const fanIn = { op: 'invoke' as const, invoke: { kind: 'fanIn' as const, target: 'J', size: 'frame' as const, tail: 0 } };
  const nodes = defineWorkflow('stale', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    M: { fn: (x: number) => x, instructions: [fanIn] },
    J: { fn: (xs: number[]) => xs, join: { tails: ['M'] }, instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'st', input: [1, 2, 3] });
  const shards = (await db.scan(name)).filter((i) => i.pk.S?.startsWith('fanin#'));
  // The origin's own read is eventually consistent: here it misses the checkpoint.
  let first = true;
  const stale = overriding(store, {
    async read(...args) {
      if (!first) return store.read(...args);
      first = false;
      return { checkpoints: new Map(), shards: new Map() } as unknown as ReadSet;
    },
  });
  const invoker = new QueueInvoker();
  await createHandler({}, { envelopeKey: testEnvelopeKey, ir: nodes.O.ir, store: stale, invoker })({ workflowId: 'st', input: [1, 2, 3] }, lambdaContext('fn-O'));
  expect(first).toBe(false);
  expect(invoker.sent).toEqual([]);
  expect((await db.scan(name)).filter((i) => i.pk.S?.startsWith('fanin#'))).toEqual(shards);
  expect(JSON.parse((await db.run(name, 'st'))!.result!.S as string)).toEqual([1, 2, 3]);
});
