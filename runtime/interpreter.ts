/**
 * Runs a node's instructions on its committed value: choice, loop iteration,
 * invocations (scalar, parallel, map, fan-in) and the run's end (succeed, fail).
 * Instructions act on an outgoing context (iteration, frames) that starts as
 * this invocation's own.
 */
import { branchInput } from './branch-input';
import { evaluate } from './condition';
import { contextObject, stateOf } from './context';
import { runtimeError } from './errors';
import { failure } from './fail';
import { arrivalCode, createFanIn, recordArrival, shardKeys } from './fan-in';
import { appendCommit } from './history';
import { checkpointKey, RETRY_STATE, type Transition } from './table';
import { ENVELOPE_BOUNDS, ENVELOPE_VERSION, type EnvelopeHeader, type FanOutFrame, type InputRef, type Instruction, type Invoke, type ItemLaunch, type Json } from './ir';
import { passOutput } from './io';
import { mapInput, mapItem, mapItemList } from './map-items';
import { invocationName } from './naming';
import { expired, itemTtl } from './lease';
import { derivedValue, passValue } from './payload';
import { forEachLimit } from './pool';
import { failRun, succeedRun } from './run-record';
import type { Committed, Exec } from './types';

interface Outgoing {
  iteration: number;
  frames: readonly FanOutFrame[];
}

/**
 * Where a path through the instructions is: `open` before its transition,
 * `logged` once its history entry is appended (a path has one transition, so
 * a later invoke or end on it appends no other), `ended` when nothing after
 * this may run (the run ended, or a stale fan-out origin stopped).
 */
type PathState = 'open' | 'logged' | 'ended';

/** Appends the path's commit entry unless it has one. */
async function appendOnce(x: Exec, ck: Committed, state: PathState, t?: Transition): Promise<'logged'> {
  if (state === 'open') await appendCommit(x, ck, t);
  return 'logged';
}

/**
 * Applies the node's leading `pass` instructions to its output, before it is
 * checkpointed: the checkpoint then holds what the successors see (they may
 * read it by reference, as a join's tail or as the run's result), and a
 * duplicate continues from it. `runInstructions` skips them.
 */
export function leadingPasses(x: Exec, value: Json): Json {
  const context = contextObject(x);
  for (const ins of x.rt.ir.instructions) {
    if (ins.op !== 'pass') break;
    value = passOutput(ins.io, ins.result, value, context);
  }
  return value;
}

/** Sends one envelope to `node` (async Invoke), with the run's lease. */
export async function send(x: Exec, node: string, header: Omit<EnvelopeHeader, 'v' | 'workflow' | 'workflowId' | 'node' | 'lease'>): Promise<void> {
  const functionName = x.rt.ir.functionNames[node];
  if (!functionName) throw runtimeError(`node ${x.rt.ir.node}: no function name for successor ${node}`);
  await x.rt.invoker.invoke(functionName, { unum: { v: ENVELOPE_VERSION, ...x.run, node, ...header, lease: x.lease } });
}

/** One fan-out: its frames' kind, join, size and origin node, and what each launched branch receives. */
interface FanOutSpec {
  readonly kind: FanOutFrame['kind'];
  readonly join: string;
  readonly size: number;
  readonly next: readonly string[];
  readonly branch: (index: number) => { target: string; input: InputRef };
  /** Branches launched now (a bounded Map's first ones; its tails launch the rest). @default size */
  readonly launched?: number;
  /** A bounded Map's origin node, written into its frames. */
  readonly originNode?: string;
}

/**
 * Pushes a fan-out: create the join's shards first, then invoke each branch
 * with its frame. Ends the path when this is a stale duplicate of an origin
 * whose join already finished: the join tombstones the origin before it
 * deletes the shards, so re-reading our checkpoint after creating them tells
 * us whether we just recreated shards the join had already removed.
 */
async function fanOut(x: Exec, ck: Committed, state: PathState, out: Outgoing, spec: FanOutSpec): Promise<PathState> {
  const { kind, size, originNode } = spec;
  const joinName = invocationName(x.run, spec.join, out.iteration, out.frames);
  await appendOnce(x, ck, state, { next: spec.next, join: joinName, size });
  await createFanIn(x.rt.store, joinName, size, itemTtl(x), x.rt.ir.settings.invokeConcurrency);
  if ((await x.rt.store.getCheckpoint(ck.key))?.tombstone) {
    await x.rt.store.deleteItems(shardKeys(joinName, size));
    return 'ended';
  }
  const indexes = Array.from({ length: spec.launched ?? size }, (_, i) => i);
  await forEachLimit(indexes, x.rt.ir.settings.invokeConcurrency, (index) => {
    const b = spec.branch(index);
    const frame: FanOutFrame = { index, size, kind, iteration: out.iteration, origin: ck.key, ...(originNode ? { originNode } : {}) };
    return send(x, b.target, { iteration: 0, fanOut: [...out.frames, frame], inputs: [b.input] });
  });
  return 'logged';
}

/**
 * A bounded Map's tail, once item `top.index` arrived: launches item
 * index + N. Items i, i + N, i + 2N, ... run one after another, so at most N
 * run at once. Every execution of this tail that records the arrival sends
 * the launch (a retry after a crash between the two sends it again), and a
 * launched item's name depends only on its index, so one launched twice is
 * absorbed by its checkpoint. A duplicate execution first reads that
 * checkpoint and skips the launch when it exists: the item's own event owes
 * the rest, and a duplicate of a one-node item would otherwise relaunch the
 * items after it, one by one, to the end of the chain.
 */
async function launchNext(x: Exec, launch: ItemLaunch, top: FanOutFrame, outer: readonly FanOutFrame[]): Promise<void> {
  const index = top.index + launch.maxConcurrency;
  if (index >= top.size) return;
  if (top.kind !== 'map' || !top.originNode) throw runtimeError(`node ${x.rt.ir.node}: the frame of a bounded Map names no origin node`);
  const frame: FanOutFrame = { index, size: top.size, kind: 'map', iteration: top.iteration, origin: top.origin, originNode: top.originNode };
  const frames = [...outer, frame];
  if (x.metrics.duplicates && (await x.rt.store.getCheckpoint(checkpointKey(invocationName(x.run, launch.target, 0, frames))))) return;
  await send(x, launch.target, { iteration: 0, fanOut: frames, inputs: [{ mapItem: { origin: top.origin, index, state: top.originNode } }] });
}

/**
 * Whether the join of a fan-in committed (a plain join, or a fold's first
 * step): it deletes the shards only after, so shards gone before it committed expired.
 */
async function joined(x: Exec, join: string, iteration: number, frames: readonly FanOutFrame[]): Promise<boolean> {
  const names = [undefined, 0].map((foldIndex) => checkpointKey(invocationName(x.run, join, iteration, frames, foldIndex)));
  return (await x.rt.store.getCheckpoints(names)).size > 0;
}

/** Invokes one successor whose `parent` we are (it tombstones our checkpoint). */
async function invokeChild(x: Exec, ck: Committed, state: PathState, out: Outgoing, target: string, input: InputRef, t: Transition): Promise<PathState> {
  state = await appendOnce(x, ck, state, t);
  await send(x, target, { iteration: out.iteration, fanOut: out.frames, inputs: [input], parent: ck.key });
  return state;
}

async function runInvoke(x: Exec, ck: Committed, invoke: Invoke, state: PathState, out: Outgoing): Promise<PathState> {
  switch (invoke.kind) {
    case 'scalar':
      return invokeChild(x, ck, state, out, invoke.target, passValue(x, ck), { next: [invoke.target] });
    case 'parallel': {
      // A large branch input goes as a ref to the origin: the branch start rebuilds it (its IR `branchInput`).
      const input = invoke.input ? derivedValue(x, branchInput(x, invoke.input, ck.value), { ref: ck.key }) : passValue(x, ck);
      return fanOut(x, ck, state, out, {
        kind: 'parallel',
        join: invoke.join,
        size: invoke.targets.length,
        next: invoke.targets,
        branch: (i) => ({ target: invoke.targets[i], input }),
      });
    }
    case 'map': {
      const mapped = mapInput(invoke, ck.value);
      const list = mapItemList(x, invoke, mapped);
      if (list.length === 0) {
        // No branch will ever arrive: the origin is the join's only predecessor.
        const join = invocationName(x.run, invoke.join, out.iteration, out.frames);
        return invokeChild(x, ck, state, out, invoke.join, { value: [] }, { next: [invoke.join], join, size: 0 });
      }
      const origin = x.rt.ir.node;
      const mapState = invoke.state ?? stateOf(x);
      // A large item goes by reference (the item processor rebuilds it): the join keeps the origin's checkpoint until every branch committed.
      const input = (index: number): InputRef => derivedValue(x, mapItem(x, invoke, mapped, list, index, mapState), { mapItem: { origin: ck.key, index, state: origin } });
      const bounded = invoke.maxConcurrency > 0 && invoke.maxConcurrency < list.length;
      return fanOut(x, ck, state, out, {
        kind: 'map',
        join: invoke.join,
        size: list.length,
        next: [invoke.target],
        branch: (i) => ({ target: invoke.target, input: input(i) }),
        ...(bounded ? { launched: invoke.maxConcurrency, originNode: origin } : {}),
      });
    }
    case 'fanIn': {
      const top = out.frames[out.frames.length - 1];
      if (!top) throw runtimeError(`node ${x.rt.ir.node}: fanIn without a fan-out frame`);
      const size = invoke.size === 'frame' ? top.size : invoke.size;
      const popped = out.frames.slice(0, -1);
      const join = invocationName(x.run, invoke.target, top.iteration, popped);
      // The code names this invocation's checkpoint: its own iteration, not the outgoing one.
      const code = arrivalCode(top.index, invoke.tail, x.invocation.iteration, size);
      // Before the arrival: once it is recorded the join may run and log first.
      state = await appendOnce(x, ck, state, { next: [invoke.target] });
      const arrival = await recordArrival(x.rt.store, join, size, top.index, code);
      if (arrival.outcome === 'gone' && !(await joined(x, invoke.target, top.iteration, popped))) throw expired(x, `the fan-in state of join ${invoke.target}`);
      // A renewal of the fan-in that read this shard before the arrival missed our checkpoint: keep it as long as the shard.
      if (arrival.ttl !== undefined && arrival.ttl > (ck.ttl ?? 0)) await x.rt.store.extendTtl(ck.key, arrival.ttl);
      // Pending: the item that this one's completion launches has not arrived (complete or joined: every item has).
      if (arrival.outcome === 'pending' && invoke.launch) await launchNext(x, invoke.launch, top, popped);
      out.frames = popped;
      out.iteration = top.iteration;
      if (arrival.outcome === 'complete') {
        x.metrics.fanInCompletions = 1;
        await send(x, invoke.target, { iteration: top.iteration, fanOut: popped, inputs: [{ fanIn: { join, size, origin: top.origin } }] });
      }
      return state;
    }
  }
}

async function runInstructions(x: Exec, ck: Committed, list: readonly Instruction[], state: PathState, out: Outgoing): Promise<PathState> {
  for (const ins of list) {
    if (state === 'ended') break;
    switch (ins.op) {
      case 'incrIteration':
        // Successors reject an envelope past the bound: end the run here, naming it.
        if (out.iteration >= ENVELOPE_BOUNDS.iteration) throw runtimeError(`node ${x.rt.ir.node}: the loop reached its limit of ${ENVELOPE_BOUNDS.iteration} iterations`);
        out.iteration++;
        break;
      // 'pass': applied before the commit (leadingPasses).
      case 'invoke':
        state = await runInvoke(x, ck, ins.invoke, state, out);
        break;
      case 'choice': {
        const next = ins.rules.find((r) => evaluate(r.when, ck.value))?.then ?? ins.otherwise;
        if (!next) {
          await failRunOrState(x, 'States.NoChoiceMatched', `Choice ${ins.state}: no choice rule matched and there is no default`, ins.state);
          return 'ended';
        }
        state = await runInstructions(x, ck, next, state, out);
        break;
      }
      case 'succeed':
        state = await appendOnce(x, ck, state);
        await succeedRun(x, ck);
        break;
      case 'fail': {
        const { error, cause } = failure(x, ins, ck.value);
        await failRunOrState(x, error, cause, ins.state);
        return 'ended';
      }
    }
  }
  return state;
}

/** The innermost Parallel/Map around this node: its join node, the attempt's join invocation, and the join's frames. */
function enclosingState(x: Exec): { node: string; join: string; top: FanOutFrame; outer: readonly FanOutFrame[] } {
  const { frames } = x.invocation;
  const top = frames[frames.length - 1];
  const node = x.rt.ir.enclosingJoin?.node;
  if (!top || !node) throw runtimeError(`node ${x.rt.ir.node}: a state failure outside any Parallel or Map`);
  const outer = frames.slice(0, -1);
  return { node, join: invocationName(x.run, node, top.iteration, outer), top, outer };
}

/** Invokes the join of the state around this node to decide its failure (its checkpoint makes the decision once). */
export async function noticeStateFailure(x: Exec): Promise<void> {
  const { node, join, top, outer } = enclosingState(x);
  await send(x, node, { iteration: top.iteration, fanOut: outer, inputs: [{ failed: { join, size: top.size, origin: top.origin } }] });
}

/**
 * Fails the Parallel/Map state around this node, once: the first failure
 * recorded for the state's attempt (its join's invocation) is the state's
 * error. Every failing branch invokes the join with `failed` (the join's
 * checkpoint makes the decision once); an execution that recorded the
 * failure and crashed before the invoke leaves it to this invocation's next
 * execution, which finds the failure its own at its first read (state-stop.ts).
 */
async function failState(x: Exec, error: string, cause: string): Promise<void> {
  await x.rt.store.failState(enclosingState(x).join, { error, cause, by: x.name }, itemTtl(x));
  await noticeStateFailure(x);
}

/**
 * An error no rule handled: it fails the enclosing Parallel/Map state when
 * that (or one around it) has rules (IR `stateErrors`), else the run, naming
 * `state` (the Fail or Choice state, by default the node's own).
 */
export async function failRunOrState(x: Exec, error: string, cause: string, state?: string): Promise<void> {
  if (x.rt.ir.stateErrors && x.invocation.frames.length > 0) await failState(x, error, cause);
  else await failRun(x, error, cause, state);
}

/** After commit: a caught error goes to its catch handler, a join's retry decision to the state's fan-out, anything else runs the instructions. */
export async function proceed(x: Exec, ck: Committed): Promise<void> {
  const out: Outgoing = { iteration: x.invocation.iteration, frames: x.invocation.frames };
  if (ck.catchIndex === RETRY_STATE) {
    const retry = x.rt.ir.join?.retry;
    if (!retry) throw runtimeError(`node ${x.rt.ir.node}: checkpoint retries a state, which the IR does not`);
    // The attempt is the next iteration: every invocation inside gets a new name.
    await runInstructions(x, ck, [{ op: 'incrIteration' }, { op: 'invoke', invoke: retry.fanOut }], 'open', out);
    return;
  }
  if (ck.catchIndex === undefined) {
    // A path that invoked nothing and did not end the run still committed.
    if ((await runInstructions(x, ck, x.rt.ir.instructions, 'open', out)) === 'open') await appendCommit(x, ck);
    return;
  }
  const rule = x.rt.ir.catch?.[ck.catchIndex];
  if (!rule) throw runtimeError(`node ${x.rt.ir.node}: checkpoint names catch rule ${ck.catchIndex}, which the IR lacks`);
  await runInvoke(x, ck, { kind: 'scalar', target: rule.next }, 'open', out);
}
