/**
 * The run record `run#<workflow>#<workflowId>`: written once RUNNING by the
 * entry (with its deadline, runtime/records/run-timeout.ts), and given exactly one final
 * status: by the terminal transition's commit itself when its result is small
 * (`commitRunResult`), a failure, a stop request or the deadline.
 */
import { stateOf } from '../language/context';
import { appendTransition } from './history';
import { failParked, parkedOf } from './redrive-park';
import { ttlIn } from './payload';
import { endedByDeadline, runDeadline, scheduleRunTimeout } from './run-timeout';
import type { ReadSet } from '../ports/store';
import { byteLength, type RunEnd } from '../contract/table';
import type { Committed, Exec, Redo } from '../ports/execution';

const now = (): string => new Date().toISOString();
/** While the run lasts, its record (and a parked invocation) lives for the run retention, and no less than the run's lease. */
const runTtl = (x: Exec): number => Math.max(ttlIn(x.rt.ir.settings.runRetentionSeconds), x.lease);
/**
 * How long a finished run's record (and a result it references) lives after
 * its end: the run retention, as promised (docs/architecture.md "The
 * table"), but never less than the lease's margin, two handoffs, within
 * which a late duplicate of the run's last events may still read or write
 * it (the margin counts only when `runRetention` is below it). Not the
 * lease: the run is over, and the items it kept expire on their own.
 */
export const finishedRunTtl = (s: { readonly runRetentionSeconds: number; readonly handoffSeconds: number }): number =>
  ttlIn(Math.max(s.runRetentionSeconds, 2 * s.handoffSeconds));

/** Once it ended, the run retention from the end. */
const endTtl = (x: Exec): number => finishedRunTtl(x.rt.ir.settings);
/**
 * A FAILED run a redrive may resume: also no less than the lease, which a
 * resumed run keeps its record by until its next renewal (a redrive comes
 * before the lease ends less two handoffs, `redriveUntil`).
 */
const redrivableTtl = (x: Exec): number => Math.max(endTtl(x), x.lease);
const finish = (x: Exec, end: RunEnd, ttl: number): Promise<boolean> => x.rt.store.finishRun(x.run, end, now(), ttl);

/**
 * Writes the RUNNING record. False when the run exists and began over a
 * checkpoint retention ago: Lambda redelivers or retries the run's own start
 * within a handoff, so this is another start of a run whose entry checkpoint
 * may have expired, and it must not run the workflow again.
 */
export async function startRun(x: Exec): Promise<boolean> {
  const startedAt = now();
  const r = await x.rt.store.startRun(x.run, startedAt, runTtl(x), runDeadline(x, startedAt), x.rt.ir.deployment);
  x.startedRun = r.created;
  const recent = r.created || Date.parse(r.startedAt ?? '') >= Date.now() - x.rt.ir.settings.checkpointTtlSeconds * 1000;
  // Again on a retried start: the entry may have crashed between the record and the schedule.
  const deadline = recent ? runDeadline(x, r.created ? startedAt : (r.startedAt as string)) : undefined;
  if (deadline !== undefined) await scheduleRunTimeout(x, deadline);
  return recent;
}

/** A result this small is held in the run record itself (cheap status polls). */
export const resultFitsInline = (x: Exec, json: string): boolean => byteLength(json) <= x.rt.ir.settings.inlineLimitBytes;

/** The run's result: inline while small, else a reference kept alive as long as the record. */
export async function succeedRun(x: Exec, ck: Committed): Promise<void> {
  const ttl = endTtl(x);
  const inline = resultFitsInline(x, ck.json);
  if (!inline) await x.rt.store.extendTtl(ck.key, ttl);
  await finish(x, inline ? { status: 'SUCCEEDED', result: ck.json } : { status: 'SUCCEEDED', resultRef: ck.key }, ttl);
}

/**
 * The terminal transition's commit, which is the run's final write: the
 * result goes into the record, conditional on the run still running, and no
 * checkpoint is written (for a result that `resultFitsInline`; a larger one
 * is committed as a checkpoint and referenced). False when the run had
 * ended: another execution of ours (or a failure) wrote the final status.
 */
export async function commitRunResult(x: Exec, json: string): Promise<boolean> {
  // Lost to a failure, a stop or the deadline: parked, the redrive runs this terminal again; redriven meanwhile, it commits now.
  for (;;) {
    if (await finish(x, { status: 'SUCCEEDED', result: json }, endTtl(x))) {
      x.metrics.transitions = 1;
      return true;
    }
    if ((await parkInEndedRun(x)) !== 'running') break;
  }
  x.metrics.duplicates = 1;
  return false;
}

/** What a redrive re-sends for this execution's invocation: for a callback Task whose failure committed, its next attempt. */
async function redoOf(x: Exec): Promise<Redo> {
  const itself = { invocation: x.name, parked: parkedOf(x) };
  if (!x.rt.tasks) return itself;
  // The step's read may have been stale (eventually consistent): the committed failure is asked of the leader.
  const own = x.read?.checkpoints.get(x.key) ?? (await x.rt.store.getCheckpoint(x.key));
  return x.rt.tasks.redo(x, own?.catchIndex) ?? itself;
}

/**
 * Ends the run FAILED at `state` (a Fail or Choice state; by default the one
 * the node runs). The failing invocation is parked for a redrive (or what
 * `never` names to re-send instead), unless `never` says why a redrive would
 * reach this failure again (a committed value led to it).
 */
export async function failRun(x: Exec, error: string, cause: string, state = stateOf(x), never?: string | Redo): Promise<void> {
  x.metrics.failures = 1;
  await appendTransition(x, 'failed', { error: { state, error, cause } });
  const end = { status: 'FAILED', error: { node: x.rt.ir.node, state, error, cause } } as const;
  if (typeof never !== 'string') {
    const redo = never ?? { invocation: x.name, parked: parkedOf(x) };
    await failParked(x.rt.store, x.run, redo.invocation, redo.parked, end, now(), redrivableTtl(x), redo.generation);
    return;
  }
  // Failed already by another invocation: parked all the same, a redrive reaches this failure again and marks it then.
  while (!(await finish(x, { ...end, redrive: { never } }, endTtl(x))) && (await parkInEndedRun(x)) === 'running');
}

/**
 * Parks this invocation in its FAILED, ABORTED or TIMED_OUT run (runtime/records/redrive-park.ts);
 * 'running' when a redrive made the run RUNNING again, 'ended' when it has another status.
 */
async function parkInEndedRun(x: Exec): Promise<'parked' | 'running' | 'ended'> {
  const redo = await redoOf(x);
  await x.rt.store.putParked(x.run, redo.invocation, redo.parked, runTtl(x));
  return x.rt.store.parkInRun(x.run, redo.invocation);
}

/**
 * The run record in `read` says nothing more is owed to this invocation: the
 * run has its final status. A FAILED, ABORTED or TIMED_OUT run gets the
 * invocation parked for its redrive first (a stop parks nothing itself: the
 * invocations in flight park here, at their next step), and one redriven
 * meanwhile is RUNNING again: the invocation goes on.
 */
export async function runOver(x: Exec, read: ReadSet): Promise<boolean> {
  if (!read.runEnded) return false;
  return !read.runRedrivable || (await parkInEndedRun(x)) !== 'running';
}

/**
 * The run this execution read RUNNING is past its deadline: it is ended
 * TIMED_OUT now, and the invocation parks in it as in one it read TIMED_OUT.
 * A stale read of a deadline a redrive replaced writes nothing, and the park
 * finds the run RUNNING: the invocation goes on.
 */
export async function overByDeadline(x: Exec): Promise<boolean> {
  return (await endedByDeadline(x)) && (await parkInEndedRun(x)) !== 'running';
}
