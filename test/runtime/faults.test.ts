/**
 * Randomised crashes and duplicate deliveries on an in-memory store: every
 * store and invoke call may crash the execution just before or just after it
 * takes effect, events are delivered in random order and some twice. For each
 * seed the run must end with exactly one correct result, send identical inputs
 * to every invocation, and leave nothing without a TTL.
 */
import { dedupeHistory } from '../../lib/client/history';
import { createHandler, type LambdaHandler } from '../../runtime/entry/handler';
import type { Envelope, Instruction, ItemLaunch, NodeIR } from '../../runtime/contract/ir';
import type { Invoker } from '../../runtime/ports/invoker';
import { invocationName } from '../../runtime/contract/naming';
import { checkpointKey, decodeHistoryEntry, type HistoryEntry } from '../../runtime/contract/table';
import type { CheckpointStore } from '../../runtime/ports/store';
import { defineWorkflow, lambdaContext, seq, succeed } from '../support/harness';
import { MapWatch } from '../support/map-watch';
import { MemoryStore } from '../support/memory-store';
import { testEnvelopeKey } from '../support/envelope-key';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

/** Small deterministic PRNG (mulberry32) so a failing seed can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Crash extends Error {}

function crashing<T extends object>(inner: T, random: () => number, p: number): T {
  return new Proxy(inner, {
    get(target, prop: string) {
      const orig = (target as Record<string, unknown>)[prop];
      if (typeof orig !== 'function') return orig;
      return async (...args: unknown[]) => {
        if (random() < p) throw new Crash(`crash before ${prop}`);
        const r = await (orig as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (random() < p) throw new Crash(`crash after ${prop}`);
        return r;
      };
    },
  });
}

const fanIn = (target: string, tail: number, size: number | 'frame' = 'frame', launch?: ItemLaunch): Instruction => ({ op: 'invoke', invoke: { kind: 'fanIn', target, size, tail, ...(launch ? { launch } : {}) } });
/** The Map runs at most two items at once: each tail launches the item two further on. */
const nextItem: ItemLaunch = { target: 'M', maxConcurrency: 2 };

function workflow(noise: () => number, history = false) {
  return defineWorkflow('faults', {
    A: { fn: (n: number) => ({ items: Array.from({ length: n }, (_, i) => i) }), instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'F', itemsPath: '$.items', maxConcurrency: 2 } }] },
    M: {
      fn: (i: number) => i * i + noise(),
      mapItems: { itemsPath: '$.items' },
      enclosingJoin: { node: 'F', tails: ['M', 'E'] },
      instructions: [{ op: 'choice', state: 'Check', rules: [{ when: { kind: 'compare', type: 'number', op: 'lt', path: '$', value: 10 }, then: [seq('E')] }], otherwise: [fanIn('F', 0, 'frame', nextItem)] }],
    },
    E: { enclosingJoin: { node: 'F', tails: ['M', 'E'] }, instructions: [fanIn('F', 1, 'frame', nextItem)] },
    F: { fn: (acc: number, v: number) => acc + v, handler: { kind: 'fold', export: 'handler', initial: 0 }, join: { tails: ['M', 'E'] }, instructions: [seq('P')] },
    P: { instructions: [{ op: 'invoke', invoke: { kind: 'parallel', targets: ['X', 'Y'], join: 'K' } }] },
    X: { fn: (v: number) => v + 1, instructions: [fanIn('K', 0, 2)] },
    Y: {
      fn: (v: { v: number; k: number } | number) => (typeof v === 'number' ? { v, k: 1 } : { v: v.v, k: v.k + 1 }),
      instructions: [
        {
          op: 'choice',
          state: 'Check',
          rules: [{ when: { kind: 'compare', type: 'number', op: 'lt', path: '$.k', value: 3 }, then: [{ op: 'incrIteration' }, seq('Y')] }],
          otherwise: [fanIn('K', 1, 2)],
        },
      ],
    },
    K: { fn: (xs: [number, { v: number; k: number }]) => ({ a: xs[0], b: xs[1].v * 2, k: xs[1].k }), join: { tails: ['X', 'Y'] }, instructions: [succeed] },
  }, history ? { history: true } : {});
}

async function runWithFaults(seed: number, deterministic: boolean, history = false) {
  const random = rng(seed);
  const memory = new MemoryStore();
  const nodes = workflow(() => (deterministic ? 0 : random()), history);
  // Arrivals are watched beneath the crashes: one that took effect counts, whether or not its caller heard back.
  const watch = new MapWatch(Object.values(nodes).map((n) => n.ir));
  const store = crashing<CheckpointStore>(watch.store(memory), random, 0.02);
  const queue: { fn: string; event: unknown }[] = [];
  const sent: Envelope[] = [];
  const invoker = crashing<Invoker>(
    {
      async invoke(functionName, event) {
        const copy = JSON.parse(JSON.stringify(event)) as Envelope;
        sent.push(copy);
        queue.push({ fn: functionName, event: copy });
        // Lambda may deliver an async event twice.
        if (random() < 0.15) queue.push({ fn: functionName, event: copy });
      },
    },
    random,
    0.02,
  );
  const handlers = new Map<string, LambdaHandler>(Object.entries(nodes).map(([n, v]) => [`fn-${n}`, createHandler(v.module, { envelopeKey: testEnvelopeKey, ir: v.ir as NodeIR, store, invoker })]));
  queue.push({ fn: 'fn-A', event: { workflowId: `run-${seed}`, input: 6 } });
  let deliveries = 0;
  // Lambda's async retries: the same event (same request id) until it succeeds.
  const deliver = async (fn: string, event: unknown): Promise<void> => {
    const requestId = `req-${++deliveries}`;
    for (let attempts = 1; ; attempts++) {
      try {
        watch.delivered(event);
        await handlers.get(fn)!(event, lambdaContext(fn, requestId));
        return;
      } catch (e) {
        if (!(e instanceof Crash) || attempts > 50) throw e;
      }
    }
  };
  while (queue.length > 0) {
    // Up to four executions at once, interleaving at every store and invoke call.
    const batch = Array.from({ length: Math.min(queue.length, 1 + Math.floor(random() * 4)) }, () => queue.splice(Math.floor(random() * queue.length), 1)[0]);
    await Promise.all(batch.map((d) => deliver(d.fn, d.event)));
  }
  return { memory, sent, watch };
}

const identity = (e: Envelope): string => JSON.stringify([e.unum.node, e.unum.iteration, e.unum.fanOut.map((f) => [f.iteration, f.index]), e.unum.fold?.index ?? null]);

test.each(Array.from({ length: 60 }, (_, i) => i + 1))('seed %i: one correct result, identical inputs, nothing deleted and everything left expires', async (seed) => {
  const { memory, sent, watch } = await runWithFaults(seed, seed % 2 === 0);
  // The Map's six items ran at most two at a time (maxConcurrency 2).
  expect(watch.started('F')).toBe(6);
  expect(watch.peak('F')).toBeLessThanOrEqual(2);
  const run = memory.runOf(`run-${seed}`)!;
  expect(run.status).toBe('SUCCEEDED');
  const result = JSON.parse(run.result!);
  if (seed % 2 === 0) expect(result).toEqual({ a: 56, b: 110, k: 3 });
  else expect(result.k).toBe(3);
  // Every invocation received one and the same envelope, however often it was sent.
  const byInvocation = new Map<string, Set<string>>();
  for (const e of sent) byInvocation.set(identity(e), (byInvocation.get(identity(e)) ?? new Set()).add(JSON.stringify(e)));
  for (const [id, variants] of byInvocation) expect([id, variants.size]).toEqual([id, 1]);
  // Garbage collection is by TTL alone: every checkpoint and shard is still there, with a TTL.
  expect(memory.shards.size).toBeGreaterThan(0);
  for (const key of [...memory.checkpoints.keys(), ...memory.shards.keys()]) expect(memory.ttls.get(key)).toBeGreaterThan(0);
});

test.each(Array.from({ length: 30 }, (_, i) => i + 1))('seed %i with history: every invocation logged once, after its predecessors', async (seed) => {
  const { memory, sent } = await runWithFaults(seed, true, true);
  const workflowId = `run-${seed}`;
  expect(memory.runOf(workflowId)?.status).toBe('SUCCEEDED');
  const entries = dedupeHistory(
    memory.historyOf(workflowId).map(({ seq: n, ...item }) =>
      decodeHistoryEntry(n, Object.fromEntries(Object.entries(item).map(([k, v]) => [k, typeof v === 'number' ? { N: String(v) } : { S: String(v) }]))) as HistoryEntry,
    ),
  );
  // Crashes around either write make duplicates and gaps; the reader sees each transition once.
  expect(entries.every((e) => e.outcome === 'committed')).toBe(true);
  const seqOf = new Map(entries.map((e) => [checkpointKey(e.invocation), e.seq]));
  expect(seqOf.size).toBe(entries.length);
  // Complete: one entry per checkpoint, and one for K, whose commit is the run's final write (no checkpoint).
  const terminal = entries.filter((e) => !memory.checkpoints.has(checkpointKey(e.invocation)));
  expect(terminal.map((e) => e.node)).toEqual(['K']);
  expect([...seqOf.keys()].sort()).toEqual([...memory.checkpoints.keys(), checkpointKey(terminal[0].invocation)].sort());
  // Ordered: an invocation is logged after the predecessor that invoked it (scalar parent or fan-in origin).
  const fold = new Set(['F']);
  for (const e of sent) {
    const u = e.unum;
    const own = checkpointKey(invocationName(u, u.node, u.iteration, u.fanOut, fold.has(u.node) ? (u.fold?.index ?? 0) : undefined));
    const before = u.parent ?? ('fanIn' in u.inputs[0] ? u.inputs[0].fanIn.origin : u.fanOut[u.fanOut.length - 1]?.origin);
    if (before) expect([before, seqOf.get(before)! < seqOf.get(own)!]).toEqual([before, true]);
  }
});
