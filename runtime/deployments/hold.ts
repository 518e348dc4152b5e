/**
 * Why a superseded deployment must stay (docs/architecture.md "Deployments"):
 * an event addressed to it may still be delivered, or one of its runs may
 * still run or be redriven. Undefined: nothing can use it any more.
 */
import { type DeploymentRecord, REDRIVABLE_STATUSES } from '../contract/table';
import type { DeploymentRecords, RunView } from './records';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Why `deployment` must stay at `now` (epoch ms). A run of it can only have
 * started while it was current, give or take a handoff (a start the `live`
 * alias routed just before it moved), so only the runs the runs index holds
 * for that window are read.
 */
export async function holdOf(records: DeploymentRecords, deployment: DeploymentRecord & { readonly supersededAt: string }, now: number): Promise<string | undefined> {
  const handoff = deployment.handoffSeconds * 1000;
  const quiet = Date.parse(deployment.supersededAt) + handoff;
  if (now < quiet) return `superseded at ${deployment.supersededAt}: events addressed to it may be delivered until ${iso(quiet)} (a handoff of ${deployment.handoffSeconds} s)`;
  const after = iso(Date.parse(deployment.activatedAt) - handoff - 1);
  const before = iso(quiet + 1);
  for await (const page of records.runsStarted(after, before)) {
    for (const run of page) {
      if (run.record.deployment !== deployment.deployment) continue;
      const hold = await runHold(records, run, deployment.handoffSeconds, now);
      if (hold !== undefined) return `run ${run.workflowId} ${hold}`;
    }
  }
  return undefined;
}

/** Why run `run` still needs its deployment at `now`: it runs, invocations of it may be in flight, or a redrive may resume it. */
async function runHold(records: DeploymentRecords, run: RunView, handoffSeconds: number, now: number): Promise<string | undefined> {
  const { status, finishedAt } = run.record;
  if (status === 'RUNNING') return 'is RUNNING';
  // Invocations in flight when the run ended run on until a handoff after it.
  const settled = Date.parse(finishedAt ?? '') + handoffSeconds * 1000;
  if (!(settled <= now)) return `is ${status} since ${finishedAt ?? 'an unknown time'}: invocations of it may be in flight until ${Number.isNaN(settled) ? 'a handoff after that' : iso(settled)}`;
  const redrivable = REDRIVABLE_STATUSES.includes(status) ? await redrivableUntil(records, run, now) : undefined;
  return redrivable === undefined ? undefined : `is ${status} and can be redriven until ${iso(redrivable * 1000)}`;
}

/**
 * Until when (epoch s) a redrive of the FAILED, ABORTED or TIMED_OUT run would resume it, as
 * runtime/control/redrive.ts decides; undefined when it would refuse now (and so
 * ever after: a window only closes). Parking only adds invocations, and a
 * redrive needs every parked one within its window, so the earliest window decides.
 */
async function redrivableUntil(records: DeploymentRecords, run: RunView, now: number): Promise<number | undefined> {
  const { redo, never } = run.redrive;
  if (never !== undefined || redo.length === 0) return undefined;
  const parked = await records.parked(run.workflowId, redo);
  const until = Math.min(...parked.map((p) => p?.until ?? 0));
  return until > Math.floor(now / 1000) ? until : undefined;
}
