/**
 * A failure Lambda gave up on inside a Parallel/Map with rules (the node has
 * `stateErrors`; a crash or a timeout, after Lambda's retries) fails that
 * state, as Step Functions fails a task state the state's Retry/Catch then
 * handles. The failure recorder puts the attempt's failure record, as a
 * failing branch does (the first put wins), and invokes the state's join
 * with `failed`: the crashed branch never arrives, so the fan-in would never
 * invoke it. The join's checkpoint makes the decision once, however often the
 * recorder runs (Lambda's retries of it) and whichever branch failed first.
 * Only for an envelope of the recorder's own deployment: the join it invokes
 * is that deployment's, and a run never leaves its deployment.
 */
import { parseFrame } from './envelope';
import { ENVELOPE_VERSION, type FanOutFrame, type RecorderSpec } from '../contract/ir';
import type { Invoker } from '../ports/invoker';
import { invocationName } from '../contract/naming';
import type { CheckpointStore } from '../ports/store';
import type { RunRef } from '../contract/table';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The failed envelope's invocation: iteration, frames (validated as the
 * handler does), fold index and lease; none for a start, a malformed
 * envelope, or one of another envelope version or deployment than `deployment`.
 */
export function failedInvocation(payload: unknown, deployment: string): { iteration: number; frames: FanOutFrame[]; fold?: number; lease?: number } | undefined {
  const u = isObject(payload) && isObject(payload.unum) ? payload.unum : undefined;
  if (!u || u.v !== ENVELOPE_VERSION || u.deployment !== deployment || !Array.isArray(u.fanOut) || !Number.isSafeInteger(u.iteration)) return undefined;
  try {
    const frames = u.fanOut.map(parseFrame);
    const fold = isObject(u.fold) && Number.isSafeInteger(u.fold.index) ? (u.fold.index as number) : undefined;
    return { iteration: u.iteration as number, frames, ...(fold === undefined ? {} : { fold }), ...(Number.isSafeInteger(u.lease) ? { lease: u.lease as number } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * Fails the state around the failed invocation of `node` when the spec says
 * a failure of that node fails a state; false when it fails the run instead.
 */
export async function failEnclosingState(
  store: CheckpointStore,
  invoker: Invoker,
  spec: RecorderSpec,
  run: RunRef,
  node: string,
  payload: unknown,
  failure: { error: string; cause: string },
  ttl: number,
): Promise<boolean> {
  const joinNode = spec.nodes[node]?.stateJoin;
  const failed = joinNode === undefined ? undefined : failedInvocation(payload, spec.deployment);
  const top = failed?.frames.at(-1);
  const functionName = joinNode === undefined ? undefined : spec.functionNames[joinNode];
  if (!failed || !top || !joinNode || !functionName) return false;
  const outer = failed.frames.slice(0, -1);
  const join = invocationName(run, joinNode, top.iteration, outer);
  const by = invocationName(run, node, failed.iteration, failed.frames, failed.fold);
  await store.failState(join, { ...failure, by }, Math.max(ttl, failed.lease ?? 0));
  await invoker.invoke(functionName, {
    unum: {
      v: ENVELOPE_VERSION,
      ...run,
      deployment: spec.deployment,
      node: joinNode,
      iteration: top.iteration,
      fanOut: outer,
      inputs: [{ failed: { join, size: top.size, origin: top.origin } }],
      ...(failed.lease === undefined ? {} : { lease: failed.lease }),
    },
  });
  return true;
}
