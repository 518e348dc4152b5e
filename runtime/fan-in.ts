/**
 * Fan-in without waiting, at constant cost per branch: arrivals go into a tree
 * of small shard items of width 128 (docs/architecture.md "Fan-in at constant
 * cost per branch"). Adding to a number set is idempotent, so retried and
 * duplicate branches never count twice; the shards exist only between the
 * origin's creation and the join's deletion, so a late branch cannot revive them.
 */
import { runtimeError } from './errors';
import { invocationName, type FramePosition } from './naming';
import { forEachLimit } from './pool';
import type { CheckpointStore } from './store';
import { checkpointKey, type RunRef, shardKey } from './table';
import type { Exec } from './types';

export const SHARD_WIDTH = 128;
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

/** Every shard of a fan-in with the number of arrivals it expects. */
export function shardPlan(join: string, size: number): { key: string; expected: number }[] {
  const out: { key: string; expected: number }[] = [];
  let below = size;
  shardLevels(size).forEach((count, level) => {
    for (let s = 0; s < count; s++) out.push({ key: shardKey(join, level, s), expected: Math.min(SHARD_WIDTH, below - s * SHARD_WIDTH) });
    below = count;
  });
  return out;
}

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

/** Called by the fan-out origin before it invokes any branch. */
export async function createFanIn(store: CheckpointStore, join: string, size: number, ttl: number, concurrency: number): Promise<void> {
  await forEachLimit(shardPlan(join, size), concurrency, (s) => store.createShard(s.key, s.expected, ttl));
}

/**
 * Records branch `index`'s arrival and climbs the tree while shards fill up.
 * 'complete': this call saw the root full (invoke the join); 'gone': the
 * shard no longer exists (the fan-in was joined and cleaned up, or it
 * expired). `ttl`: the level-0 shard's TTL once the arrival is in it.
 */
export async function recordArrival(
  store: CheckpointStore,
  join: string,
  size: number,
  index: number,
  code: number,
): Promise<{ outcome: 'complete' | 'pending' | 'gone'; ttl?: number }> {
  const levels = shardLevels(size);
  let shard = Math.floor(index / SHARD_WIDTH);
  let element = code;
  let ttl: number | undefined;
  for (let level = 0; level < levels.length; level++) {
    const r = await store.addToShard(shardKey(join, level, shard), element);
    if (!r) return { outcome: 'gone', ttl };
    if (level === 0) ttl = r.ttl;
    if (r.count < r.expected) return { outcome: 'pending', ttl };
    element = shard;
    shard = Math.floor(shard / SHARD_WIDTH);
  }
  return { outcome: 'complete', ttl };
}

/**
 * The tail position and iteration of every branch in order, or undefined when
 * the shards are gone or incomplete. The join is only invoked once the root is
 * full, and shards lose arrivals only when a join execution deletes them after
 * committing (a stale origin may recreate them empty meanwhile), so either
 * way this fan-in was already joined.
 */
export async function readArrivals(
  store: CheckpointStore,
  join: string,
  size: number,
): Promise<{ tail: number; iteration: number }[] | undefined> {
  const keys = Array.from({ length: shardLevels(size)[0] }, (_, s) => shardKey(join, 0, s));
  const shards = await store.getShards(keys);
  if (shards.size < keys.length) return undefined;
  const out: { tail: number; iteration: number }[] = new Array(size);
  for (const codes of shards.values()) {
    for (const code of codes) {
      const { index, ...arrival } = decodeArrival(code, size);
      out[index] = arrival;
    }
  }
  for (let i = 0; i < size; i++) if (!out[i]) return undefined;
  return out;
}

/** All shard keys of a fan-in (deleted by the join after it checkpoints). */
export const shardKeys = (join: string, size: number): string[] => shardPlan(join, size).map((s) => s.key);

/** The checkpoint keys a fan-in's join commits to: a plain join's, or a fold's first step's. */
export const joinKeys = (x: Exec, join: string, iteration: number, frames: readonly FramePosition[]): string[] =>
  [undefined, 0].map((foldIndex) => checkpointKey(invocationName(x.run, join, iteration, frames, foldIndex)));

/**
 * Whether the join of a fan-in committed: it deletes the shards only after,
 * so shards gone before it committed expired.
 */
export async function joined(x: Exec, join: string, iteration: number, frames: readonly FramePosition[]): Promise<boolean> {
  return (await x.rt.store.getCheckpoints(joinKeys(x, join, iteration, frames))).size > 0;
}
