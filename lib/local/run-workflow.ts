/**
 * One run of a workflow on the local engine, as a test or the CLI wants it:
 * started, waited for, and reported with its result and per-execution
 * timeline. Under a fault schedule (built by `unum-cdk/testing`, which holds
 * the fault tooling so that this entry needs none of its dependencies), the
 * run is repeated under that schedule and checked against the fault-free run
 * (the invariants of docs/architecture.md).
 */
import type { Json } from '../../runtime/contract/ir';
import type { RunState } from '../runs/run-status';
import type { LocalEngine } from './engine';
import { UnumLocalError } from './errors';
import type { TimelineEntry } from './timeline';

/** Options of one local run. */
export interface LocalRunOptions {
  /** Id of the run. @default a random UUID */
  readonly workflowId?: string;
  /**
   * Also run the workflow under this fault schedule and check the execution
   * guarantees against the fault-free run: `randomFaults(seed)` from
   * `unum-cdk/testing` (crashes before and after calls, duplicate and late
   * deliveries, re-runs, reordered events, timeouts; the same seed replays
   * the same schedule). Your handlers must then be deterministic, since the
   * faulted run's result is compared with the fault-free one's.
   * @default no faults
   */
  readonly faults?: LocalFaultSchedule;
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

/**
 * A fault schedule for `run`'s `faults` option, built by `unum-cdk/testing`
 * (`randomFaults(seed)`): this entry only runs it, so it needs neither the
 * fault tooling nor its dependencies.
 */
export interface LocalFaultSchedule {
  /** The seed that replays the schedule. */
  readonly seed: number;
  /**
   * Runs `workflow` on `input` on `engine` under this schedule, keeping the
   * run's timeline in the engine, and checks it against the fault-free run.
   */
  runChecked(engine: LocalEngine, workflow: string, input: Json, reference: LocalRunOutcome, options: { readonly timeoutMs: number }): Promise<LocalFaultCheck>;
}

/** A run under a fault schedule, as `LocalFaultSchedule.runChecked` reports it. */
export interface LocalFaultCheck {
  readonly workflowId: string;
  /** What the run's record said at the end; undefined when the run did not finish. */
  readonly record?: Pick<LocalRunOutcome, 'status' | 'result' | 'error'>;
  /** The rates the schedule drew, by fault kind. */
  readonly params: Readonly<Record<string, number>>;
  /** Faults injected, by kind. */
  readonly injected: LocalRunFaults['injected'];
  /** Guarantees that did not hold; empty when the run was correct. */
  readonly violations: readonly string[];
}

/** What a fault schedule did to a run. */
export interface LocalRunFaults {
  readonly seed: number;
  /** The rates the schedule drew, by fault kind. */
  readonly params: Readonly<Record<string, number>>;
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
  const schedule = options.faults;
  if (schedule !== undefined && !isSchedule(schedule)) {
    // A JavaScript caller may still pass a seed, as `faults` took before unum-cdk/testing held the schedules.
    const given: unknown = schedule;
    throw new UnumLocalError(`faults takes a fault schedule from unum-cdk/testing, got ${JSON.stringify(given)}: { faults: randomFaults(${typeof given === 'number' ? given : '<seed>'}) } with const { randomFaults } = require('unum-cdk/testing') (it needs the npm package fast-check)`);
  }
  const workflowId = engine.startRun(workflow, input, options.workflowId === undefined ? {} : { workflowId: options.workflowId });
  const record = await engine.waitForRun(workflowId, { timeoutMs, ...(options.onPoll ? { onPoll: (r) => options.onPoll?.(r.status) } : {}) });
  await engine.idle(workflowId);
  const reference = outcome(engine, workflowId, record);
  engine.forget(workflowId);
  if (schedule === undefined) return reference;

  const checked = await schedule.runChecked(engine, workflow, input, reference, { timeoutMs });
  const faulted = outcome(engine, checked.workflowId, checked.record ?? { status: 'RUNNING' });
  engine.forget(checked.workflowId);
  return {
    ...faulted,
    faults: { seed: schedule.seed, params: checked.params, injected: checked.injected, violations: checked.violations, reference },
  };
}

function isSchedule(value: unknown): value is LocalFaultSchedule {
  return typeof value === 'object' && value !== null && typeof (value as Partial<LocalFaultSchedule>).runChecked === 'function';
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
