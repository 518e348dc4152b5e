/** Fan-in at N = 1,000 against DynamoDB Local: result order, item sizes, constant calls per branch. */
import { counting } from '../support/counting-store';
import { useTestDb } from '../support/dynamodb';
import { Driver, defineWorkflow, succeed } from '../support/harness';
import { itemSize } from '../support/item-size';

const db = useTestDb();

const N = 1000;
/** About 6 s on an idle 2-core machine; a generous bound, since this checks scale, not speed, and CI machines are shared. */
const TIMEOUT_MS = 300_000;

test(`fan-in of ${N} branches: one join, branch order, fan-in items under 4 KB, constant writes per branch`, async () => {
  const { name, store } = await db.table();
  const c = counting(store);
  let joins = 0;
  const nodes = defineWorkflow(
    'big-fan-in',
    {
      O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
      // As the compiler emits an item processor's start: 1,000 items go through launchers, which need both.
      M: { fn: (x: number) => x * 3, mapItems: { itemsPath: '$' }, enclosingJoin: { node: 'J', tails: ['M'] }, instructions: [{ op: 'invoke', invoke: { kind: 'fanIn', target: 'J', size: 'frame', tail: 0 } }] },
      J: {
        fn: (xs: number[]) => {
          joins++;
          return { n: xs.length, ordered: xs.every((v, i) => v === i * 3), sum: xs.reduce((a, b) => a + b, 0) };
        },
        join: { tails: ['M'] },
        instructions: [succeed],
      },
    },
    { invokeConcurrency: 64 },
  );
  const d = new Driver(c.store, nodes);
  await d.run({ workflowId: 'fan', input: Array.from({ length: N }, (_, i) => i) }, { concurrency: 64, hold: (x) => x.functionName === 'fn-J' });

  // Before the join runs: every fan-in shard is small.
  const shards = (await db.scan(name)).filter((i) => i.pk.S?.startsWith('fanin#'));
  expect(shards).toHaveLength(Math.ceil(N / 128) + 1);
  expect(Math.max(...shards.map(itemSize))).toBeLessThan(4096);
  // Each branch touches its level-0 shard; only the last of each shard climbs.
  expect(c.calls.addToShard).toBeLessThanOrEqual(N + Math.ceil(N / 128) * 2);

  expect(d.held.length).toBeGreaterThanOrEqual(1);
  for (const h of d.held) await d.deliver(h.functionName, h.event);
  await d.drain();
  expect(joins).toBe(1);
  const run = await db.run(name, 'fan');
  expect(JSON.parse(run!.result!.S as string)).toEqual({ n: N, ordered: true, sum: (3 * N * (N - 1)) / 2 });
  // Nothing was deleted: shards and checkpoints (origin, N branches, join) expire by their TTL.
  const left = await db.scan(name);
  expect(left.filter((i) => i.pk.S?.startsWith('fanin#'))).toHaveLength(Math.ceil(N / 128) + 1);
  // The origin and the N branches; the join's commit is the run's final write.
  expect(left.filter((i) => i.pk.S?.startsWith('ckpt#'))).toHaveLength(N + 1);
  expect(left.filter((i) => !i.ttl)).toEqual([]);
}, TIMEOUT_MS);
