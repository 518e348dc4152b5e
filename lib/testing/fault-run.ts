/**
 * One checked run under a fault plan: start it, wait for its record, wait
 * until the engine has nothing left for it (retries, duplicates), deliver the
 * late duplicates held back and wait again, then check the invariants.
 * Also profiles a fault-free run into the crash points of the enumeration.
 */
import { randomUUID } from 'crypto';
import { isDeepStrictEqual } from 'util';
import { LIVE_ALIAS, qualifiedName, type Json, type NodeIR } from '../../runtime/contract/ir';
import type { RunStatusWithResult } from '../runs/run-status';
import { isFinished } from '../runs/run-status';
import { checkRun, type EffectCheck, type EffectsApplied, itemsWithoutTtl, readItems, runRecordWrites, writtenKeys, type Expectation } from './checker';
import type { LocalEngine } from '../local/engine';
import { isKillingFault, type CallInfo, type ExecutionInfo, type FaultPlan } from '../local/fault-plan';
import { boundedMaps } from './map-concurrency';
import type { Pinning } from './pinning';
import type { CrashPoint } from './schedule';

export interface CheckedRun {
  readonly workflowId: string;
  readonly record?: RunStatusWithResult;
  readonly violations: string[];
  /** Findings that break no invariant (e.g. a fan-in shard left to its TTL). */
  readonly notes: string[];
  readonly executions: number;
  /** Call faults the proxy injected in this run that killed the execution (crash, timeout). */
  readonly callFaults: number;
  /** Service faults the proxy injected in this run (throttling, 500s, unreachable). */
  readonly serviceFaults: number;
  /** Eventually consistent reads the proxy answered as a replica that had none of their items. */
  readonly staleReads: number;
  readonly lateDuplicates: number;
}

/**
 * How long a run may keep the engine busy before it is given up: a safety net
 * against an engine that never goes quiet, not a deadline. Waiting for a run
 * is waiting until nothing is left for it (`engine.idle`), which needs no
 * clock; on a machine loaded 20-30x a faulted run of a few seconds takes
 * minutes, so this bound is far above that.
 */
export const RUN_BOUND_MS = 30 * 60_000;

export interface CheckedRunOptions {
  readonly workflowId?: string;
  /** Give up on a run that still has work after this long. @default RUN_BOUND_MS */
  readonly timeoutMs?: number;
  /** Keep the run's log and traffic in the engine (default: forget them after the check). */
  readonly keep?: boolean;
  /** The workflow's effects, checked by invariant 7. @default none */
  readonly effects?: EffectCheck;
  /** Acts on the run while it runs (`Target.during`). @default nothing */
  readonly during?: RunIntervention;
}

/** What an intervention did to the run's final status, for invariant 1. */
export interface InterventionResult {
  /** Final writes it made itself (a stop request that ended the run). */
  readonly ends: number;
  /** Redrives that resumed the run: each lets the run write one final status more. */
  readonly redrives: number;
}

/** Something done to a run from outside while it runs, concurrently with it (a stop request, a redrive, task responses). */
export type RunIntervention = (engine: LocalEngine, workflow: string, workflowId: string) => Promise<InterventionResult>;

export async function checkedRun(
  engine: LocalEngine,
  workflow: string,
  input: Json,
  plan: FaultPlan | undefined,
  expectation: Expectation,
  options: CheckedRunOptions = {},
): Promise<CheckedRun> {
  const workflowId = options.workflowId ?? `chk-${randomUUID()}`;
  if (plan) engine.setFaultPlan(workflowId, plan);
  // Read in the same synchronous step as the start: a deploy cannot move `live` in between.
  const startedOn = liveDeployment(engine, workflow);
  const pinning: Pinning = { entryFunction: engine.workflow(workflow).entryFunction, ...(startedOn !== undefined ? { startedOn } : {}) };
  engine.startRun(workflow, input, { workflowId });
  const intervention = options.during?.(engine, workflow, workflowId);
  const violations: string[] = [];
  const notes: string[] = [];
  let record: RunStatusWithResult | undefined;
  let lateDuplicates = 0;
  try {
    const outside = (await intervention) ?? { ends: 0, redrives: 0 };
    record = await finished(engine, workflowId, options.timeoutMs ?? RUN_BOUND_MS);
    lateDuplicates = engine.emulator.deliverLate(workflowId);
    if (lateDuplicates > 0) {
      await engine.idle(workflowId);
      const after = await engine.readRun(workflowId);
      if (!isDeepStrictEqual(after, record)) violations.push(`invariant 5: a late duplicate changed the run record: ${JSON.stringify(record)} -> ${JSON.stringify(after)}`);
    }
    const calls = engine.traffic.of(workflowId);
    const { tableName } = engine.workflow(workflow);
    const items = await readItems(engine.dynamo, tableName, writtenKeys(calls));
    const untimed = await itemsWithoutTtl(engine.dynamo, tableName);
    const maps = boundedMaps(nodesOf(engine, workflow, record.deployment));
    const effects = options.effects ? await effectsApplied(engine, workflow, workflowId, options.effects) : undefined;
    violations.push(...checkRun({ record, calls, items, untimed, expectation, timeline: engine.emulator.timeline.of(workflowId), maps, externalEnds: outside.ends, redrives: outside.redrives, pinning, ...(effects ? { effects } : {}) }));
  } catch (err) {
    const calls = engine.traffic.of(workflowId);
    violations.push(`run did not finish: ${err instanceof Error ? err.message : String(err)} (run record writes ${JSON.stringify(runRecordWrites(calls))})`);
  }
  const timeline = engine.emulator.timeline.of(workflowId);
  if (violations.length > 0) {
    // What went wrong where: every execution that did not end well, for the report.
    const failed = timeline.filter((e) => e.outcome !== 'ok').map((e) => `${e.identity} attempt ${e.attempt}${e.duplicate ? ' (duplicate)' : ''}: ${e.outcome ?? 'unfinished'} ${e.error ?? ''}`.trim());
    if (failed.length > 0) violations.push(`failed executions: ${failed.join(' | ')}`);
  }
  const executions = timeline.length;
  const faults = engine.traffic.of(workflowId).filter((c) => c.fault !== 'none');
  const callFaults = faults.filter((c) => isKillingFault(c.fault)).length;
  const staleReads = faults.filter((c) => c.fault === 'stale').length;
  if (!options.keep) engine.forget(workflowId);
  return { workflowId, ...(record ? { record } : {}), violations, notes, executions, callFaults, serviceFaults: faults.length - callFaults - staleReads, staleReads, lateDuplicates };
}

/** The deployment the workflow's `live` alias names now: where a run started now starts. */
function liveDeployment(engine: LocalEngine, workflow: string): string | undefined {
  return engine.app.functions.get(qualifiedName(engine.workflow(workflow).entryFunction, LIVE_ALIAS))?.deployment;
}

/** The node IR of the run's deployment (the newest synth's when the record names none): a deploy during the run may have changed the graph. */
function nodesOf(engine: LocalEngine, workflow: string, deployment: string | undefined): NodeIR[] {
  if (deployment === undefined) return Object.values(engine.workflow(workflow).nodes).flatMap((fn) => (fn.ir ? [fn.ir] : []));
  return [...engine.app.functions.values()].flatMap((fn) => (fn.qualifier === deployment && fn.ir?.workflow === workflow ? [fn.ir] : []));
}

/** The counters of the run's effects, read once the run is quiet. */
async function effectsApplied(engine: LocalEngine, workflow: string, workflowId: string, check: EffectCheck): Promise<EffectsApplied> {
  const fn = engine.workflow(workflow).nodes[check.node];
  if (!fn) throw new Error(`the effect check names node '${check.node}', which workflow '${workflow}' does not have`);
  return { check, functionName: fn.functionName, applied: await check.applied(workflowId) };
}

/**
 * Waits until the engine has nothing left for the run (no event queued,
 * retrying or running), then reads its record once: a run that is quiet but
 * not finished is stuck, which is a violation in itself.
 */
async function finished(engine: LocalEngine, workflowId: string, timeoutMs: number): Promise<RunStatusWithResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still busy after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([engine.idle(workflowId), timeout]);
  } finally {
    clearTimeout(timer);
  }
  const record = await engine.readRun(workflowId);
  if (!isFinished(record.status)) throw new Error(`nothing left to run but the run is ${record.status}`);
  return record;
}

/** A fault-free run, for the reference result; `during` acts on it as on the checked runs (e.g. answers its callbacks). */
export async function referenceRun(engine: LocalEngine, workflow: string, input: Json, during?: RunIntervention): Promise<RunStatusWithResult> {
  const workflowId = engine.startRun(workflow, input, { workflowId: `reference-${randomUUID()}` });
  await during?.(engine, workflow, workflowId);
  const record = await finished(engine, workflowId, RUN_BOUND_MS);
  engine.forget(workflowId);
  return record;
}

/** The calls of each execution of a fault-free run, to enumerate crash points from. */
class RecordingPlan implements FaultPlan {
  readonly calls: Array<{ identity: string; call: CallInfo }> = [];

  callFault(exec: ExecutionInfo, call: CallInfo): 'none' {
    if (exec.attempt === 1 && !exec.duplicate) this.calls.push({ identity: exec.identity, call });
    return 'none';
  }

  eventFault(): { delayMs: number; duplicate: 'none' } {
    return { delayMs: 0, duplicate: 'none' };
  }

  rerunSucceeded(): boolean {
    return false;
  }
}

export interface Profile {
  readonly record: RunStatusWithResult;
  /** Every crash point: before and after each call of each invocation. */
  readonly points: readonly CrashPoint[];
  /**
   * The points the pair enumeration combines: before each call, and after the
   * last call of each invocation. "After call k" is the same state as "before
   * call k+1" for a sequential execution, so this loses no distinct pair there.
   */
  readonly pairPoints: readonly CrashPoint[];
}

/** Runs the workflow without faults and lists its crash points. */
export async function profile(engine: LocalEngine, workflow: string, input: Json): Promise<Profile> {
  const plan = new RecordingPlan();
  const workflowId = `profile-${randomUUID()}`;
  engine.setFaultPlan(workflowId, plan);
  engine.startRun(workflow, input, { workflowId });
  const record = await finished(engine, workflowId, RUN_BOUND_MS);
  engine.forget(workflowId);
  const points: CrashPoint[] = [];
  const pairPoints: CrashPoint[] = [];
  const byIdentity = new Map<string, CallInfo[]>();
  for (const { identity, call } of plan.calls) byIdentity.set(identity, [...(byIdentity.get(identity) ?? []), call]);
  // Sorted by invocation, so the enumeration (and a covering built from it) is the same in every run.
  for (const [identity, calls] of [...byIdentity].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    calls.forEach((call, i) => {
      const at = { identity, label: call.label, occurrence: call.occurrence };
      points.push({ ...at, phase: 'before' }, { ...at, phase: 'after' });
      pairPoints.push({ ...at, phase: 'before' });
      if (i === calls.length - 1) pairPoints.push({ ...at, phase: 'after' });
    });
  }
  return { record, points, pairPoints };
}

/** Runs `tasks` with at most `limit` in flight. */
export async function withConcurrency<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
