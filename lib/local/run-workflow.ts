/**
 * One run of a workflow on the local engine, as a test or the CLI wants it:
 * started, waited for, and reported with its result and per-execution
 * timeline. Under a fault seed, the run is repeated under that seed's fault
 * schedule and checked against the fault-free run (the invariants of
 * docs/architecture.md).
 */
import type { Json } from '../../runtime/contract/ir';
import type { RunState } from '../client/types';
import type { LocalEngine } from './engine';
import { checkedRun } from './fault-run';
import { paramsForSeed, RandomPlan, type RandomFaultParams } from './schedule';
import type { TimelineEntry } from './timeline';

/** Options of one local run. */
export interface LocalRunOptions {
  /** Id of the run. @default a random UUID */
  readonly workflowId?: string;
  /**
   * Also run the workflow under the fault schedule of this seed (crashes
   * before and after calls, duplicate and late deliveries, re-runs, reordered
   * events, timeouts) and check the execution guarantees against the
   * fault-free run. The same seed replays the same schedule. Your handlers
   * must then be deterministic, since the faulted run's result is compared
   * with the fault-free one's.
   * @default no faults
   */
  readonly faults?: number;
  /** Give up on a run that has not finished after this long. @default 60000 */
  readonly timeoutMs?: number;
}

/** What a run's record says, and how its functions ran. */
export interface LocalRunOutcome {
  readonly workflowId: string;
  /** RUNNING only for a faulted run that did not finish (see `faults.violations`). */
  readonly status: RunState;
  /** The result of a SUCCEEDED run. */
  readonly result?: Json;
  /** Why a FAILED run failed: the node, the state where the run ended (a Fail state, say), the error name and its cause. */
  readonly error?: { readonly node?: string; readonly state?: string; readonly error?: string; readonly cause?: string };
  /** Every execution of the run's functions (attempts, retries, duplicates), in start order. */
  readonly timeline: readonly Readonly<TimelineEntry>[];
}

/** What a fault seed did to a run. */
export interface LocalRunFaults {
  readonly seed: number;
  /** The rates the seed drew. */
  readonly params: RandomFaultParams;
  /** Faults injected, by kind. */
  readonly injected: { readonly crash: number; readonly timeout: number; readonly duplicate: number; readonly late: number; readonly rerun: number };
  /** Guarantees that did not hold; empty when the run was correct. */
  readonly violations: readonly string[];
  /** The fault-free run the faulted one was checked against. */
  readonly reference: LocalRunOutcome;
}

/** A local run; under `faults`, the faulted run, with what was injected and checked. */
export interface LocalRun extends LocalRunOutcome {
  readonly faults?: LocalRunFaults;
}

/** @internal */
export interface RunWorkflowOptions extends LocalRunOptions {
  /** Called with the run's status at every poll (progress output). */
  readonly onPoll?: (status: LocalRunOutcome['status']) => void;
}

/** Runs `workflow` on `input` and waits for it; see `LocalRunOptions`. @internal */
export async function runWorkflow(engine: LocalEngine, workflow: string, input: Json, options: RunWorkflowOptions = {}): Promise<LocalRun> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const workflowId = engine.startRun(workflow, input, options.workflowId === undefined ? {} : { workflowId: options.workflowId });
  const record = await engine.waitForRun(workflowId, { timeoutMs, ...(options.onPoll ? { onPoll: (r) => options.onPoll?.(r.status) } : {}) });
  await engine.idle(workflowId);
  const reference = outcome(engine, workflowId, record);
  engine.forget(workflowId);
  if (options.faults === undefined) return reference;

  const plan = new RandomPlan(paramsForSeed(options.faults));
  const expectation = record.status === 'SUCCEEDED' ? { kind: 'result' as const, result: record.result ?? null } : { kind: 'failed' as const };
  const checked = await checkedRun(engine, workflow, input, plan, expectation, { timeoutMs, keep: true });
  const faulted = outcome(engine, checked.workflowId, checked.record ?? { status: 'RUNNING' });
  engine.forget(checked.workflowId);
  return {
    ...faulted,
    faults: { seed: options.faults, params: plan.params, injected: { ...plan.injected }, violations: checked.violations, reference },
  };
}

function outcome(engine: LocalEngine, workflowId: string, record: Pick<LocalRunOutcome, 'status' | 'result' | 'error'>): LocalRunOutcome {
  return {
    workflowId,
    status: record.status,
    ...(record.status === 'SUCCEEDED' ? { result: record.result ?? null } : {}),
    ...(record.error ? { error: record.error } : {}),
    timeline: engine.emulator.timeline.of(workflowId).map((e) => ({ ...e })).sort((a, b) => a.start - b.start),
  };
}
