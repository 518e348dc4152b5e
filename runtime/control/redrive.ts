/**
 * Redrive (`UnumClient.redrive`, `unum redrive`; docs/architecture.md
 * "Redrive"), run by the run-control function: a FAILED, ABORTED or
 * TIMED_OUT run goes on from the invocations parked in it (the one that
 * failed it, and those in flight that found it ended), with the inputs they
 * read, which are committed and still in the table within the redrive
 * window; every committed step is reused. As in Step Functions, the run's
 * timeout counts again from the redrive (its new deadline is in the same write).
 * Each parked item is marked with the redrive's generation (the new redrive
 * count), one conditional write makes the run RUNNING again and moves the
 * parked set to the set being resumed, then each parked event is invoked
 * again (`Event`) carrying the generation, then that set is cleared. A
 * redrive interrupted between the write and the clearing is finished by the
 * next call: its invokes repeat, which the exactly-once step absorbs.
 *
 * A redrive re-sends only what the table holds: each parked event as it was
 * parked, sealed by the function that parked it (its MAC), with only the
 * redrive's own fields added (`redrive`, and `movedFrom` on a move), which
 * the receiving function checks against the parked item and the run record
 * (runtime/entry/envelope-auth.ts). Whoever asks for a redrive names a run,
 * never an event or a write: that is why it runs here, not in the client.
 *
 * A run is pinned to its deployment (the run record's): each parked event is
 * re-sent to the function alias it was parked for. `deployment: 'latest'`
 * moves the run to the workflow's newest deployment when its node graph is
 * the run's (graph-changes.ts): the same write that makes the run RUNNING
 * moves its record's deployment, and the re-sent envelopes carry the new one
 * to the new deployment's aliases. The re-sends always follow the record, so
 * a moved redrive finished by a later call goes to the new deployment too.
 */
import { splitFunctionRef } from '../contract/function-ref';
import { ENVELOPE_VERSION, type Envelope, qualifiedName, type StartRequest } from '../contract/ir';
import { sameInvocationNames } from '../contract/naming';
import type { RedriveRequest, RedriveResult, RunControlStatus } from '../contract/run-control';
import { decodeParked, decodeRedriveState, decodeRunRecord, type Item, parkKey, parkResent, type Parked, REDRIVABLE_STATUSES, type RedrivableStatus, redrivenDeadline, type RunRecord, type RunRef, resentEvent, runKey, runRedrive, runRedriveDone } from '../contract/table';
import type { ControlTable } from './control-table';
import type { DeploymentGraphs } from './deployment-graphs';
import { graphChanges } from './graph-changes';
import type { RedrivenTimeout } from './redriven-timeout';

/** A run that cannot be redriven now, and why; nothing was changed. */
export class RedriveRefusal extends Error {
  constructor(readonly workflowId: string, readonly status: RunControlStatus, readonly reason: string) {
    super(`run ${workflowId} (${status}) cannot be redriven: ${reason}`);
  }
}

/** What `redriveRun` works with. */
export interface RedriveDeps {
  readonly table: ControlTable;
  /** Invokes `functionName` (qualified) asynchronously with `event` (JSON). */
  readonly invoke: (functionName: string, event: string) => Promise<void>;
  readonly deployments: DeploymentGraphs;
  /** Schedules the timeout of a redriven run with a deadline, its `timeoutSeconds` after the redrive. */
  readonly scheduleTimeout: (run: RunRef, timeout: RedrivenTimeout) => Promise<void>;
}


/** The parked items of `names`, by name. */
async function readParked(deps: RedriveDeps, run: RunRef, names: readonly string[]): Promise<Map<string, Parked | undefined>> {
  const items = await deps.table.getMany(names.map((n) => parkKey(run, n)));
  return new Map(names.map((n) => [n, decodeParked(items.get(parkKey(run, n)))]));
}

/** A parked function reference (`name:qualifier`) on `deployment`: its alias there (the parked one when the run stayed). */
function onDeployment(functionName: string, deployment: string | undefined): string {
  const ref = splitFunctionRef(functionName);
  return deployment === undefined || ref.qualifier === deployment ? functionName : qualifiedName(ref.function, deployment);
}

/**
 * A parked event as `deployment` accepts it: an envelope names its deployment
 * (a start request names none). Its MAC covers the deployment it was sealed
 * on, which a moved envelope keeps as `movedFrom`: the function checks that
 * the run record names its deployment.
 */
function forDeployment(event: string, deployment: string | undefined): string {
  const e = JSON.parse(event) as Envelope | StartRequest;
  if (deployment === undefined || !('unum' in e) || e.unum.deployment === deployment) return event;
  return JSON.stringify({ ...e, unum: { ...e.unum, deployment, movedFrom: e.unum.movedFrom ?? e.unum.deployment } });
}

/**
 * Invokes the parked invocations `names` of redrive `redrives` on the run's
 * `deployment`, marked with its generation (those not in `known` read now),
 * and clears its set (unless a later redrive replaced it).
 */
async function resume(deps: RedriveDeps, run: RunRef, redrives: number, deployment: string | undefined, names: readonly string[], known = new Map<string, Parked | undefined>()): Promise<RedriveResult> {
  const read = await readParked(deps, run, names.filter((n) => !known.has(n)));
  const parked = names.map((n) => known.get(n) ?? read.get(n)).filter((p): p is Parked => p !== undefined);
  await Promise.all(parked.map((p) => deps.invoke(onDeployment(p.functionName, deployment), resentEvent(forDeployment(p.event, deployment), redrives))));
  await deps.table.update(runRedriveDone(run, redrives));
  return { workflowId: run.workflowId, redriveCount: redrives, resumed: parked.length, ...(deployment === undefined ? {} : { deployment }) };
}

/** The envelope format of a parked event that this unum-cdk's functions would refuse (an older one's), if it is one. */
function olderEnvelope(event: string): number | undefined {
  const e = JSON.parse(event) as { unum?: { v?: unknown } };
  const v = e.unum?.v;
  return e.unum !== undefined && v !== ENVELOPE_VERSION ? Number(v) : undefined;
}

/** A run record with a status a redrive resumes. */
const redrivable = (record: RunRecord): record is RunRecord & { readonly status: RedrivableStatus } => REDRIVABLE_STATUSES.includes(record.status);

/** The parked invocations of the run `item` holds, or why it cannot be redriven now. */
async function parkedOrRefusal(deps: RedriveDeps, run: RunRef, item: Item): Promise<Map<string, Parked | undefined> | string> {
  const record = decodeRunRecord(item);
  const { redo, never } = decodeRedriveState(item);
  if (!redrivable(record)) return `it is ${record.status}, and only a FAILED, ABORTED or TIMED_OUT run is redriven`;
  if (never !== undefined) return `it failed at ${never}: the committed value that led there would lead there again`;
  if (redo.length === 0) return 'no invocation of it is parked to resume';
  const now = Math.floor(Date.now() / 1000);
  const parked = await readParked(deps, run, redo);
  if ([...parked.values()].some((p) => p === undefined || p.until <= now)) return 'its redrive window passed: what it would read again may have expired (checkpoint retention)';
  const older = [...parked.values()].map((p) => olderEnvelope((p as Parked).event)).find((v) => v !== undefined);
  if (older !== undefined) return `its parked invocations are envelopes of format ${older}, from an unum-cdk before ${older < 3 ? 'deployment pinning' : 'envelopes were authenticated'}: the functions run format ${ENVELOPE_VERSION} and would refuse them`;
  return parked;
}

/**
 * The deployment a redrive resumes a run of deployment `from` on: its own, or with
 * `latest` the workflow's current one when the run's node graph is the same
 * there; why not, as a refusal.
 */
async function targetDeployment(deps: RedriveDeps, from: string | undefined, request: RedriveRequest): Promise<string | undefined | { readonly refused: string }> {
  if (request.deployment !== 'latest') return from;
  if (from === undefined) return { refused: 'it was started by an unum-cdk before deployments: it has no deployment to move from' };
  const latest = await deps.deployments.latest();
  if (!latest) return { refused: 'the workflow has no deployment record to move it to (the sweeper writes one at every deploy)' };
  if (latest.deployment === from) return from;
  const own = await deps.deployments.graphOf(from);
  if (!own) return { refused: `its deployment ${from} has no record, so its node graph cannot be compared with the latest (${latest.deployment})` };
  if (!sameInvocationNames(own.format, latest.format)) {
    return { refused: `its deployment ${from} names invocations as table format ${own.format} does, the latest deployment ${latest.deployment} as format ${latest.format} does: it would not find the run's checkpoints` };
  }
  const changes = graphChanges(own.graph, latest.graph);
  if (changes.length > 0) return { refused: `the latest deployment ${latest.deployment} has another node graph than its deployment ${from}: ${changes.join('; ')}` };
  return latest.deployment;
}

/** Redrives run `run` (see the module comment); throws `RedriveRefusal` when it cannot. */
export async function redriveRun(deps: RedriveDeps, run: RunRef, request: RedriveRequest): Promise<RedriveResult> {
  for (;;) {
    const item = await deps.table.get(runKey(run));
    if (!item) throw new RedriveRefusal(run.workflowId, 'NOT_FOUND', 'it has no run record (not started, or expired)');
    const { redoing, redrives } = decodeRedriveState(item);
    const record = decodeRunRecord(item);
    const { status, deployment: from } = record;
    // A redrive interrupted before it cleared its set (its items marked already, the record moved already): finish it.
    if (status === 'RUNNING' && redoing.length > 0) return resume(deps, run, redrives, from, redoing);
    const parked = await parkedOrRefusal(deps, run, item);
    if (typeof parked === 'string') throw new RedriveRefusal(run.workflowId, status, parked);
    const to = await targetDeployment(deps, from, request);
    if (typeof to === 'object') throw new RedriveRefusal(run.workflowId, status, to.refused);
    const move = from !== undefined && to !== undefined && to !== from ? { from, to } : undefined;
    // Marked before the run is RUNNING again: no failure of an older event can come between and fail it again.
    await Promise.all([...parked.keys()].map((n) => deps.table.update(parkResent(run, n, redrives + 1))));
    const at = new Date().toISOString();
    const deadline = redrivenDeadline(record, at);
    // Scheduled before the write: a schedule whose write then failed ends nothing (the timeout ends a run only at its own deadline).
    if (deadline !== undefined) await deps.scheduleTimeout(run, { deadline, timeoutSeconds: Math.round((deadline - Date.parse(at)) / 1000), redrives: redrives + 1 });
    // parkedOrRefusal refused every other status.
    const write = { status: status as RedrivableStatus, redrives, parked: parked.size, at, ...(deadline === undefined ? {} : { deadline }), ...(move ? { move } : {}) };
    const updated = await deps.table.update(runRedrive(run, write));
    if (updated) {
      const result = await resume(deps, run, redrives + 1, to, decodeRedriveState(updated).redoing, parked);
      return move ? { ...result, movedFrom: move.from } : result;
    }
    const now = await deps.table.get(runKey(run));
    // Still as it read it, redriven as often: an invocation parked meanwhile (the set it read grew). Read again.
    if (now && decodeRunRecord(now).status === status && decodeRedriveState(now).redrives === redrives) continue;
    throw new RedriveRefusal(run.workflowId, now ? decodeRunRecord(now).status : 'NOT_FOUND', 'it changed while this redrive read it (another redrive, or a stop)');
  }
}
