/**
 * Parking for a redrive (docs/architecture.md "Redrive"): an invocation of a
 * FAILED run, the one that failed it or one in flight that finds it FAILED,
 * leaves its event and function in the table (`park#...`, named in the run
 * record's parked set), so that a redrive invokes it again.
 */
import { ENVELOPE_VERSION, type Envelope, type NodeSettings, type StartRequest } from './ir';
import { ttlIn } from './payload';
import type { CheckpointStore } from './store';
import type { Parked, RunEnd, RunRef } from './table';
import type { Exec } from './types';

/** What the redrive window needs of the workflow's settings. */
export type RedriveRetention = Pick<NodeSettings, 'checkpointTtlSeconds' | 'handoffSeconds'>;

/**
 * Until when (epoch s) a redrive may invoke an invocation sent with `lease`
 * again: everything it reads lives until the lease at least, and the resumed
 * execution starts within a handoff and renews the lease within another. A
 * start has no lease: its run record must be younger than the checkpoint
 * retention when it runs again (run-record.ts `startRun`), and it began at
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
  functionName: x.ctx.functionName ?? x.rt.ir.functionNames[x.rt.ir.node] ?? '',
  event: JSON.stringify(eventOf(x)),
  until: redriveUntil(x.invocation.lease, x.rt.ir.settings),
});

/**
 * The event of a parked invocation as redrive `generation` re-sends it: it
 * carries the generation (ir.ts `EnvelopeHeader.redrive`), so that a failure
 * of an older delivery is known to be stale (`resentAfter`).
 */
export function resentEvent(event: string, generation: number): string {
  const e = JSON.parse(event) as Envelope | StartRequest;
  return JSON.stringify('unum' in e ? { unum: { ...e.unum, redrive: generation } } : { ...e, redrive: generation });
}

/**
 * The redrive that re-sent `invocation` after the event of redrive
 * `generation` (0: none) was sent, if one did: a failure of that event is
 * stale, the re-sent event owns the invocation now. The park item says it
 * (`Parked.resentBy`), not its existence: a park that found the run RUNNING
 * again writes the item without a redrive re-sending it.
 */
export async function resentAfter(store: CheckpointStore, run: RunRef, invocation: string, generation: number): Promise<number | undefined> {
  const by = (await store.getParked(run, invocation))?.resentBy ?? 0;
  return by > generation ? by : undefined;
}

/**
 * Ends the run FAILED, parking `invocation` (which failed it) for a redrive.
 * The record's write names it (one conditional update): no redrive can come
 * between the failure and the park. When the run had ended already, the
 * invocation is parked in it if it is FAILED; when a redrive made it RUNNING
 * again meanwhile, the failure is written again. True when this call failed the run.
 */
export async function failParked(store: CheckpointStore, run: RunRef, invocation: string, parked: Parked, end: Extract<RunEnd, { status: 'FAILED' }>, finishedAt: string, ttl: number): Promise<boolean> {
  await store.putParked(run, invocation, parked, ttl);
  for (;;) {
    if (await store.finishRun(run, { ...end, redrive: { redo: invocation } }, finishedAt, ttl)) return true;
    if ((await store.parkInRun(run, invocation)) !== 'running') return false;
  }
}
