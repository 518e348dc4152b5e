/**
 * Runs a node's instructions on its committed value: choice, loop iteration,
 * invocations (scalar, parallel, map, fan-in) and the run's end (succeed, fail).
 * Instructions act on an outgoing context (iteration, frames) that starts as
 * this invocation's own.
 */
import { evaluate } from './condition';
import { runtimeError } from './errors';
import { arrivalCode, createFanIn, recordArrival, shardKeys } from './fan-in';
import { logCommit } from './history';
import { ENVELOPE_VERSION, type EnvelopeHeader, type FanOutFrame, type InputRef, type Instruction, type Invoke, type Json, type MapItems } from './ir';
import { passOutput } from './io';
import { invocationName } from './naming';
import { byteLength, passValue, ttlIn } from './payload';
import { evalPath } from './paths';
import { forEachLimit } from './pool';
import { failRun, succeedRun } from './run-record';
import { applyTemplate } from './template';
import type { Committed, Exec } from './types';

interface Outgoing {
  iteration: number;
  frames: readonly FanOutFrame[];
}

/** The context object (`$$`) templates see. */
export function contextObject(x: Exec, extra?: { [k: string]: Json }): Json {
  return { Execution: { Id: x.inv.workflowId }, State: { Name: x.rt.ir.node }, ...extra };
}

/** The array a Map fans out over, from the origin's value. */
export function mapItemList(x: Exec, spec: MapItems, value: Json): Json[] {
  const items = evalPath(value, spec.itemsPath ?? '$', 'reference');
  if (!items.found || !Array.isArray(items.value)) throw runtimeError(`node ${x.rt.ir.node}: ItemsPath ${spec.itemsPath} is not an array`);
  return items.value;
}

/** Map item `index` as the item processor receives it; `state` is the origin node (`$$.State.Name`). */
export function mapItem(x: Exec, spec: MapItems, value: Json, list: readonly Json[], index: number, state: string): Json {
  if (spec.itemSelector === undefined) return list[index];
  return applyTemplate(spec.itemSelector, value, contextObject(x, { State: { Name: state }, Map: { Item: { Value: list[index], Index: index } } }));
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

/** Sends one envelope to `node` (async Invoke). */
export async function send(x: Exec, node: string, header: Omit<EnvelopeHeader, 'v' | 'workflowId' | 'node'>): Promise<void> {
  const functionName = x.rt.ir.functionNames[node];
  if (!functionName) throw runtimeError(`node ${x.rt.ir.node}: no function name for successor ${node}`);
  await x.rt.invoker.invoke(functionName, { unum: { v: ENVELOPE_VERSION, workflowId: x.inv.workflowId, node, ...header } });
}

const concurrency = (x: Exec, bound?: number): number => (bound && bound > 0 ? bound : x.rt.ir.settings.invokeConcurrency);

/**
 * Pushes a fan-out: create the join's shards first, then invoke each branch
 * with its frame. Returns false (stop) when this is a stale duplicate of an
 * origin whose join already finished: the join tombstones the origin before it
 * deletes the shards, so re-reading our checkpoint after creating them tells
 * us whether we just recreated shards the join had already removed.
 */
async function fanOut(
  x: Exec,
  ck: Committed,
  out: Outgoing,
  kind: FanOutFrame['kind'],
  join: string,
  size: number,
  next: readonly string[],
  branch: (index: number) => { target: string; input: InputRef },
  bound?: number,
): Promise<boolean> {
  const joinName = invocationName(x.inv.workflowId, join, out.iteration, out.frames);
  await logCommit(x, ck, { next, join: joinName, size });
  await createFanIn(x.rt.store, joinName, size, ttlIn(x.rt.ir.settings.checkpointTtlSeconds), concurrency(x));
  if ((await x.rt.store.getCheckpoint(ck.key))?.tombstone) {
    await x.rt.store.deleteItems(shardKeys(joinName, size));
    return false;
  }
  const indexes = Array.from({ length: size }, (_, i) => i);
  await forEachLimit(indexes, concurrency(x, bound), (index) => {
    const b = branch(index);
    return send(x, b.target, {
      iteration: 0,
      fanOut: [...out.frames, { index, size, kind, iteration: out.iteration, origin: ck.key }],
      inputs: [b.input],
    });
  });
  return true;
}

/** Returns false when nothing after this may run (a stale fan-out origin). */
async function invoke(x: Exec, ck: Committed, inv: Invoke, out: Outgoing): Promise<boolean> {
  switch (inv.kind) {
    case 'scalar':
      await logCommit(x, ck, { next: [inv.target] });
      await send(x, inv.target, { iteration: out.iteration, fanOut: out.frames, inputs: [passValue(x, ck)], parent: ck.key });
      return true;
    case 'parallel':
      return fanOut(x, ck, out, 'parallel', inv.join, inv.targets.length, inv.targets, (i) => ({ target: inv.targets[i], input: passValue(x, ck) }));
    case 'map': {
      const list = mapItemList(x, inv, ck.value);
      if (list.length === 0) {
        // No branch will ever arrive: the origin is the join's only predecessor.
        await logCommit(x, ck, { next: [inv.join], join: invocationName(x.inv.workflowId, inv.join, out.iteration, out.frames), size: 0 });
        await send(x, inv.join, { iteration: out.iteration, fanOut: out.frames, inputs: [{ value: [] }], parent: ck.key });
        return true;
      }
      const state = x.rt.ir.node;
      const input = (index: number): InputRef => {
        const value = mapItem(x, inv, ck.value, list, index, state);
        // A large item goes by reference: the join keeps the origin's checkpoint until every branch committed.
        return byteLength(JSON.stringify(value)) <= x.rt.ir.settings.inlineLimitBytes ? { value } : { mapItem: { origin: ck.key, index, state } };
      };
      return fanOut(x, ck, out, 'map', inv.join, list.length, [inv.target], (i) => ({ target: inv.target, input: input(i) }), inv.maxConcurrency);
    }
    case 'fanIn': {
      const top = out.frames[out.frames.length - 1];
      if (!top) throw runtimeError(`node ${x.rt.ir.node}: fanIn without a fan-out frame`);
      const size = inv.size === 'frame' ? top.size : inv.size;
      const popped = out.frames.slice(0, -1);
      const join = invocationName(x.inv.workflowId, inv.target, top.iteration, popped);
      // The code names this invocation's checkpoint: its own iteration, not the outgoing one.
      const code = arrivalCode(top.index, inv.tail, x.inv.iteration, size);
      // Before the arrival: once it is recorded the join may run and log first.
      await logCommit(x, ck, { next: [inv.target] });
      const state = await recordArrival(x.rt.store, join, size, top.index, code);
      out.frames = popped;
      out.iteration = top.iteration;
      if (state === 'complete') {
        x.metrics.fanInCompletions = 1;
        await send(x, inv.target, { iteration: top.iteration, fanOut: popped, inputs: [{ fanIn: { join, size, origin: top.origin } }] });
      }
      return true;
    }
  }
}

/** Returns false when the run ended here (fail, unmatched choice): nothing after it runs. */
async function runInstructions(x: Exec, ck: Committed, list: readonly Instruction[], out: Outgoing): Promise<boolean> {
  for (const ins of list) {
    switch (ins.op) {
      case 'incrIteration':
        out.iteration++;
        break;
      // 'pass': applied before the commit (leadingPasses).
      case 'invoke':
        if (!(await invoke(x, ck, ins.invoke, out))) return false;
        break;
      case 'choice': {
        const next = ins.rules.find((r) => evaluate(r.when, ck.value))?.then ?? ins.otherwise;
        if (!next) {
          await failRun(x, 'States.NoChoiceMatched', `node ${x.rt.ir.node}: no choice rule matched and there is no default`);
          return false;
        }
        if (!(await runInstructions(x, ck, next, out))) return false;
        break;
      }
      case 'succeed':
        await logCommit(x, ck);
        await succeedRun(x, ck);
        break;
      case 'fail':
        await failRun(x, ins.error, ins.cause ?? '');
        return false;
    }
  }
  return true;
}

/** After commit: a caught error goes to its catch handler, anything else runs the instructions. */
export async function proceed(x: Exec, ck: Committed): Promise<void> {
  const out: Outgoing = { iteration: x.inv.iteration, frames: x.inv.frames };
  if (ck.catchIndex === undefined) {
    await runInstructions(x, ck, x.rt.ir.instructions, out);
    // A path that invoked nothing and did not end the run still committed.
    if (!x.logged) await logCommit(x, ck);
    return;
  }
  const rule = x.rt.ir.catch?.[ck.catchIndex];
  if (!rule) throw runtimeError(`node ${x.rt.ir.node}: checkpoint names catch rule ${ck.catchIndex}, which the IR lacks`);
  await invoke(x, ck, { kind: 'scalar', target: rule.next }, out);
}
