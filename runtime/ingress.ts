/**
 * Ingress: resolve this invocation's input. A reference or fan-in member that
 * is a tombstone (or gone) means this invocation already committed elsewhere
 * and its successors ran: GC only removes inputs after that. Then stop.
 */
import { invocationName } from './naming';
import { readArrivals, shardKeys } from './fan-in';
import { runtimeError } from './errors';
import { mapItem, mapItemList } from './map-items';
import type { InputRef, Json } from './ir';
import { checkpointKey } from './table';
import type { Cleanup, Exec } from './types';

export const noCleanup = (): Cleanup => ({ tombstones: [], shards: [] });

type FanInRef = Extract<InputRef, { fanIn: unknown }>['fanIn'];
type MapItemRef = Extract<InputRef, { mapItem: unknown }>['mapItem'];

/**
 * The checkpoint keys of a fan-in's branch outputs in branch order, decoded
 * from the shards (tail position and iteration per branch), and what the join
 * cleans up (the tails, the origin, the shards). Undefined when the shards
 * are gone: the join already finished.
 */
export async function fanInMembers(x: Exec, f: FanInRef): Promise<{ keys: string[]; cleanup: Cleanup } | undefined> {
  const tails = x.rt.ir.join?.tails;
  if (!tails) throw runtimeError(`node ${x.rt.ir.node} received a fan-in but has no join spec`);
  const arrivals = await readArrivals(x.rt.store, f.join, f.size);
  if (!arrivals) return undefined;
  const { iteration, frames } = x.invocation;
  const keys = arrivals.map((a, index) => {
    const tail = tails[a.tail];
    if (tail === undefined) throw runtimeError(`node ${x.rt.ir.node}: unknown tail position ${a.tail}`);
    return checkpointKey(invocationName(x.run, tail, a.iteration, [...frames, { iteration, index }]));
  });
  return { keys, cleanup: { tombstones: [...keys, f.origin], shards: shardKeys(f.join, f.size) } };
}

/** Values of checkpoints in key order, or undefined if any is a tombstone or missing. */
export async function readValues(x: Exec, keys: readonly string[]): Promise<Json[] | undefined> {
  const found = await x.rt.store.getCheckpoints(keys);
  const out: Json[] = [];
  for (const k of keys) {
    const c = found.get(k);
    if (!c || c.tombstone) return undefined;
    out.push(JSON.parse(c.json) as Json);
  }
  return out;
}

export async function resolveInput(x: Exec): Promise<{ value: Json; cleanup: Cleanup } | undefined> {
  const input = x.invocation.input;
  if ('value' in input) return { value: input.value, cleanup: noCleanup() };
  if ('ref' in input) {
    const v = await readValues(x, [input.ref]);
    return v && { value: v[0], cleanup: noCleanup() };
  }
  if ('mapItem' in input) return resolveMapItem(x, input.mapItem);
  const m = await fanInMembers(x, input.fanIn);
  const values = m && (await readValues(x, m.keys));
  return values && m && { value: values, cleanup: m.cleanup };
}

/** A map item sent by reference: rebuilt from the origin's value as the origin would have sent it. */
async function resolveMapItem(x: Exec, { origin, index, state }: MapItemRef): Promise<{ value: Json; cleanup: Cleanup } | undefined> {
  const spec = x.rt.ir.mapItems;
  if (!spec) throw runtimeError(`node ${x.rt.ir.node} starts no item processor`);
  const v = await readValues(x, [origin]);
  return v && { value: mapItem(x, spec, v[0], mapItemList(x, spec, v[0]), index, state), cleanup: noCleanup() };
}

/**
 * A duplicate join (own checkpoint found) still owes the cleanup. When the
 * shards are gone or incomplete, an earlier execution already tombstoned the
 * tails (GC deletes shards last); what shards remain are leftovers of a cleanup
 * cut short, or recreated by a stale origin: delete them all.
 */
export async function joinCleanup(x: Exec): Promise<Cleanup> {
  const input = x.invocation.input;
  if (!('fanIn' in input)) return noCleanup();
  const { origin, join, size } = input.fanIn;
  const m = await fanInMembers(x, input.fanIn);
  return m ? m.cleanup : { tombstones: [origin], shards: shardKeys(join, size) };
}
