/**
 * The fault schedule `run`'s `faults` option takes (`unum-cdk/local`):
 * a seed's random plan, one checked run under it. The local engine only
 * calls `runChecked`; the plan, the checked run and the invariants live here
 * with the rest of the fault tooling, so the engine needs none of them.
 */
import type { Json } from '../../runtime/contract/ir';
import type { LocalEngine } from '../local/engine';
import type { LocalFaultCheck, LocalFaultSchedule, LocalRunOutcome } from '../local/run-workflow';
import { checkedRun } from './fault-run';
import { paramsForSeed, RandomPlan, serviceParamsForSeed, ServiceFaultPlan, type RandomFaultParams, type ServiceFaultParams } from './schedule';

/** Options of `randomFaults`. */
export interface RandomFaultsOptions {
  /**
   * Also fail calls as the services do (DynamoDB throttling, 500s before and
   * after a write, short outages, Lambda 429s), which the SDK's retries and
   * Lambda's must absorb.
   * @default false
   */
  readonly serviceFaults?: boolean;
}

/** The random fault schedule of a seed, for `run(workflow, input, { faults })`. */
export class RandomFaults implements LocalFaultSchedule {
  /** The rates the seed draws: crashes, timeouts, duplicates, late duplicates, re-runs, reordering, stale reads. */
  readonly params: RandomFaultParams;
  /** The services' failure rates the seed draws; undefined without `serviceFaults`. */
  readonly serviceParams?: ServiceFaultParams;

  constructor(
    /** The seed: the same seed replays the same schedule. */
    readonly seed: number,
    options: RandomFaultsOptions = {},
  ) {
    // Drawn here, so that a missing fast-check shows before any run starts.
    this.params = paramsForSeed(seed);
    if (options.serviceFaults) this.serviceParams = serviceParamsForSeed(seed);
  }

  async runChecked(engine: LocalEngine, workflow: string, input: Json, reference: LocalRunOutcome, options: { readonly timeoutMs: number }): Promise<LocalFaultCheck> {
    // A fresh plan per run: a plan fires each drawn fault once and counts what it injected.
    const plan = this.serviceParams ? new ServiceFaultPlan(this.params, this.serviceParams) : new RandomPlan(this.params);
    const expectation = reference.status === 'SUCCEEDED' ? { kind: 'result' as const, result: reference.result ?? null } : { kind: 'failed' as const };
    const checked = await checkedRun(engine, workflow, input, plan, expectation, { timeoutMs: options.timeoutMs, keep: true });
    const { crash, timeout, duplicate, late, rerun } = plan.injected;
    return {
      workflowId: checked.workflowId,
      ...(checked.record ? { record: checked.record } : {}),
      params: { ...this.params, ...this.serviceParams },
      injected: { crash, timeout, duplicate, late, rerun },
      violations: checked.violations,
    };
  }
}

/**
 * The random fault schedule of `seed`: crashes before and after calls,
 * timeouts, duplicate and late deliveries, re-runs of successes, reordered
 * events and stale reads, at rates drawn from the seed (with fast-check, an
 * optional peer dependency: `npm install --save-dev fast-check`).
 *
 * ```ts
 * const run = await engine.run('Orders', { id: 1 }, { faults: randomFaults(7) });
 * expect(run.faults?.violations).toEqual([]);
 * ```
 */
export function randomFaults(seed: number, options: RandomFaultsOptions = {}): RandomFaults {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`randomFaults takes an integer seed, got ${seed}`);
  return new RandomFaults(seed, options);
}
