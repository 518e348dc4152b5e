/**
 * Fault campaigns over a running engine, shared by the jest suites and
 * `npm run test:faults`: the crash-point enumeration of a workflow (every
 * single point, every pair) and seeded random schedules. Schedules run
 * concurrently on one engine, each run under its own workflowId.
 */
import type { Json } from '../../runtime/contract/ir';
import { maskShardJoins } from '../../runtime/contract/table';
import type { RunStatusWithResult } from '../runs/run-status';
import type { EffectCheck, Expectation } from './checker';
import { allPairs, pairwiseCovering } from './crash-point-pairs';
import type { LocalEngine } from '../local/engine';
import { checkedRun, profile, referenceRun, withConcurrency, type CheckedRun, type RunIntervention } from './fault-run';
import { CrashPointPlan, describePoint, planForSeed, RANDOM_FAULT_KINDS, SERVICE_FAULT_KINDS, type CrashPoint } from './schedule';

export interface Target {
  readonly workflow: string;
  readonly input: Json;
  /** What a correct run returns, given a fault-free run's record (default: that record's result). */
  readonly expect?: (reference: RunStatusWithResult, engine: LocalEngine) => Expectation;
  /** The workflow's effects, whose counters invariant 7 checks after every run. @default none */
  readonly effects?: EffectCheck;
  /** Done to each run while it runs (e.g. a stop request racing its end). @default nothing */
  readonly during?: RunIntervention;
  /** Arms the faults the target's own machinery injects into the run of a seed (e.g. a database server's crash), before the run starts. @default none */
  readonly arm?: (seed: number, workflowId: string) => ArmedFaults;
}

/** Faults a target injects into one run itself, beside the fault plan's. */
export interface ArmedFaults {
  /** What it injected so far, by kind. */
  counts(): Readonly<Record<string, number>>;
  /** The run is checked: its faults are no longer needed. */
  disarm(): void;
}

export interface Failure {
  readonly what: string;
  readonly workflowId: string;
  readonly violations: readonly string[];
}

export interface CampaignSummary {
  readonly schedules: number;
  readonly executions: number;
  /** Call faults that killed an execution (crash, timeout). */
  readonly callFaults: number;
  /** Service faults the executions' SDKs met (throttling, 500s, unreachable). */
  readonly serviceFaults: number;
  /** Eventually consistent reads answered stale (none of their items). */
  readonly staleReads: number;
  readonly lateDuplicates: number;
  readonly failures: Failure[];
  /** Notes of all runs (findings that break no invariant), deduplicated with counts. */
  readonly notes: Map<string, number>;
}

export function expectationFor(target: Target, reference: RunStatusWithResult, engine: LocalEngine): Expectation {
  if (target.expect) return target.expect(reference, engine);
  return reference.status === 'SUCCEEDED' ? { kind: 'result', result: reference.result ?? null } : { kind: 'failed' };
}

/** The campaign's totals over its checked runs. */
export function summarize(runs: ReadonlyArray<{ what: string; run: CheckedRun }>): CampaignSummary {
  return {
    schedules: runs.length,
    executions: runs.reduce((a, r) => a + r.run.executions, 0),
    callFaults: runs.reduce((a, r) => a + r.run.callFaults, 0),
    serviceFaults: runs.reduce((a, r) => a + r.run.serviceFaults, 0),
    staleReads: runs.reduce((a, r) => a + r.run.staleReads, 0),
    lateDuplicates: runs.reduce((a, r) => a + r.run.lateDuplicates, 0),
    failures: runs.filter((r) => r.run.violations.length > 0).map((r) => ({ what: r.what, workflowId: r.run.workflowId, violations: r.run.violations })),
    notes: countNotes(runs.flatMap((r) => r.run.notes)),
  };
}

/** Notes without run-specific keys, counted. */
function countNotes(notes: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const n of notes) {
    const key = maskShardJoins(n).replace(/attempt \d+/, 'attempt n');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

export interface EnumerationOptions {
  /** Run every single point alone. @default true */
  readonly singles?: boolean;
  /** `exact`: one run per pair; `covering`: sets of `setSize` points covering every pair; `none`: no pairs. */
  readonly pairs: 'exact' | 'covering' | 'none';
  /** @default 6 */
  readonly setSize?: number;
  /** @default 6 */
  readonly concurrency?: number;
}

export interface EnumerationSummary extends CampaignSummary {
  readonly points: number;
  readonly pairPoints: number;
  readonly pairs: number;
  readonly singles: number;
  readonly pairSchedules: number;
}

/** Every single crash point of the target, then every pair (exactly or by a pairwise covering). */
export async function enumerateCrashPoints(engine: LocalEngine, target: Target, options: EnumerationOptions): Promise<EnumerationSummary> {
  const p = await profile(engine, target.workflow, target.input);
  const expectation = expectationFor(target, p.record, engine);
  const concurrency = options.concurrency ?? 6;
  const run = async (points: readonly CrashPoint[]): Promise<{ what: string; run: CheckedRun }> => ({
    what: `${target.workflow}: crash ${points.map(describePoint).join(' + ')}`,
    run: await checkedRun(engine, target.workflow, target.input, new CrashPointPlan(points), expectation, target.effects ? { effects: target.effects } : {}),
  });
  const singles = options.singles === false ? [] : await withConcurrency(p.points, concurrency, (pt) => run([pt]));
  const pairSets = options.pairs === 'exact' ? allPairs(p.pairPoints) : options.pairs === 'covering' ? pairwiseCovering(p.pairPoints, options.setSize ?? 6) : [];
  const pairs = await withConcurrency(pairSets, concurrency, (set) => run(set));
  const n = p.pairPoints.length;
  return {
    ...summarize([...singles, ...pairs]),
    points: p.points.length,
    pairPoints: n,
    pairs: (n * (n - 1)) / 2,
    singles: singles.length,
    pairSchedules: pairs.length,
  };
}

export interface RandomOptions {
  /** @default 6 */
  readonly concurrency?: number;
  /** Also inject the services' failures (`ServiceFaultPlan`). @default false */
  readonly serviceFaults?: boolean;
  /** Kinds the targets inject themselves (`Target.arm`), counted from 0 beside the plans'. @default none */
  readonly targetFaultKinds?: readonly string[];
  /** Called after each seed (progress output). */
  readonly onSeed?: (seed: number, target: Target, run: CheckedRun) => void;
}

/** The target seed s runs: target `s mod n`. */
export const targetOfSeed = <T>(targets: readonly T[], seed: number): T => targets[((seed % targets.length) + targets.length) % targets.length] as T;

/** Seeded random schedules: seed s runs target `s mod n` under `planForSeed(s)`. */
export async function randomSchedules(engine: LocalEngine, targets: readonly Target[], seeds: readonly number[], options: RandomOptions = {}): Promise<CampaignSummary & { injected: Record<string, number> }> {
  const references = new Map<string, Expectation>();
  for (const t of targets) {
    references.set(t.workflow, expectationFor(t, await referenceRun(engine, t.workflow, t.input), engine));
  }
  const kinds = [...RANDOM_FAULT_KINDS, ...(options.serviceFaults ? SERVICE_FAULT_KINDS : []), ...(options.targetFaultKinds ?? [])];
  const injected: Record<string, number> = Object.fromEntries(kinds.map((k) => [k, 0]));
  const runs = await withConcurrency(seeds, options.concurrency ?? 6, async (seed) => {
    const target = targetOfSeed(targets, seed);
    const plan = planForSeed(seed, options.serviceFaults);
    const workflowId = `seed-${seed}-${Date.now()}`;
    const armed = target.arm?.(seed, workflowId);
    const run = await checkedRun(engine, target.workflow, target.input, plan, references.get(target.workflow) as Expectation, { workflowId, ...(target.effects ? { effects: target.effects } : {}), ...(target.during ? { during: target.during } : {}) });
    armed?.disarm();
    for (const [k, v] of Object.entries({ ...plan.counts(), ...armed?.counts() })) injected[k] = (injected[k] ?? 0) + v;
    options.onSeed?.(seed, target, run);
    return { what: `seed ${seed} (${target.workflow})`, run };
  });
  return { ...summarize(runs), injected };
}
