/**
 * The checker's invariant 6: never more than N item processors of one Map
 * with `maxConcurrency` N running. An item runs from the start of its first
 * execution (of any node of its item processor, nested fan-outs included)
 * until its arrival at the Map's join is recorded (the first successful
 * level-0 shard `ADD` of one of its tails): that arrival is what launches the
 * next item (docs/architecture.md "Bounded Maps"). Starts come from the
 * engine's timeline, arrivals from its traffic, both in epoch ms.
 */
import type { Instruction, Invoke, NodeIR } from '../../runtime/contract/ir';
import { ENVELOPE_BOUNDS } from '../../runtime/contract/ir';
import type { FramePosition } from '../../runtime/contract/naming';
import { isShardArrival, keyOf, parseKey, type Item } from '../../runtime/contract/table';
import { isLauncher } from '../local/events';
import type { TimelineEntry } from '../local/timeline';
import type { CallRecord } from '../local/call-records';

/** A Map with `maxConcurrency` > 0, as its nodes' IR describe it. */
export interface BoundedMap {
  /** The Map's join node. */
  readonly join: string;
  readonly maxConcurrency: number;
  /** The nodes inside its item processor, with how many fan-out frames lie inside the Map's (0: the processor's own nodes). */
  readonly members: ReadonlyMap<string, number>;
}

/** Every invoke a list of instructions may run, through its Choices. */
function invokesOf(list: readonly Instruction[]): Invoke[] {
  return list.flatMap((i) => (i.op === 'invoke' ? [i.invoke] : i.op === 'choice' ? [...i.rules.flatMap((r) => invokesOf(r.then)), ...invokesOf(i.otherwise ?? [])] : []));
}

/** The bounded Maps of a workflow, from the IR of all its nodes. */
export function boundedMaps(irs: readonly NodeIR[]): BoundedMap[] {
  /** Each fan-out's join, and the join of the fan-out around its origin. */
  const outerJoin = new Map<string, string | undefined>();
  const bounds = new Map<string, number>();
  for (const ir of irs) {
    for (const inv of invokesOf(ir.instructions)) {
      if (inv.kind === 'parallel' || inv.kind === 'map') outerJoin.set(inv.join, ir.enclosingJoin?.node);
      if (inv.kind === 'map' && inv.maxConcurrency > 0) bounds.set(inv.join, inv.maxConcurrency);
    }
  }
  return [...bounds].map(([join, maxConcurrency]) => {
    const members = new Map<string, number>();
    for (const ir of irs) {
      let around = ir.enclosingJoin?.node;
      for (let depth = 0; around !== undefined && depth < ENVELOPE_BOUNDS.depth; depth++, around = outerJoin.get(around)) {
        if (around !== join) continue;
        members.set(ir.node, depth);
        break;
      }
    }
    return { join, maxConcurrency, members };
  });
}

/** Which run of the Map (`instance`: its outer frames and iteration) and which item an execution of `node` with these frames belongs to. */
export function itemOf(map: BoundedMap, node: string | undefined, frames: readonly FramePosition[]): { instance: string; index: number } | undefined {
  const depth = node === undefined ? undefined : map.members.get(node);
  const at = depth === undefined ? -1 : frames.length - 1 - depth;
  if (at < 0) return undefined;
  return { instance: JSON.stringify([map.join, frames.slice(0, at).map((f) => [f.iteration, f.index]), frames[at].iteration]), index: frames[at].index };
}

/**
 * The most items running at once: item i runs from `start` until `end`
 * (absent: it never arrived). An item that starts when another ends is
 * counted after it: a launch follows the arrival that triggers it.
 */
export function peakRunning(items: Iterable<{ readonly start: number; readonly end?: number }>): number {
  const events: [number, number][] = [];
  for (const { start, end } of items) {
    events.push([start, 1]);
    if (end !== undefined) events.push([end, -1]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let running = 0;
  let peak = 0;
  for (const [, change] of events) peak = Math.max(peak, (running += change));
  return peak;
}

/** The frames of an execution from its engine identity (`<function>@<iteration>[<iteration>.<index>,...]`). */
function framesOf(identity: string): FramePosition[] {
  const list = /@\d+\[([^\]]*)\]/.exec(identity)?.[1];
  if (!list) return [];
  return list.split(',').map((f) => {
    const [iteration, index] = f.split('.').map(Number);
    return { iteration, index };
  });
}

function updateOf(request: string): { key?: string; expression?: unknown } {
  try {
    const body = JSON.parse(request) as { Key?: Item; UpdateExpression?: unknown };
    return { key: keyOf(body.Key), expression: body.UpdateExpression };
  } catch {
    return {};
  }
}

/** When an item arrived: a tail (a node of the processor itself) recorded it in a level-0 shard. */
function arrivals(map: BoundedMap, calls: readonly CallRecord[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of calls) {
    if (c.status !== 200 || c.call.operation !== 'UpdateItem' || map.members.get(c.exec.node ?? '') !== 0) continue;
    const { key, expression } = updateOf(c.request);
    const shard = key === undefined ? undefined : parseKey(key);
    if (!isShardArrival(expression) || shard?.kind !== 'shard' || shard.level !== 0) continue;
    const item = itemOf(map, c.exec.node, framesOf(c.exec.identity));
    const id = item && JSON.stringify([item.instance, item.index]);
    if (id !== undefined && !(c.at >= (out.get(id) ?? Infinity))) out.set(id, c.at);
  }
  return out;
}

/** Invariant 6 over one run's timeline and traffic. */
export function mapConcurrencyViolations(maps: readonly BoundedMap[], timeline: readonly TimelineEntry[], calls: readonly CallRecord[]): string[] {
  const out: string[] = [];
  for (const map of maps) {
    const arrived = arrivals(map, calls);
    const instances = new Map<string, Map<number, { start: number; end?: number }>>();
    for (const e of timeline) {
      if (isLauncher(e.identity)) continue;
      const item = itemOf(map, e.node, framesOf(e.identity));
      if (!item) continue;
      const items = instances.get(item.instance) ?? new Map<number, { start: number; end?: number }>();
      instances.set(item.instance, items);
      const start = Math.min(e.start, items.get(item.index)?.start ?? Infinity);
      const end = arrived.get(JSON.stringify([item.instance, item.index]));
      items.set(item.index, end === undefined ? { start } : { start, end });
    }
    for (const [instance, items] of instances) {
      const peak = peakRunning(items.values());
      if (peak > map.maxConcurrency) out.push(`invariant 6: ${peak} items of the Map joined at ${map.join} ran at once (maxConcurrency ${map.maxConcurrency}) in ${instance}`);
    }
  }
  return out;
}
