/**
 * Parking for a redrive (docs/architecture.md "Redrive"): an invocation of a
 * FAILED run, the one that failed it or one in flight that finds it FAILED,
 * and one in flight that finds its run ABORTED or TIMED_OUT (or past its
 * deadline), leaves its event and function in the table (`park#...`, named
 * in the run record's parked set), so that a redrive invokes it again.
 */
import { ENVELOPE_VERSION, type Envelope, type NodeSettings, type StartRequest } from '../contract/ir';
import { ttlIn } from './payload';
import { ownFunctionName } from '../contract/naming';
import type { CheckpointStore } from '../ports/store';
import type { Parked, RunEnd, RunRef } from '../contract/table';
import type { Exec } from '../ports/execution';

/** What the redrive window needs of the workflow's settings. */
export type RedriveRetention = Pick<NodeSettings, 'checkpointTtlSeconds' | 'handoffSeconds'>;

/**
 * Until when (epoch s) a redrive may invoke an invocation sent with `lease`
 * again: everything it reads lives until the lease at least, and the resumed
 * execution starts within a handoff and renews the lease within another. A
 * start has no lease: its run record must be younger than the checkpoint
 * retention when it runs again (runtime/records/run-record.ts `startRun`), and it began at
 * most a handoff before it was parked.
 */
export const redriveUntil = (lease: number | undefined, r: RedriveRetention): number => (lease ?? ttlIn(r.checkpointTtlSeconds)) - 2 * r.handoffSeconds;

/** The event this execution received, rebuilt from its invocation (a start as a start request naming its run). */
function eventOf(x: Exec): Envelope | StartRequest {
  const i = x.invocation;
  const redrive = i.redrive === undefined ? {} : { redrive: i.redrive };
  if (i.start) return { workflowId: i.workflowId, input: 'value' in i.input ? i.input.value : null, ...redrive };
  return {
    unum: {
      v: ENVELOPE_VERSION,
      ...x.run,
      deployment: x.rt.ir.deployment,
      node: x.rt.ir.node,
      iteration: i.iteration,
      fanOut: i.frames,
      inputs: [i.input],
      ...(i.parent === undefined ? {} : { parent: i.parent }),
      ...(i.fold === undefined ? {} : { fold: i.fold }),
      ...(i.lease === undefined ? {} : { lease: i.lease }),
      ...redrive,
    },
  };
}

/** This execution as a parked invocation: its function, its event, its redrive window. */
export const parkedOf = (x: Exec): Parked => ({
  functionName: ownFunctionName(x.rt.ir, x.ctx) ?? '',
  event: JSON.stringify(eventOf(x)),
  until: redriveUntil(x.invocation.lease, x.rt.ir.settings),
});

/** What `failParked` did: failed the run (`failed`), or not; `resentBy`: not, the failure being stale. */
export interface ParkedFailure {
  readonly failed: boolean;
  /** The redrive that re-sent the invocation after the failed event was sent: it owns the invocation now. */
  readonly resentBy?: number;
}

/**
 * Ends the run FAILED, parking `invocation` (which failed it) for a redrive.
 * The record's write names it (one conditional update): no redrive can come
 * between the failure and the park. When the run had ended already, the
 * invocation is parked in it if it is FAILED, ABORTED or TIMED_OUT (a
 * redrive runs it again, and it fails the run then); when a redrive made it
 * RUNNING again meanwhile, the failure is written again.
 *
 * With the failed event's redrive `generation` (0: not re-sent; the failure
 * recorder gives it), a failure is stale when a later redrive re-sent the
 * invocation (its park item's `resentBy`, not the item's existence: a park
 * that found the run RUNNING writes the item and no redrive re-sent it):
 * nothing is written. The check is fenced by the redrive count read before
 * it: the write requires the record to have it still, and a redrive marks the
 * items it re-sends before it counts itself, so none can come between.
 */
export async function failParked(store: CheckpointStore, run: RunRef, invocation: string, parked: Parked, end: Extract<RunEnd, { status: 'FAILED' }>, finishedAt: string, ttl: number, generation?: number): Promise<ParkedFailure> {
  for (;;) {
    const fence = generation === undefined ? undefined : await store.getResent(run, invocation);
    if (fence && fence.resentBy > (generation ?? 0)) return { failed: false, resentBy: fence.resentBy };
    await store.putParked(run, invocation, parked, ttl);
    if (await store.finishRun(run, { ...end, redrive: { redo: invocation, ...(fence ? { redrives: fence.redrives } : {}) } }, finishedAt, ttl)) return { failed: true };
    if ((await store.parkInRun(run, invocation)) !== 'running') return { failed: false };
  }
}
