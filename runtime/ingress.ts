/**
 * Ingress: resolve this invocation's input. A reference or fan-in member that
 * is a tombstone (or gone) means this invocation already committed elsewhere
 * and its successors ran: GC only removes inputs after that. Then stop (or,
 * when no execution of ours committed, the input expired: step.ts).
 */
import { branchInput } from './branch-input';
import { contextObject } from './context';
import { readArrivals, shardKeys, tailKey } from './fan-in';
import { runtimeError } from './errors';
import { processOutput } from './io';
import { mapInput, mapItem, mapItemList } from './map-items';
import type { InputRef, JoinSpec, Json } from './ir';
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
  const keys = arrivals.map((a, index) => tailKey(x.run, tails, frames, iteration, { ...a, index }));
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

/** Does the join's ResultPath merge the branch outputs into the state input (which it then reads)? */
const readsStateInput = (join: JoinSpec | undefined): boolean => join?.resultPath !== undefined && join.resultPath !== '$';

/**
 * The Parallel/Map state's output from its branch outputs: the join's
 * ResultSelector, ResultPath (into the state input, the origin's value, when
 * it merges) and OutputPath. Without output processing, the outputs as they are.
 */
function joinOutput(x: Exec, results: Json[], stateInput: Json | undefined): Json {
  const join = x.rt.ir.join;
  if (!join || (join.resultSelector === undefined && join.resultPath === undefined && join.outputPath === undefined)) return results;
  return processOutput(join, stateInput ?? null, results, contextObject(x));
}

export async function resolveInput(x: Exec): Promise<{ value: Json; cleanup: Cleanup } | undefined> {
  const { input, parent, frames } = x.invocation;
  const { ir } = x.rt;
  if ('value' in input) {
    // An empty Map's origin invokes the join directly with [] and is its parent (holding the state input).
    if (!ir.join) return { value: input.value, cleanup: noCleanup() };
    const state = readsStateInput(ir.join) && parent ? await readValues(x, [parent]) : [null];
    return state && { value: joinOutput(x, input.value as Json[], state[0]), cleanup: noCleanup() };
  }
  if ('ref' in input) {
    const v = await readValues(x, [input.ref]);
    if (!v) return undefined;
    const top = frames.at(-1);
    const rebuild = ir.branchInput && top?.kind === 'parallel' && top.origin === input.ref;
    return { value: rebuild ? branchInput(x, ir.branchInput!, v[0]) : v[0], cleanup: noCleanup() };
  }
  if ('mapItem' in input) return resolveMapItem(x, input.mapItem);
  if ('failed' in input || 'launch' in input) throw runtimeError(`node ${ir.node}: a state failure or a launch resolves no input`);
  const m = await fanInMembers(x, input.fanIn);
  if (!m) return undefined;
  // The origin is read with the tails: the join tombstones both, so both are there until it commits.
  const withState = readsStateInput(ir.join);
  const values = await readValues(x, withState ? [...m.keys, input.fanIn.origin] : m.keys);
  if (!values) return undefined;
  const state = withState ? values.pop() : undefined;
  return { value: joinOutput(x, values, state), cleanup: m.cleanup };
}

/**
 * A map item sent by reference: rebuilt from the origin's value as the origin
 * would have sent it. `$$.State.Name` is the Map's name from this node's IR
 * (the envelope's `state` is the origin node, a name the envelope can bound).
 */
async function resolveMapItem(x: Exec, { origin, index, state }: MapItemRef): Promise<{ value: Json; cleanup: Cleanup } | undefined> {
  const spec = x.rt.ir.mapItems;
  if (!spec) throw runtimeError(`node ${x.rt.ir.node} starts no item processor`);
  const v = await readValues(x, [origin]);
  if (!v) return undefined;
  const input = mapInput(spec, v[0]);
  return { value: mapItem(x, spec, input, mapItemList(x, spec, input), index, spec.state ?? state), cleanup: noCleanup() };
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
