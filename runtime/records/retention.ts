/**
 * The run's lease (docs/architecture.md "Retention"): what a run will read
 * again much later than it was written (its run record, the shards and
 * arrived branches and origins of the fan-ins it is inside, a fold's items) is kept
 * however long the run lasts. Every envelope carries the lease, the time
 * until which all of that is kept; an execution that finds less than two
 * handoffs left renews it, so nothing happens in runs shorter than the
 * checkpoint retention minus two handoffs.
 */
import { runtimeError } from '../contract/errors';
import { decodeArrival, shardLevels, shardPlan, tailKey } from './fan-in-shards';
import { invocationName } from '../contract/naming';
import { ttlIn } from './payload';
import { forEachLimit } from '../ports/pool';
import { historyKey, parseKey, runKey, stateFailureKey } from '../contract/table';
import type { Exec } from '../ports/execution';

/** Renew once less is left: the next execution may start one handoff later, and a renewal cut short is retried within one. */
const margin = (x: Exec): number => 2 * x.rt.ir.settings.handoffSeconds;

/** A renewed lease: the retention, counted from a point one margin ahead, so renewals come once per retention. */
const freshLease = (x: Exec): number => ttlIn(x.rt.ir.settings.checkpointTtlSeconds + margin(x));

/**
 * A new run's lease: the retention (so items written in runs shorter than it
 * live no longer than they would without a lease), but at least the margin,
 * which the first renewal may take to land.
 */
export const startLease = (x: Exec): number => ttlIn(Math.max(x.rt.ir.settings.checkpointTtlSeconds, margin(x)));

/**
 * TTLs of items written by one step are rounded up to this many seconds:
 * a tail's checkpoint and the shard it arrives in (written a moment apart,
 * perhaps by another branch) then get the same TTL, and the tail does not pay
 * a write to raise its checkpoint to the shard's (runtime/step/interpreter.ts, fan-in) for
 * a difference of a second. Items live at most this much longer.
 */
const TTL_GRANULARITY_SECONDS = 60;

/** The TTL of an item this execution writes: the retention, and never before the lease ends. */
export const itemTtl = (x: Exec): number => {
  const retention = ttlIn(x.rt.ir.settings.checkpointTtlSeconds);
  return Math.max(Math.ceil(retention / TTL_GRANULARITY_SECONDS) * TTL_GRANULARITY_SECONDS, x.lease);
};

/** An input missing although this invocation never committed: its TTL passed (the run outlived what its lease covers). */
export const expired = (x: Exec, what: string): Error =>
  runtimeError(`node ${x.rt.ir.node}: ${what} expired before it was read (checkpointRetention ${x.rt.ir.settings.checkpointTtlSeconds} s)`);

const raiseAll = (x: Exec, keys: readonly string[], ttl: number): Promise<void> =>
  forEachLimit(keys, x.rt.ir.settings.invokeConcurrency, (key) => x.rt.store.extendTtl(key, ttl));

/**
 * Renews the lease when it ends within the margin: the run record (and the
 * history counter), the remaining fold items and every enclosing fan-in.
 * Idempotent: TTLs only rise, and a fan-in claimed by another execution is
 * left to it (its lease is taken instead).
 */
export async function keepLease(x: Exec): Promise<void> {
  const due = ttlIn(margin(x));
  if (x.lease > due) return;
  await renew(x, due, freshLease(x));
}

/**
 * Before a Wait that ends at `wakeUp` (epoch seconds): nothing runs during
 * it, so nothing renews the lease. Keeps the run's items as a renewal at the
 * wake-up would (`R + M` from it), when they would otherwise end before the
 * successor's own check could renew them: it starts within two handoffs of
 * `wakeUp` (Scheduler's delivery retries are bounded by one, Lambda's queue
 * by another), and a renewal needs one more to land.
 */
export async function leaseThroughWait(x: Exec, wakeUp: number): Promise<void> {
  const due = wakeUp + margin(x) + x.rt.ir.settings.handoffSeconds;
  if (x.lease > due) return;
  await renew(x, due, wakeUp + x.rt.ir.settings.checkpointTtlSeconds + margin(x));
}

/** Raises the run's items to `lease` (a fan-in only when its root ends by `due`); the envelope's lease becomes what is kept. */
async function renew(x: Exec, due: number, lease: number): Promise<void> {
  const { frames, fold } = x.invocation;
  const keys = [runKey(x.run)];
  if (x.rt.ir.settings.history) keys.push(historyKey(x.run));
  if (fold) keys.push(...fold.items.slice(fold.index));
  await raiseAll(x, keys, lease);
  let kept = lease;
  for (let level = 0; level < frames.length; level++) kept = Math.min(kept, await renewFanIn(x, level, due, lease));
  x.lease = kept;
}

/**
 * Renews the fan-in of frame `level` until `lease`: its shards, the
 * checkpoints of the branches that arrived, and its origin's. One execution per lease does it,
 * the one whose claim on the root shard finds it due; the others take the
 * root's TTL as the fan-in's lease. The root is claimed first and renewed
 * with the rest: each level-0 shard's renewal returns the arrivals it holds,
 * and a branch that arrives after it sees the raised TTL and raises its own
 * checkpoint's (runtime/step/interpreter.ts). A claimer that fails is retried by Lambda
 * and finishes (the claim names its invocation); once its retries are
 * exhausted the run is FAILED and needs nothing.
 */
async function renewFanIn(x: Exec, level: number, due: number, lease: number): Promise<number> {
  const { size, iteration, join, origin } = x.invocation.frames[level];
  if (!join) throw runtimeError(`node ${x.rt.ir.node}: fan-out frame ${level} names no join`);
  const outer = x.invocation.frames.slice(0, level);
  const plan = shardPlan(invocationName(x.run, join.node, iteration, outer), size);
  const { store } = x.rt;
  const root = plan[plan.length - 1];
  const claim = await store.renewShard(root.key, lease, { by: x.key, due });
  // Not due: another execution renewed it (its TTL is the lease). A root no arrival reached yet is created by the claim.
  if (!claim.renewed) return claim.ttl ?? lease;
  const codes: number[] = plan.length === 1 ? [...claim.arrivals] : [];
  const level0 = shardLevels(size)[0];
  await forEachLimit(plan.slice(0, -1), x.rt.ir.settings.invokeConcurrency, async (shard, i) => {
    const r = await store.renewShard(shard.key, lease);
    if (r.renewed && i < level0) codes.push(...r.arrivals);
  });
  const tails = codes.map((code) => tailKey(x.run, join.tails, outer, iteration, decodeArrival(code, size)));
  // The origin holds the state input, which the join reads for its ResultPath (and a Retry), and a bounded
  // Map's tails launch items that read it until the last one starts; after a retry the origin is the last
  // attempt's join, whose failure record counts the retries used.
  const previous = parseKey(origin);
  await raiseAll(x, [origin, ...tails, ...(previous?.kind === 'checkpoint' ? [stateFailureKey(previous.invocation)] : [])], lease);
  return lease;
}
