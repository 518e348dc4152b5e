/**
 * Fan-in without waiting, at constant cost per branch: arrivals go into a tree
 * of small shard items of width 128 (docs/architecture.md "Fan-in at constant
 * cost per branch"). Adding to a number set is idempotent, so retried and
 * duplicate branches never count twice. A shard is created by its first
 * arrival and expires by TTL (docs/architecture.md "Garbage collection by TTL").
 */
import { runtimeError } from '../contract/errors';
import { runOver } from './run-record';
import { invocationName, type FramePosition } from '../contract/naming';
import type { CheckpointStore, ReadSet } from '../ports/store';
import { type Checkpoint, checkpointKey, type RunRef, SHARD_WIDTH, shardKey } from '../contract/table';
import type { Exec } from '../ports/execution';

/**
 * Radix of the tail position in an arrival code. The tail knows its position
 * but not how many tails the join has, so the radix is fixed (joins have fewer
 * tails than this; the compiler's tail lists are short).
 */
export const TAIL_RADIX = 1024;

/** Number of shards on each level, from level 0 (arrivals) to the root (one shard). */
export function shardLevels(size: number): number[] {
  const levels = [Math.ceil(size / SHARD_WIDTH)];
  while (levels.at(-1)! > 1) levels.push(Math.ceil(levels.at(-1)! / SHARD_WIDTH));
  return levels;
}

/** How many arrivals shard `shard` of `level` expects, given the shard counts per level. */
const expectedAt = (size: number, levels: readonly number[], level: number, shard: number): number =>
  Math.min(SHARD_WIDTH, (level === 0 ? size : levels[level - 1]) - shard * SHARD_WIDTH);

/** Every shard of a fan-in with the number of arrivals it expects. */
export function shardPlan(join: string, size: number): { key: string; expected: number }[] {
  const levels = shardLevels(size);
  return levels.flatMap((count, level) => Array.from({ length: count }, (_, s) => ({ key: shardKey(join, level, s), expected: expectedAt(size, levels, level, s) })));
}

/** The level-0 shards, which hold the arrival codes (the join reads them). */
export const arrivalShardKeys = (join: string, size: number): string[] => Array.from({ length: shardLevels(size)[0] }, (_, s) => shardKey(join, 0, s));

/**
 * What a branch records: its index, the tail node it ended at, and that
 * tail's loop iteration inside the branch — the join needs all three to name
 * the tail's checkpoint.
 */
export function arrivalCode(index: number, tail: number, iteration: number, size: number): number {
  if (tail < 0 || tail >= TAIL_RADIX) throw runtimeError(`fan-in tail position ${tail} out of range`);
  const code = (iteration * size + index) * TAIL_RADIX + tail;
  if (!Number.isSafeInteger(code)) throw runtimeError(`fan-in arrival code overflows (iteration ${iteration}, size ${size})`);
  return code;
}

export function decodeArrival(code: number, size: number): { index: number; tail: number; iteration: number } {
  const rest = Math.floor(code / TAIL_RADIX);
  return { tail: code % TAIL_RADIX, index: rest % size, iteration: Math.floor(rest / size) };
}

/**
 * The checkpoint key of a branch's output: tail node `tails[tail]` at its
 * `iteration` inside branch `index` of a fan-out made at `fanOutIteration` below the frames `outer`.
 */
export function tailKey(
  run: RunRef,
  tails: readonly string[],
  outer: readonly FramePosition[],
  fanOutIteration: number,
  arrival: { readonly index: number; readonly tail: number; readonly iteration: number },
): string {
  const node = tails[arrival.tail];
  if (node === undefined) throw runtimeError(`unknown fan-in tail position ${arrival.tail}`);
  return checkpointKey(invocationName(run, node, arrival.iteration, [...outer, { iteration: fanOutIteration, index: arrival.index }]));
}

/**
 * Records branch `index`'s arrival and climbs the tree while shards fill up
 * (each shard is created by its first arrival, with TTL `ttl`). 'complete':
 * this call saw the root full (invoke the join). `ttl`: the level-0 shard's
 * TTL once the arrival is in it (a renewal may have raised it).
 */
export async function recordArrival(
  store: CheckpointStore,
  join: string,
  size: number,
  index: number,
  code: number,
  ttl: number,
): Promise<{ outcome: 'complete' | 'pending'; ttl?: number }> {
  const levels = shardLevels(size);
  let shard = Math.floor(index / SHARD_WIDTH);
  let element = code;
  let shardTtl: number | undefined;
  for (let level = 0; level < levels.length; level++) {
    const r = await store.addToShard(shardKey(join, level, shard), element, expectedAt(size, levels, level, shard), ttl);
    if (level === 0) shardTtl = r.ttl;
    if (r.count < r.expected) return { outcome: 'pending', ttl: shardTtl };
    element = shard;
    shard = Math.floor(shard / SHARD_WIDTH);
  }
  return { outcome: 'complete', ttl: shardTtl };
}

/**
 * The tail position and iteration of every branch in order, from the level-0
 * shards in `read`; undefined when one is missing or incomplete. The join is
 * invoked only once the root is full and shards are never deleted, so that
 * means they expired.
 */
export function readArrivals(read: ReadSet, join: string, size: number): { tail: number; iteration: number }[] | undefined {
  const out: { tail: number; iteration: number }[] = new Array(size);
  for (const key of arrivalShardKeys(join, size)) {
    const codes = read.shards.get(key);
    if (!codes) return undefined;
    for (const code of codes) {
      const { index, ...arrival } = decodeArrival(code, size);
      out[index] = arrival;
    }
  }
  for (let i = 0; i < size; i++) if (!out[i]) return undefined;
  return out;
}

/** The checkpoint keys a fan-in's join commits to: a plain join's, or a fold's first step's. */
export const joinKeys = (x: Exec, join: string, iteration: number, frames: readonly FramePosition[]): string[] =>
  [undefined, 0].map((foldIndex) => checkpointKey(invocationName(x.run, join, iteration, frames, foldIndex)));

/**
 * What a duplicate or a launcher reads before it launches or arrives, in one
 * consistent round trip: the join's checkpoints and `others`, with the run
 * record (a terminal join commits there). `joined`: the join committed or the
 * run ended, so nothing more is owed.
 */
export async function readJoinState(
  x: Exec,
  join: string,
  iteration: number,
  frames: readonly FramePosition[],
  others: readonly string[],
): Promise<{ joined: boolean; checkpoints: ReadonlyMap<string, Checkpoint> }> {
  const joins = joinKeys(x, join, iteration, frames);
  const read = await x.rt.store.read([...joins, ...others], [], { consistent: true, run: x.run });
  return { joined: joins.some((k) => read.checkpoints.has(k)) || (await runOver(x, read)), checkpoints: read.checkpoints };
}
