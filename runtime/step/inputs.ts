/**
 * This invocation's input, resolved. What it reads first (a
 * reference, a map item's origin, a fan-in's shards) is named by `inputKeys`
 * and read with the own checkpoint in one round trip (runtime/step/step.ts). Inputs are
 * never deleted: one that is missing expired, or, when another execution of
 * ours committed, is no longer needed (runtime/step/step.ts).
 */
import { branchInput } from '../records/branch-input';
import { contextObject } from '../language/context';
import { arrivalShardKeys, readArrivals, tailKey } from '../records/fan-in-shards';
import { runtimeError } from '../contract/errors';
import { stateOutput } from '../language/state-io';
import { mapInput, mapItem, mapItemList } from '../records/map-items';
import type { InputRef, JoinSpec, Json } from '../contract/ir';
import { invocationName, type FramePosition } from '../contract/naming';
import { type Checkpoint, checkpointKey } from '../contract/table';
import type { Exec } from '../ports/execution';

type FanInRef = Extract<InputRef, { fanIn: unknown }>['fanIn'];
type MapItemRef = Extract<InputRef, { mapItem: unknown }>['mapItem'];

/** Does the join's ResultPath merge the branch outputs into the state input (which it then reads)? */
/** Whether the join's output needs the state input: a ResultPath that merges into it, or a JSONata Output (which may read `$states.input`). */
const readsStateInput = (join: JoinSpec | undefined): boolean =>
  join?.queryLanguage === 'JSONata' ? join.outputs !== undefined : join?.resultPath !== undefined && join.resultPath !== '$';

/**
 * For the start of a bounded Map's item inside a state with Retry or Catch
 * rules: the checkpoint key of its attempt's join. The join commits before
 * every item arrived only when a branch failed the state (its decision), and
 * then an item launched late must not run: it stops, and its slot launches
 * no more (items need no check of their own when a failure ends the run).
 */
export function decidedAttemptKey(x: Exec): string | undefined {
  const { input, frames } = x.invocation;
  const top = frames.at(-1);
  const join = x.rt.ir.enclosingJoin;
  if (!('mapItem' in input) || !top?.originNode || !join || !x.rt.ir.stateErrors) return undefined;
  return checkpointKey(invocationName(x.run, join.node, top.iteration, frames.slice(0, -1)));
}

/**
 * Most joins' keys needed no shard to be known: when every branch ends at the
 * one tail node on its first pass (iteration 0), a branch's output is at a
 * key computable from the envelope. A join reads those with its shards, in
 * one round trip, up to this many (one BatchGetItem of 100 keys with the own
 * checkpoint, the shards and the origin); a fold's first step reads item 0
 * alone. A branch that ended elsewhere (a loop's later pass) is read next,
 * from the shards' codes, at the price of one read of a missing item.
 */
const PREDICTED_TAILS = 90;

/**
 * The tail keys a fan-in's join reads with its shards: each branch's
 * first-pass output at its one tail (a Map's item processor has one tail; a
 * Parallel's branches are listed in `branchTails`).
 */
function predictedTails(x: Exec, f: FanInRef): string[] {
  const join = x.rt.ir.join;
  if (!join) return [];
  const count = x.rt.ir.handler.kind === 'fold' ? Math.min(f.size, 1) : f.size;
  if (count > PREDICTED_TAILS) return [];
  const tailOf = (index: number): number => join.branchTails?.[index] ?? (join.tails.length === 1 ? 0 : -1);
  const { iteration, frames } = x.invocation;
  return Array.from({ length: count }, (_, index) => index).flatMap((index) => {
    const tail = tailOf(index);
    return tail < 0 ? [] : [tailKey(x.run, join.tails, frames, iteration, { index, tail, iteration: 0 })];
  });
}

/** The checkpoints and shards this invocation reads first, besides its own checkpoint: all known from the envelope. */
export function inputKeys(x: Exec): { checkpoints: string[]; shards: string[] } {
  const { input, parent, fold } = x.invocation;
  const { join } = x.rt.ir;
  const checkpoints: string[] = [];
  let shards: string[] = [];
  if ('ref' in input) checkpoints.push(input.ref);
  else if ('mapItem' in input) checkpoints.push(input.mapItem.origin);
  else if ('failed' in input) checkpoints.push(input.failed.origin);
  else if ('fanIn' in input) {
    shards = arrivalShardKeys(input.fanIn.join, input.fanIn.size);
    if (readsStateInput(join)) checkpoints.push(input.fanIn.origin);
    checkpoints.push(...predictedTails(x, input.fanIn));
  } else if (join && readsStateInput(join) && parent) checkpoints.push(parent);
  if (fold && fold.index < fold.items.length) checkpoints.push(fold.items[fold.index]);
  const decided = decidedAttemptKey(x);
  if (decided) checkpoints.push(decided);
  return { checkpoints, shards };
}

/**
 * The checkpoint keys of a fan-in's branch outputs in branch order, decoded
 * from the shards (tail position and iteration per branch). Undefined when a
 * shard is missing or incomplete: they expired.
 */
export function fanInMembers(x: Exec, f: FanInRef, frames: readonly FramePosition[] = x.invocation.frames): string[] | undefined {
  const tails = x.rt.ir.join?.tails;
  if (!tails) throw runtimeError(`node ${x.rt.ir.node} received a fan-in but has no join spec`);
  const arrivals = x.read && readArrivals(x.read, f.join, f.size);
  if (!arrivals) return undefined;
  const { iteration } = x.invocation;
  return arrivals.map((a, index) => tailKey(x.run, tails, frames, iteration, { ...a, index }));
}

/**
 * The checkpoints of `keys` that exist. Keys read with the own checkpoint
 * are taken from that read; the others are read now (consistently, in
 * chunks of 100) and added to it, so that later lookups in the step's read
 * (a callback attempt's previous decision, a join's members after the
 * redrive's check) see what a stale first read missed, and nothing is read twice.
 */
export async function readCheckpoints(x: Exec, keys: readonly string[]): Promise<ReadonlyMap<string, Checkpoint>> {
  const read = x.read?.checkpoints ?? new Map<string, Checkpoint>();
  const rest = keys.filter((k) => !read.has(k));
  const found = rest.length > 0 ? await x.rt.store.getCheckpoints(rest) : undefined;
  if (!found?.size) return read;
  const all = new Map([...read, ...found]);
  if (x.read) x.read = { ...x.read, checkpoints: all };
  return all;
}

/** Values of checkpoints in key order, or undefined if any is missing (readCheckpoints). */
export async function readValues(x: Exec, keys: readonly string[]): Promise<Json[] | undefined> {
  const found = await readCheckpoints(x, keys);
  const out: Json[] = [];
  for (const k of keys) {
    const c = found.get(k);
    if (!c) return undefined;
    out.push(JSON.parse(c.json) as Json);
  }
  return out;
}

/**
 * The Parallel/Map state's output from its branch outputs: the join's
 * ResultSelector, ResultPath (into the state input, the origin's value, when
 * it merges) and OutputPath, or a JSONata state's Output. Without output
 * processing, the outputs as they are.
 */
async function joinOutput(x: Exec, results: Json[], stateInput: Json | undefined): Promise<Json> {
  const join = x.rt.ir.join;
  return join ? stateOutput(join, stateInput ?? null, results, contextObject(x)) : results;
}

export async function resolveInput(x: Exec): Promise<{ value: Json } | undefined> {
  const { input, parent, frames } = x.invocation;
  const { ir } = x.rt;
  if ('value' in input) {
    // An empty Map's origin invokes the join directly with [] and is its parent (holding the state input).
    if (!ir.join) return { value: input.value };
    const state = readsStateInput(ir.join) && parent ? await readValues(x, [parent]) : [null];
    return state && { value: await joinOutput(x, input.value as Json[], state[0]) };
  }
  if ('ref' in input) {
    const v = await readValues(x, [input.ref]);
    if (!v) return undefined;
    const top = frames.at(-1);
    const rebuild = ir.branchInput && top?.kind === 'parallel' && top.origin === input.ref;
    return { value: rebuild ? await branchInput(x, ir.branchInput!, v[0]) : v[0] };
  }
  if ('mapItem' in input) return resolveMapItem(x, input.mapItem);
  if ('failed' in input || 'launch' in input) throw runtimeError(`node ${ir.node}: a state failure is decided and a launch resolves no input`);
  const keys = fanInMembers(x, input.fanIn);
  if (!keys) return undefined;
  // The origin (the state input) was read with the shards.
  const withState = readsStateInput(ir.join);
  const values = await readValues(x, withState ? [...keys, input.fanIn.origin] : keys);
  if (!values) return undefined;
  const state = withState ? values.pop() : undefined;
  return { value: await joinOutput(x, values, state) };
}

/**
 * A map item sent by reference: rebuilt from the origin's value as the origin
 * would have sent it. `$$.State.Name` is the Map's name from this node's IR
 * (the envelope's `state` is the origin node, a name the envelope can bound).
 */
async function resolveMapItem(x: Exec, { origin, index, state }: MapItemRef): Promise<{ value: Json } | undefined> {
  const spec = x.rt.ir.mapItems;
  if (!spec) throw runtimeError(`node ${x.rt.ir.node} starts no item processor`);
  const v = await readValues(x, [origin]);
  if (!v) return undefined;
  const input = mapInput(spec, v[0]);
  return { value: await mapItem(x, spec, input, await mapItemList(x, spec, input), index, spec.state ?? state) };
}
