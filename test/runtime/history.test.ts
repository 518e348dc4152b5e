/**
 * The per-run history log (`settings.history`) on the in-memory store: what
 * the runtime appends, in which order, and that the client's reader makes
 * sense of it (duplicates included).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { dedupeHistory } from '../../lib/client/history';
import { createHandler } from '../../runtime/entry/handler';
import type { Instruction } from '../../runtime/contract/ir';
import { invocationName } from '../../runtime/contract/naming';
import { checkpointKey, decodeHistoryEntry, type HistoryEntry, type HistoryItem } from '../../runtime/contract/table';
import { counting } from '../support/counting-store';
import { Driver, defineWorkflow, lambdaCause, lambdaContext, QueueInvoker, seq, succeed } from '../support/harness';
import { MemoryStore } from '../support/memory-store';
import { testEnvelopeKey } from '../support/envelope-key';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => {
  jest.restoreAllMocks();
});

const HISTORY = { history: true };
const start = (input: unknown, workflowId = 'w'): unknown => ({ workflowId, input });
const fanIn = (target: string, tail = 0): Instruction => ({ op: 'invoke', invoke: { kind: 'fanIn', target, size: 'frame', tail } });
const map = (target: string, join: string): Instruction => ({ op: 'invoke', invoke: { kind: 'map', target, join, itemsPath: '$', maxConcurrency: 0 } });

/** As DynamoDB returns the item (what the client parses). */
function toItem(item: HistoryItem): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, typeof v === 'number' ? { N: String(v) } : { S: String(v) }]));
}

/** What `inspect` reports: entries in order, gaps skipped, duplicates removed. */
function readable(store: MemoryStore, workflowId = 'w'): HistoryEntry[] {
  return dedupeHistory(store.historyOf(workflowId).map(({ seq: n, ...item }) => decodeHistoryEntry(n, toItem(item)) as HistoryEntry));
}

const brief = (entries: readonly HistoryEntry[]): unknown[] => entries.map((e) => [e.node, e.outcome, e.indexes, e.next ?? null]);

test('a chain: one entry per transition, in order, as docs/deploying-and-operating.md specifies', async () => {
  const nodes = defineWorkflow(
    'chain',
    {
      A: { fn: (x: number) => x + 1, instructions: [seq('B')] },
      B: { instructions: [{ op: 'incrIteration' }, seq('C')] },
      C: { fn: (x: number) => ({ out: x }), instructions: [succeed] },
    },
    HISTORY,
  );
  const store = new MemoryStore();
  await new Driver(store, nodes).run(start(1));
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED' });
  const raw = store.historyOf('w');
  expect(raw.map((e) => e.seq)).toEqual([1, 2, 3]);
  expect(raw[0]).toEqual({
    seq: 1,
    node: 'A',
    inv: invocationName({ workflow: 'chain', workflowId: 'w' }, 'A', 0, []),
    iteration: 0,
    indexes: '[]',
    at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    outcome: 'committed',
    durationMs: expect.any(Number),
    next: '["B"]',
  });
  // A pass node has no user-code time; C runs one iteration later.
  expect(raw[1]).not.toHaveProperty('durationMs');
  expect(raw[2]).toMatchObject({ node: 'C', iteration: 1, inv: invocationName({ workflow: 'chain', workflowId: 'w' }, 'C', 1, []) });
  expect(raw[2]).not.toHaveProperty('next');
  expect(brief(readable(store))).toEqual([
    ['A', 'committed', [], ['B']],
    ['B', 'committed', [], ['C']],
    ['C', 'committed', [], null],
  ]);
  // Two writes per transition: the counter update and the entry put.
  expect([store.calls.nextHistorySeq, store.calls.putHistoryEntry]).toEqual([3, 3]);
});

test('without the setting nothing is written', async () => {
  const nodes = defineWorkflow('off', { A: { fn: (x: number) => x, instructions: [seq('B')] }, B: { instructions: [succeed] } });
  const store = new MemoryStore();
  await new Driver(store, nodes).run(start(1));
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED' });
  expect(store.history.size).toBe(0);
  expect(store.calls.nextHistorySeq).toBeUndefined();
});

test('map with duplicate deliveries: duplicates appended again, the reader keeps each transition once, after its predecessors', async () => {
  const nodes = defineWorkflow(
    'map',
    {
      O: { instructions: [map('M', 'J')] },
      M: { fn: (x: number) => x * 2, instructions: [fanIn('J')] },
      J: { fn: (xs: number[]) => xs.reduce((a, b) => a + b, 0), join: { tails: ['M'] }, instructions: [succeed] },
    },
    HISTORY,
  );
  const store = new MemoryStore();
  await new Driver(store, nodes).run(start([1, 2, 3, 4, 5]), { deliveries: 2 });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '30' });
  const all = store.historyOf('w');
  // Every delivery after the first found the checkpoint (at ingress or at egress) and appended again.
  expect(all.length).toBeGreaterThan(7);
  expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
  const entries = readable(store);
  expect(entries).toHaveLength(7);
  const [origin, ...rest] = entries;
  const join = invocationName({ workflow: 'map', workflowId: 'w' }, 'J', 0, []);
  expect(origin).toMatchObject({ node: 'O', outcome: 'committed', next: ['M'], fanIn: { join, size: 5 } });
  const branches = rest.slice(0, 5);
  expect(branches.map((e) => e.node)).toEqual(['M', 'M', 'M', 'M', 'M']);
  expect(branches.map((e) => e.indexes[0]).sort()).toEqual([0, 1, 2, 3, 4]);
  for (const b of branches) {
    expect(b).toMatchObject({ next: ['J'], iteration: 0 });
    expect(b.invocation).toBe(invocationName({ workflow: 'map', workflowId: 'w' }, 'M', 0, [{ iteration: 0, index: b.indexes[0] }]));
  }
  // The join is logged after every branch (its input exists only once all arrived).
  expect(entries[6]).toMatchObject({ node: 'J', outcome: 'committed', invocation: join, indexes: [] });
  expect(entries.map((e) => e.seq)).toEqual([...entries.map((e) => e.seq)].sort((a, b) => a - b));
});

test('an empty map logs its join with size 0; a parallel logs its targets', async () => {
  const nodes = defineWorkflow(
    'empty',
    {
      O: { instructions: [map('M', 'P')] },
      M: { instructions: [fanIn('P')] },
      P: { join: { tails: ['M'] }, instructions: [{ op: 'invoke', invoke: { kind: 'parallel', targets: ['X', 'Y'], join: 'J' } }] },
      X: { instructions: [fanIn('J', 0)] },
      Y: { instructions: [fanIn('J', 1)] },
      J: { join: { tails: ['X', 'Y'] }, instructions: [succeed] },
    },
    HISTORY,
  );
  const store = new MemoryStore();
  await new Driver(store, nodes).run(start([]));
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '[[],[]]' });
  const entries = readable(store);
  expect(entries[0]).toMatchObject({ node: 'O', next: ['P'], fanIn: { join: invocationName({ workflow: 'empty', workflowId: 'w' }, 'P', 0, []), size: 0 } });
  expect(entries[1]).toMatchObject({ node: 'P', next: ['X', 'Y'], fanIn: { join: invocationName({ workflow: 'empty', workflowId: 'w' }, 'J', 0, []), size: 2 } });
  expect(brief(entries.slice(2, 4)).sort()).toEqual([
    ['X', 'committed', [0], ['J']],
    ['Y', 'committed', [1], ['J']],
  ]);
  expect(brief(entries.slice(4))).toEqual([['J', 'committed', [], null]]);
});

test('caught: the entry names the catch handler and the error read from the committed value', async () => {
  const nodes = defineWorkflow(
    'caught',
    {
      A: {
        fn: () => {
          throw Object.assign(new Error('boom'), { name: 'Custom' });
        },
        catch: [{ errors: ['States.ALL'], next: 'H', resultPath: '$.err' }],
        instructions: [seq('Never')],
      },
      Never: { instructions: [succeed] },
      H: { instructions: [succeed] },
    },
    HISTORY,
  );
  const store = new MemoryStore();
  await new Driver(store, nodes).run(start({ a: 1 }));
  expect(brief(readable(store))).toEqual([
    ['A', 'caught', [], ['H']],
    ['H', 'committed', [], null],
  ]);
  expect(readable(store)[0].error).toEqual({ error: 'Custom', cause: lambdaCause('Custom', 'boom') });
  // With ResultPath null the error is not in the value: the rule's first error name stands for it.
  const discard = defineWorkflow(
    'caught2',
    {
      A: { fn: () => Promise.reject(new TypeError('x')), catch: [{ errors: ['TypeError'], next: 'H', resultPath: null }], instructions: [] },
      H: { instructions: [succeed] },
    },
    HISTORY,
  );
  const store2 = new MemoryStore();
  await new Driver(store2, discard).run(start(1));
  expect(readable(store2)[0]).toMatchObject({ outcome: 'caught', error: { error: 'TypeError' } });
});

test('fail, an unmatched choice and a terminal error append `failed` entries (and no `committed` one)', async () => {
  const nodes = defineWorkflow(
    'fails',
    {
      A: {
        fn: (x: string) => x,
        instructions: [
          {
            op: 'choice',
            state: 'Check',
            rules: [
              { when: { kind: 'compare', type: 'string', op: 'eq', path: '$', value: 'fail' }, then: [{ op: 'fail', state: 'Failed', error: 'Bad', cause: 'told to' }] },
              { when: { kind: 'compare', type: 'string', op: 'eq', path: '$', value: 'map' }, then: [map('M', 'J')] },
            ],
          },
        ],
      },
      M: { instructions: [fanIn('J')] },
      J: { join: { tails: ['M'] }, instructions: [succeed] },
    },
    HISTORY,
  );
  // Each entry names the state where the run ended: the Fail state, the Choice, the node's own state.
  const cases: [string, unknown][] = [
    ['fail', { state: 'Failed', error: 'Bad', cause: 'told to' }],
    ['other', { state: 'Check', error: 'States.NoChoiceMatched', cause: expect.stringMatching(/no choice rule matched/) }],
    ['map', { state: 'A', error: 'States.Runtime', cause: expect.stringMatching(/ItemsPath \$ is not an array/) }],
  ];
  for (const [input, error] of cases) {
    const store = new MemoryStore();
    await new Driver(store, nodes).run(start(input));
    expect(store.runOf('w')).toMatchObject({ status: 'FAILED' });
    const entries = readable(store);
    expect(brief(entries)).toEqual([['A', 'failed', [], null]]);
    expect(entries[0].error).toEqual(error);
  }
});

test('fold steps log the next step; the last step its successor', async () => {
  const nodes = defineWorkflow(
    'fold',
    {
      O: { instructions: [map('M', 'F')] },
      M: { instructions: [fanIn('F')] },
      F: { fn: (acc: number, v: number) => acc + v, handler: { kind: 'fold', export: 'handler', initial: 0 }, join: { tails: ['M'] }, instructions: [succeed] },
    },
    HISTORY,
  );
  const store = new MemoryStore();
  await new Driver(store, nodes).run(start([1, 2, 3]));
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '6' });
  const folds = readable(store).filter((e) => e.node === 'F');
  expect(folds.map((e) => [e.invocation, e.next ?? null])).toEqual([
    [invocationName({ workflow: 'fold', workflowId: 'w' }, 'F', 0, [], 0), ['F']],
    [invocationName({ workflow: 'fold', workflowId: 'w' }, 'F', 0, [], 1), ['F']],
    [invocationName({ workflow: 'fold', workflowId: 'w' }, 'F', 0, [], 2), null],
  ]);
});

test('a crash after the commit and before the append: the retry appends at ingress; a crash between the writes leaves a gap', async () => {
  const nodes = defineWorkflow('crash', { A: { fn: (x: number) => x, instructions: [seq('B')] }, B: { instructions: [succeed] } }, HISTORY);
  const memory = new MemoryStore();
  const c = counting(memory);
  // First attempt: the counter update fails after A's checkpoint committed.
  c.failBefore.nextHistorySeq = 1;
  // Second attempt: the counter hands out 1, the entry put fails (seq 1 is a gap).
  c.failBefore.putHistoryEntry = 1;
  const d = new Driver(c.store, nodes);
  await d.run(start(5));
  expect(memory.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '5' });
  // A ran three times and committed once: the retries' puts found its checkpoint. B's commit is the run's final write.
  expect(c.commits).toHaveLength(1);
  expect(d.executions).toBe(4);
  const entries = readable(memory);
  expect(entries.map((e) => [e.seq, e.node])).toEqual([
    [2, 'A'],
    [3, 'B'],
  ]);
  // The retry that appended ran user code, but its value lost the put: no duration.
  expect(entries[0].durationMs).toBeUndefined();
  expect(d.invoker.sent.filter((s) => s.functionName === 'fn-B')).toHaveLength(1);
});

test('an append error is an error of the execution: nothing is invoked before the entry is written', async () => {
  const nodes = defineWorkflow('strict', { A: { fn: (x: number) => x, instructions: [seq('B')] }, B: { instructions: [succeed] } }, HISTORY);
  const memory = new MemoryStore();
  const c = counting(memory);
  c.failBefore.putHistoryEntry = 1;
  const invoker = new QueueInvoker();
  const handler = createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store: c.store, invoker });
  await expect(handler(start(1), lambdaContext('fn-A'))).rejects.toThrow(/injected failure before putHistoryEntry/);
  expect(memory.checkpoints.get(checkpointKey(invocationName({ workflow: 'strict', workflowId: 'w' }, 'A', 0, [])))).toBeDefined();
  expect(invoker.sent).toHaveLength(0);
});

test('the failure recorder appends a `failed` entry named from the envelope when the workflow keeps a history', async () => {
  const definition = {
    O: { instructions: [map('M', 'J')] },
    M: {
      fn: (x: number) => {
        if (x === 1) throw new TypeError('cannot');
        return x;
      },
      instructions: [fanIn('J')],
    },
    J: { join: { tails: ['M'] }, instructions: [succeed] },
  };
  const store = new MemoryStore();
  await new Driver(store, defineWorkflow('rec', definition, HISTORY)).run(start([0, 1]), { retryAttempts: 0 });
  expect(store.runOf('w')).toMatchObject({ status: 'FAILED', error: { node: 'M', error: 'TypeError', cause: lambdaCause('TypeError', 'cannot') } });
  const failed = readable(store).filter((e) => e.outcome === 'failed');
  expect(failed).toEqual([
    expect.objectContaining({
      node: 'M',
      invocation: invocationName({ workflow: 'rec', workflowId: 'w' }, 'M', 0, [{ iteration: 0, index: 1 }]),
      indexes: [1],
      error: { state: 'M', error: 'TypeError', cause: lambdaCause('TypeError', 'cannot') },
    }),
  ]);

  // Without a history the recorder writes none.
  const quiet = new MemoryStore();
  await new Driver(quiet, defineWorkflow('rec', definition)).run(start([1]), { retryAttempts: 0 });
  expect(quiet.runOf('w')).toMatchObject({ status: 'FAILED' });
  expect(readable(quiet).filter((e) => e.outcome === 'failed')).toEqual([]);
});
