/** The shard tree's logic, up to 100,000 branches, on an in-memory store. */
import { arrivalCode, arrivalShardKeys, decodeArrival, readArrivals, recordArrival, shardLevels, shardPlan, TAIL_RADIX } from '../../runtime/records/fan-in-shards';
import { SHARD_WIDTH } from '../../runtime/contract/table';
import { MemoryStore } from '../support/memory-store';

test('levels: 782 + 7 + 1 shards at 100,000 branches; one shard up to 128', () => {
  expect(shardLevels(100000)).toEqual([782, 7, 1]);
  expect(shardLevels(128)).toEqual([1]);
  expect(shardLevels(129)).toEqual([2, 1]);
  expect(shardLevels(1)).toEqual([1]);
  expect(shardLevels(128 * 128 + 1)).toEqual([129, 2, 1]);
  const plan = shardPlan('j', 300);
  expect(plan.map((p) => p.expected)).toEqual([128, 128, 44, 3]);
});

test('arrival codes round-trip index, tail and iteration', () => {
  for (const [i, t, it, n] of [
    [0, 0, 0, 1],
    [99999, 3, 0, 100000],
    [5, TAIL_RADIX - 1, 7, 10],
  ]) {
    expect(decodeArrival(arrivalCode(i, t, it, n), n)).toEqual({ index: i, tail: t, iteration: it });
  }
  expect(() => arrivalCode(0, TAIL_RADIX, 0, 1)).toThrow(/tail position/);
  expect(() => arrivalCode(0, 0, 2 ** 40, 100000)).toThrow(/overflows/);
});

/** Deterministic shuffle (no flaky orders). */
function shuffled(n: number, seed: number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  let s = seed;
  for (let i = n - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

test('100,000 branches in random order with duplicates: only the last arrival completes, cost stays constant', async () => {
  const N = 100000;
  const store = new MemoryStore();
  const order = shuffled(N, 42);
  let completes = 0;
  for (let k = 0; k < N; k++) {
    const i = order[k];
    const r = (await recordArrival(store, 'join', N, i, arrivalCode(i, i % 3, i % 2, N), 9)).outcome;
    if (r === 'complete') {
      completes++;
      expect(k).toBe(N - 1);
    }
    // Every 1000th branch is retried at once: it never counts twice.
    if (k % 1000 === 0 && k < N - 1) expect((await recordArrival(store, 'join', N, i, arrivalCode(i, i % 3, i % 2, N), 9)).outcome).toBe('pending');
  }
  expect(completes).toBe(1);
  // Each shard was created by its first arrival, with the count shardPlan gives it.
  expect([...store.shards].map(([k, v]) => [k, v.n]).sort()).toEqual(shardPlan('join', N).map((p) => [p.key, p.expected]).sort());
  // ~1 write per branch, plus one per full shard on the upper levels.
  expect(store.calls.addToShard).toBeLessThanOrEqual(N + 100 + 782 + 7);
  for (const s of store.shards.values()) expect(s.a.size).toBeLessThanOrEqual(SHARD_WIDTH);
  const arrivals = readArrivals(await store.read([], arrivalShardKeys('join', N), { consistent: true }), 'join', N);
  expect(arrivals).toHaveLength(N);
  expect(arrivals![12345]).toEqual({ tail: 12345 % 3, iteration: 12345 % 2 });
  // A duplicate of the last branch re-completes (the join's checkpoint absorbs it).
  expect((await recordArrival(store, 'join', N, order[N - 1], arrivalCode(order[N - 1], order[N - 1] % 3, order[N - 1] % 2, N), 9)).outcome).toBe('complete');
});

test('shards are created by their first arrival with its TTL, which later arrivals keep; missing or incomplete shards read as undefined', async () => {
  const store = new MemoryStore();
  expect(readArrivals(await store.read([], arrivalShardKeys('j', 3), { consistent: true }), 'j', 3)).toBeUndefined();
  expect((await recordArrival(store, 'j', 3, 0, arrivalCode(0, 0, 0, 3), 100)).outcome).toBe('pending');
  expect((await recordArrival(store, 'j', 3, 1, arrivalCode(1, 0, 0, 3), 50)).outcome).toBe('pending');
  expect(store.ttls.get(arrivalShardKeys('j', 3)[0])).toBe(100);
  expect(readArrivals(await store.read([], arrivalShardKeys('j', 3), { consistent: true }), 'j', 3)).toBeUndefined();
  expect(await recordArrival(store, 'j', 3, 2, arrivalCode(2, 1, 0, 3), 50)).toEqual({ outcome: 'complete', ttl: 100 });
  expect(readArrivals(await store.read([], arrivalShardKeys('j', 3), { consistent: true }), 'j', 3)).toEqual([{ tail: 0, iteration: 0 }, { tail: 0, iteration: 0 }, { tail: 1, iteration: 0 }]);
});
