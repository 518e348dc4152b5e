/**
 * The launch tree of a large Map (docs/architecture.md "Launch tree"): no
 * execution sends more than the launch width W of invokes. A range of more
 * than W items goes to launchers, invocations of the item processor's start
 * with a `launch` input, each of which launches a part of the range (its
 * items, or launchers of smaller parts), rebuilding the items from the
 * origin's checkpoint as a large item's start does. A launcher commits
 * nothing: every execution of it sends the same envelopes, and each item's
 * start has the same invocation name whoever launches it, so a duplicate or
 * retried launcher is absorbed by the items' checkpoints.
 */
import { runtimeError } from '../contract/errors';
import { readJoinState } from '../records/fan-in-shards';
import { DEFAULT_LAUNCH_WIDTH, type FanOutFrame, type InputRef, type Json, type LaunchRange } from '../contract/ir';
import { expired } from '../records/retention';
import { mapInput, mapItem, mapItemList } from '../records/map-items';
import { invocationName } from '../contract/naming';
import { derivedValue } from '../records/payload';
import { forEachLimit } from '../ports/pool';
import { replacing } from './redrive-reuse';
import { send } from './send';
import type { Exec, Invocation } from '../ports/execution';

/**
 * Launchers a launcher sends at most (W when smaller): a level of the tree
 * adds about 1/B of the launchers below it, and one execution sends at most B
 * of them before the items start, so the longest chain of sends stays short.
 */
const LAUNCHER_FAN_OUT = 16;

/** How one fan-out launches a range of its branches. */
export interface LaunchSpec {
  /** The frames above the fan-out's. */
  readonly outer: readonly FanOutFrame[];
  /** Branch `index`'s frame. */
  readonly frame: (index: number) => FanOutFrame;
  /** Branch `index`'s start, and its input, built when it is sent (only the branches an execution sends are built). */
  readonly branch: (index: number) => { target: string; input: () => InputRef | Promise<InputRef> };
  /** A Map's launcher (the item processor's start) and origin node; absent = every branch is launched directly. */
  readonly launcher?: { readonly target: string; readonly state: string };
}

/**
 * The parts of `[from, to)` the launchers of a range of more than `width`
 * items take: consecutive parts of `width * B^k` items, for the least k that
 * makes at most B of them.
 */
export function launcherRanges(from: number, to: number, width: number): [number, number][] {
  const fanOut = Math.min(LAUNCHER_FAN_OUT, width);
  let span = width;
  while (Math.ceil((to - from) / span) > fanOut) span *= fanOut;
  const out: [number, number][] = [];
  for (let start = from; start < to; start += span) out.push([start, Math.min(to, start + span)]);
  return out;
}

const launchWidth = (x: Exec): number => x.rt.ir.settings.launchWidth ?? DEFAULT_LAUNCH_WIDTH;

/** Whether `count` branches are launched by this execution itself (no launcher, or at most the launch width). */
export const launchesDirectly = (x: Exec, spec: LaunchSpec, count: number): boolean => !spec.launcher || count <= launchWidth(x);

/** Launches the branches `indexes` directly. */
export async function launchEach(x: Exec, spec: LaunchSpec, indexes: readonly number[]): Promise<void> {
  await forEachLimit(indexes, x.rt.ir.settings.invokeConcurrency, async (index) => {
    const b = spec.branch(index);
    return send(x, b.target, { iteration: 0, fanOut: [...spec.outer, spec.frame(index)], inputs: [await b.input()] });
  });
}

/** Launches branches `from` .. `to - 1`: directly while they are at most the launch width, else through launchers. */
export async function launchRange(x: Exec, spec: LaunchSpec, from: number, to: number): Promise<void> {
  const { launcher, outer, frame } = spec;
  if (!launcher || launchesDirectly(x, spec, to - from)) {
    await launchEach(x, spec, Array.from({ length: to - from }, (_, i) => from + i));
    return;
  }
  await forEachLimit(launcherRanges(from, to, launchWidth(x)), x.rt.ir.settings.invokeConcurrency, ([start, end]) => {
    const top = frame(start);
    const range: LaunchRange = { origin: top.origin, from: start, to: end, state: launcher.state };
    return send(x, launcher.target, { iteration: 0, fanOut: [...outer, top], inputs: [{ launch: range }] });
  });
}

/**
 * A launcher's invocation name: its first item's, with a node name no node
 * has (`#` is not in the charset) and its range's end, so it names no
 * checkpoint of an item and two launchers of one level differ.
 */
export function launcherName(x: Pick<Exec, 'run'>, node: string, invocation: Invocation, range: LaunchRange): string {
  return invocationName(x.run, `${node}#launch:${range.to}`, invocation.iteration, invocation.frames);
}

/**
 * One execution of a launcher: rebuilds its items from the origin's
 * checkpoint and launches its range. A committed join means every item
 * arrived, so every launch was made ('stale': a late duplicate sends
 * nothing); an origin gone before the join committed expired, and the run fails.
 */
export async function runLauncher(x: Exec, range: LaunchRange): Promise<'launched' | 'stale'> {
  const { ir } = x.rt;
  const spec = ir.mapItems;
  const frames = x.invocation.frames;
  const top = frames[frames.length - 1];
  if (!spec || !top?.join) throw runtimeError(`node ${ir.node}: a launch outside a Map`);
  const outer = frames.slice(0, -1);
  // With the join's checkpoint and the run record (a terminal join commits there), in one round trip:
  // once the Map is joined, every item was launched.
  const { joined, checkpoints } = await readJoinState(x, top.join.node, top.iteration, outer, [range.origin]);
  const origin = checkpoints.get(range.origin);
  if (joined) return 'stale';
  if (!origin) throw expired(x, `the origin of the Map launched by ${range.state}`);
  const input = mapInput(spec, JSON.parse(origin.json) as Json);
  const list = await mapItemList(x, spec, input);
  const state = spec.state ?? range.state;
  const { size, kind, iteration, originNode } = top;
  await launchRange(x, {
    outer,
    frame: (index) => ({ index, size, kind, iteration, origin: range.origin, ...(originNode ? { originNode } : {}), ...replacing(top) }),
    branch: (index) => ({
      target: ir.node,
      input: async () => derivedValue(x, await mapItem(x, spec, input, list, index, state), { mapItem: { origin: range.origin, index, state: range.state } }),
    }),
    launcher: { target: ir.node, state: range.state },
  }, range.from, range.to);
  return 'launched';
}
