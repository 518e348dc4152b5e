/**
 * The run history end to end on DynamoDB Local: the runtime (in-process
 * harness, real DynamoDbStore) writes it, `UnumClient.inspect` reads it back.
 */
import { UnumClient } from '../../lib/client';
import type { Instruction } from '../../runtime/contract/ir';
import { invocationName } from '../../runtime/contract/naming';
import { useTestDb } from '../support/dynamodb';
import { Driver, defineWorkflow, lambdaCause, seq, succeed } from '../support/harness';

const db = useTestDb();
afterEach(() => {
  delete process.env.UNUM_HISTORY;
});

const fanIn = (target: string, tail = 0): Instruction => ({ op: 'invoke', invoke: { kind: 'fanIn', target, size: 'frame', tail } });
const RETENTION = 86400;

/** split -> map(work, one item caught) -> join -> finish; every node's IR has `history: true`. */
function workflow(): ReturnType<typeof defineWorkflow> {
  return defineWorkflow(
    'hist',
    {
      Split: { fn: (n: number) => Array.from({ length: n }, (_, i) => i), instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'Work', join: 'Join', itemsPath: '$', maxConcurrency: 0 } }] },
      Work: {
        fn: (i: number) => {
          if (i === 2) throw Object.assign(new Error('odd item'), { name: 'Odd' });
          return i * 10;
        },
        catch: [{ errors: ['Odd'], next: 'Fix' }],
        instructions: [fanIn('Join')],
      },
      Fix: { fn: () => -1, instructions: [fanIn('Join', 1)] },
      Join: { fn: (xs: number[]) => xs, join: { tails: ['Work', 'Fix'] }, instructions: [seq('Finish')] },
      Finish: { instructions: [succeed] },
    },
    { history: true, runRetentionSeconds: RETENTION },
  );
}

test('a run with history: inspect returns the ordered transition log, its fan-in and the caught error', async () => {
  const { name, store } = await db.table();
  const before = Math.floor(Date.now() / 1000);
  // Every event delivered twice: the duplicates append again; the reader removes them.
  await new Driver(store, workflow()).run({ workflowId: 'h1', input: 4 }, { deliveries: 2 });
  const client = UnumClient.forWorkflow({ entryFunction: 'unused', table: name, workflow: 'hist', dynamodb: db.client });
  expect(await client.result('h1')).toEqual([0, 10, -1, 30]);

  const report = await client.inspect('h1');
  expect(report.run.status).toBe('SUCCEEDED');
  const history = report.history!;
  expect(history.map((e) => e.seq)).toEqual([...history.map((e) => e.seq)].sort((a, b) => a - b));
  const run = { workflow: 'hist', workflowId: 'h1' };
  const join = invocationName(run, 'Join', 0, []);
  expect(history[0]).toMatchObject({ node: 'Split', outcome: 'committed', indexes: [], next: ['Work'], fanIn: { join, size: 4 } });
  expect(history[0].durationMs).toEqual(expect.any(Number));
  const branch = history.slice(1, -2);
  expect(branch.map((e) => `${e.node}${e.indexes[0]}:${e.outcome}`).sort()).toEqual(['Fix2:committed', 'Work0:committed', 'Work1:committed', 'Work2:caught', 'Work3:committed']);
  // The catch handler is logged after the invocation that routed to it.
  const caught = branch.find((e) => e.outcome === 'caught')!;
  expect(caught).toMatchObject({ next: ['Fix'], error: { error: 'Odd', cause: lambdaCause('Odd', 'odd item') } });
  expect(branch.find((e) => e.node === 'Fix')!.seq).toBeGreaterThan(caught.seq);
  expect(history.slice(-2).map((e) => [e.node, e.invocation, e.next ?? null])).toEqual([
    ['Join', join, ['Finish']],
    ['Finish', invocationName(run, 'Finish', 0, []), null],
  ]);
  expect(report.fanIns).toEqual([{ join, origin: 'Split', arrived: 4, expected: 4, complete: true }]);
  expect(report.failures).toEqual([{ node: 'Work', state: 'Work', error: 'Odd', cause: lambdaCause('Odd', 'odd item'), caught: true }]);
  expect(report.table).toBeUndefined();

  // The raw items: a counter with the last seq (duplicates counted), entries 1..n, all with the run's TTL.
  const items = (await db.scan(name)).filter((i) => i.pk.S!.startsWith('hist#hist#h1'));
  const counter = items.find((i) => i.pk.S === 'hist#hist#h1')!;
  const n = Number(counter.n.N);
  expect(n).toBeGreaterThanOrEqual(history.length);
  expect(items.map((i) => i.pk.S).sort()).toEqual(['hist#hist#h1', ...Array.from({ length: n }, (_, i) => `hist#hist#h1#${i + 1}`)].sort());
  for (const item of items) expect(Number(item.ttl.N)).toBeGreaterThanOrEqual(before + RETENTION);
});

test('a run failed by the failure recorder: its `failed` entry is the reported failure', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow(
    'hfail',
    {
      A: { fn: (x: number) => x, instructions: [seq('B')] },
      B: {
        fn: () => {
          throw new TypeError('cannot read x');
        },
        instructions: [succeed],
      },
    },
    { history: true },
  );
  process.env.UNUM_HISTORY = String(RETENTION);
  await new Driver(store, nodes).run({ workflowId: 'h2', input: 1 }, { retryAttempts: 1 });
  const client = UnumClient.forWorkflow({ entryFunction: 'unused', table: name, workflow: 'hfail', dynamodb: db.client });
  const report = await client.inspect('h2');
  expect(report.run).toMatchObject({ status: 'FAILED', error: { node: 'B', error: 'TypeError', cause: lambdaCause('TypeError', 'cannot read x') } });
  expect(report.history!.map((e) => [e.seq, e.node, e.outcome, e.invocation])).toEqual([
    [1, 'A', 'committed', invocationName({ workflow: 'hfail', workflowId: 'h2' }, 'A', 0, [])],
    [2, 'B', 'failed', invocationName({ workflow: 'hfail', workflowId: 'h2' }, 'B', 0, [])],
  ]);
  // Reported once, from the history (the run record says the same).
  expect(report.failures).toEqual([{ node: 'B', state: 'B', error: 'TypeError', cause: lambdaCause('TypeError', 'cannot read x'), caught: false }]);
});

test('a run without history has none: inspect falls back to the table scan', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('nohist', { A: { fn: (x: number) => x, instructions: [succeed] } });
  await new Driver(store, nodes).run({ workflowId: 'h3', input: 1 });
  const report = await UnumClient.forWorkflow({ entryFunction: 'unused', table: name, workflow: 'nohist', dynamodb: db.client }).inspect('h3');
  expect(report.history).toBeUndefined();
  expect(report.table).toMatchObject({ runs: 1, attributable: true });
  expect((await db.scan(name)).some((i) => i.pk.S!.startsWith('hist#'))).toBe(false);
});
