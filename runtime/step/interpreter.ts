/**
 * Runs a node's instructions on its committed value: choice, loop iteration,
 * invocations (scalar, parallel, map, fan-in) and the run's end (succeed, fail).
 * Instructions act on an outgoing context (iteration, frames) that starts as
 * this invocation's own.
 */
import { branchInput } from '../records/branch-input';
import { decideChoice } from '../language/condition';
import { contextObject, foldedStateContext, stateOf } from '../language/context';
import { runtimeError, StatesError } from '../contract/errors';
import { failure } from '../states/fail';
import { arrivalCode, joinKeys, readJoinState, recordArrival } from '../records/fan-in-shards';
import { appendCommit } from '../records/history';
import { checkpointKey, REDRIVE_STATE, RETRY_STATE, TASK_FAILED, TASK_RETRY, type Transition } from '../contract/table';
import { ENVELOPE_BOUNDS, type FanOutFrame, type InputRef, type Instruction, type Invoke, type ItemLaunch, type Json, type WaitSpec } from '../contract/ir';
import { passStateOutput } from '../language/state-io';
import { mapInput, mapItem, mapItemList } from '../records/map-items';
import { launchEach, launchesDirectly, launchRange, type LaunchSpec } from './launch-tree';
import { invocationName } from '../contract/naming';
import { replacing } from './redrive-reuse';
import { itemTtl } from '../records/retention';
import { derivedValue, passValue } from '../records/payload';
import { failRun, runOver, succeedRun } from '../records/run-record';
import { send } from './send';
import type { Committed, Exec, Redo } from '../ports/execution';

interface Outgoing {
  iteration: number;
  frames: readonly FanOutFrame[];
  /** A redrive's next attempt of the state: the failed attempt's iteration, written into the fan-out's frames. */
  replaces?: number;
}

/**
 * Where a path through the instructions is: `open` before its transition,
 * `logged` once its history entry is appended (a path has one transition, so
 * a later invoke or end on it appends no other), `ended` when nothing after
 * this may run (the run ended).
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
export async function leadingPasses(x: Exec, value: Json): Promise<Json> {
  const context = contextObject(x);
  for (const ins of x.rt.ir.instructions) {
    if (ins.op !== 'pass') break;
    value = await passStateOutput(ins.io, ins.result, value, context);
  }
  return value;
}

/**
 * Whether to invoke the successors whose checkpoint keys are `keys`: only a
 * duplicate execution (it found its own checkpoint, or lost the conditional
 * put) can find one committed, since nobody else invokes them before this
 * invocation committed. It reads them (one consistent round trip) and
 * invokes nothing when one of them committed: that successor's own
 * executions owe the rest, so a late duplicate does not cascade.
 */
export async function unlessCommitted(x: Exec, keys: readonly string[]): Promise<boolean> {
  if (!x.metrics.duplicates) return true;
  // A terminal successor commits into the run record, not a checkpoint: an ended run owes nothing.
  const read = await x.rt.store.read(keys, [], { consistent: true, run: x.run });
  return !(await runOver(x, read)) && read.checkpoints.size === 0;
}

/** One fan-out: its frames' kind, join, size and origin node, and what each launched branch receives. */
interface FanOutSpec {
  readonly kind: FanOutFrame['kind'];
  readonly join: string;
  readonly size: number;
  readonly next: readonly string[];
  readonly branch: LaunchSpec['branch'];
  /** Branches launched now (a bounded Map's first ones; its tails launch the rest). @default size */
  readonly launched?: number;
  /** A bounded Map's origin node, written into its frames. */
  readonly originNode?: string;
  /** A Map's: the launcher of a launch tree (runtime/step/launch-tree.ts). */
  readonly launcher?: LaunchSpec['launcher'];
}

/**
 * Pushes a fan-out: invokes each branch with its frame (through launchers
 * above the launch width: runtime/step/launch-tree.ts). Nothing is created up front: a
 * branch's arrival creates its fan-in shard. A duplicate of the
 * origin reads the join's checkpoint and the branches' start checkpoints
 * (one consistent round trip, in chunks of 100) and invokes only the
 * branches that have not started, none once the join committed.
 */
async function fanOut(x: Exec, ck: Committed, state: PathState, out: Outgoing, spec: FanOutSpec): Promise<PathState> {
  const { kind, size, originNode } = spec;
  const joinName = invocationName(x.run, spec.join, out.iteration, out.frames);
  await appendOnce(x, ck, state, { next: spec.next, join: joinName, size });
  const frame = (index: number): FanOutFrame => ({ index, size, kind, iteration: out.iteration, origin: ck.key, ...(originNode ? { originNode } : {}), ...replacing(out) });
  const launch: LaunchSpec = { outer: out.frames, frame, branch: spec.branch, ...(spec.launcher ? { launcher: spec.launcher } : {}) };
  const count = spec.launched ?? size;
  if (x.metrics.duplicates) {
    // Launched directly, each branch's start is read with the join's checkpoints; through launchers only the
    // join's: a launcher absorbs what its items' checkpoints already hold.
    const direct = launchesDirectly(x, launch, count);
    const start = (i: number): string => checkpointKey(invocationName(x.run, spec.branch(i).target, 0, [...out.frames, frame(i)]));
    const indexes = direct ? Array.from({ length: count }, (_, i) => i) : [];
    const { joined, checkpoints: committed } = await readJoinState(x, spec.join, out.iteration, out.frames, indexes.map(start));
    if (joined) return 'logged';
    if (direct) {
      await launchEach(x, launch, indexes.filter((i) => !committed.has(start(i))));
      return 'logged';
    }
  }
  await launchRange(x, launch, 0, count);
  return 'logged';
}

/**
 * The item a bounded Map's tail launches once item `top.index` arrived: item
 * index + N, in the same frame. Items i, i + N, i + 2N, ... run one after
 * another, so at most N run at once. Undefined past the last item.
 */
function nextItem(x: Exec, launch: ItemLaunch, top: FanOutFrame, outer: readonly FanOutFrame[]): FanOutFrame[] | undefined {
  const index = top.index + launch.maxConcurrency;
  if (index >= top.size) return undefined;
  if (top.kind !== 'map' || !top.originNode) throw runtimeError(`node ${x.rt.ir.node}: the frame of a bounded Map names no origin node`);
  return [...outer, { index, size: top.size, kind: 'map', iteration: top.iteration, origin: top.origin, originNode: top.originNode, ...replacing(top) }];
}

/**
 * Invokes one successor (`parent`: set for an empty Map's join, which reads
 * the state input from it; `wait`: the successor is a Wait's node, sent when
 * the wait ends).
 */
async function invokeChild(x: Exec, ck: Committed, state: PathState, out: Outgoing, target: string, input: InputRef, t: Transition, keys: readonly string[], parent?: string, wait?: WaitSpec): Promise<PathState> {
  state = await appendOnce(x, ck, state, t);
  if (await unlessCommitted(x, keys)) await send(x, target, { iteration: out.iteration, fanOut: out.frames, inputs: [input], ...(parent ? { parent } : {}) }, wait && { spec: wait, ck });
  return state;
}

/** The checkpoint key of a scalar successor invoked in the outgoing context. */
const successorKey = (x: Exec, target: string, out: Outgoing): string => checkpointKey(invocationName(x.run, target, out.iteration, out.frames));

async function runInvoke(x: Exec, ck: Committed, invoke: Invoke, state: PathState, out: Outgoing): Promise<PathState> {
  switch (invoke.kind) {
    case 'scalar':
      return invokeChild(x, ck, state, out, invoke.target, passValue(x, ck), { next: [invoke.target] }, [successorKey(x, invoke.target, out)], undefined, invoke.wait);
    case 'parallel': {
      // A large branch input goes as a ref to the origin: the branch start rebuilds it (its IR `branchInput`).
      const input = invoke.input ? derivedValue(x, await branchInput(x, invoke.input, ck.value), { ref: ck.key }) : passValue(x, ck);
      return fanOut(x, ck, state, out, {
        kind: 'parallel',
        join: invoke.join,
        size: invoke.targets.length,
        next: invoke.targets,
        branch: (i) => ({ target: invoke.targets[i], input: () => input }),
      });
    }
    case 'map': {
      const mapped = mapInput(invoke, ck.value);
      const list = await mapItemList(x, invoke, mapped);
      if (list.length === 0) {
        // No branch will ever arrive: the origin is the join's only predecessor.
        const join = invocationName(x.run, invoke.join, out.iteration, out.frames);
        return invokeChild(x, ck, state, out, invoke.join, { value: [] }, { next: [invoke.join], join, size: 0 }, joinKeys(x, invoke.join, out.iteration, out.frames), ck.key);
      }
      const origin = x.rt.ir.node;
      const mapState = invoke.state ?? stateOf(x);
      // A large item goes by reference (the item processor rebuilds it): the lease keeps the origin's checkpoint as long as the fan-in.
      const input = async (index: number): Promise<InputRef> => derivedValue(x, await mapItem(x, invoke, mapped, list, index, mapState), { mapItem: { origin: ck.key, index, state: origin } });
      const bounded = invoke.maxConcurrency > 0 && invoke.maxConcurrency < list.length;
      return fanOut(x, ck, state, out, {
        kind: 'map',
        join: invoke.join,
        size: list.length,
        next: [invoke.target],
        branch: (i) => ({ target: invoke.target, input: () => input(i) }),
        launcher: { target: invoke.target, state: origin },
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
      const next = invoke.launch && nextItem(x, invoke.launch, top, popped);
      const nextStart = next && checkpointKey(invocationName(x.run, invoke.launch!.target, 0, next));
      // Before the arrival: once it is recorded the join may run and log first.
      state = await appendOnce(x, ck, state, { next: [invoke.target] });
      out.frames = popped;
      out.iteration = top.iteration;
      let launched = false;
      if (x.metrics.duplicates) {
        // One read of the join's checkpoints and the launched item's start: a committed join means every item
        // arrived (i + N included), and a started item is owed by its own event. Else the arrival may be ours to make.
        const { joined, checkpoints: committed } = await readJoinState(x, invoke.target, top.iteration, popped, nextStart ? [nextStart] : []);
        if (joined) return state;
        launched = nextStart !== undefined && committed.has(nextStart);
      }
      const arrival = await recordArrival(x.rt.store, join, size, top.index, code, itemTtl(x));
      // A renewal of the fan-in that read this shard before the arrival missed our checkpoint: keep it as long as the shard.
      if (arrival.ttl !== undefined && arrival.ttl > (ck.ttl ?? 0)) await x.rt.store.extendTtl(ck.key, arrival.ttl);
      // Pending: the item that this one's completion launches has not arrived (complete: every item has).
      if (arrival.outcome === 'pending' && next && !launched) {
        await send(x, invoke.launch!.target, { iteration: 0, fanOut: next, inputs: [{ mapItem: { origin: top.origin, index: next[next.length - 1].index, state: top.originNode! } }] });
      }
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
        const decided = await decideChoice(ins, ck.value, foldedStateContext(x, ins.state));
        if ('failed' in decided) {
          const { name, message } = decided.failed;
          // The committed value would lead here again: no retry applies. A missing path (States.Runtime) ends the run;
          // a JSONata condition's States.QueryEvaluationError is the Choice's error, which a Parallel or Map around it may catch.
          if (name === 'States.Runtime') await failRun(x, name, message, ins.state, `Choice state ${ins.state} (a rule's path is missing)`);
          else await failRunOrState(x, name, message, ins.state, `Choice state ${ins.state} (a condition failed)`);
          return 'ended';
        }
        const next = decided.next;
        if (!next) {
          await failRunOrState(x, 'States.NoChoiceMatched', `Choice ${ins.state}: no choice rule matched and there is no default`, ins.state, `Choice state ${ins.state} matched no rule`);
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
        const { error, cause } = await failure(x, ins, ck.value).catch((e: unknown) => {
          // A JSONata Error or Cause that fails is the Fail state's own error (a Parallel or Map around it may catch it);
          // a path's States.Runtime ends the run where it escapes.
          if (!(e instanceof StatesError) || e.name === 'States.Runtime') throw e;
          return { error: e.name, cause: e.message };
        });
        await failRunOrState(x, error, cause, ins.state, `Fail state ${ins.state}`);
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
 * execution, which finds the failure its own at its first read (runtime/step/state-stop.ts).
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
export async function failRunOrState(x: Exec, error: string, cause: string, state?: string, never?: string | Redo): Promise<void> {
  if (x.rt.ir.stateErrors && x.invocation.frames.length > 0) await failState(x, error, cause);
  else await failRun(x, error, cause, state, never);
}

/** After commit: a caught error goes to its catch handler, a join's retry decision to the state's fan-out, a callback Task's retry to its next attempt and its uncaught failure fails the run or state, anything else runs the instructions. */
export async function proceed(x: Exec, ck: Committed): Promise<void> {
  const out: Outgoing = { iteration: x.invocation.iteration, frames: x.invocation.frames };
  if (ck.catchIndex === RETRY_STATE || ck.catchIndex === REDRIVE_STATE) {
    const retry = x.rt.ir.join?.retry;
    if (!retry) throw runtimeError(`node ${x.rt.ir.node}: checkpoint retries a state, which the IR does not`);
    // The attempt is the next iteration: every invocation inside gets a new name.
    if (ck.catchIndex === REDRIVE_STATE) out.replaces = x.invocation.iteration;
    await runInstructions(x, ck, [{ op: 'incrIteration' }, { op: 'invoke', invoke: retry.fanOut }], 'open', out);
    return;
  }
  if (ck.catchIndex === TASK_RETRY && x.rt.tasks) {
    await x.rt.tasks.nextAttempt(x, ck);
    return;
  }
  if (ck.catchIndex === TASK_FAILED) {
    const { Error: error, Cause: cause } = ck.value as { Error: string; Cause: string };
    // Redriven, the Task runs again: its next attempt, with a new token.
    await failRunOrState(x, error, cause, undefined, x.rt.tasks?.redo(x, ck.catchIndex) ?? `callback Task ${x.rt.ir.state ?? x.rt.ir.node} failed`);
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
