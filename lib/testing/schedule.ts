/**
 * Fault schedules: the two kinds of fault plan the tests use.
 *
 * - `CrashPointPlan`: crash at given points, each once (the single and pair
 *   enumerations). A point names an invocation, a call (label + occurrence)
 *   and a phase; it fires at the first execution of that invocation that
 *   makes the call, on any attempt, so the second point of a pair on the same
 *   invocation hits its retry.
 * - `RandomPlan`: faults drawn from a seed. fast-check turns the seed into
 *   rates (crashes, timeouts, duplicates, late duplicates, re-runs of
 *   successes, reordering, stale answers to eventually consistent reads);
 *   each decision hashes the seed's salt with the identities of the
 *   execution and call, so it does not depend on timing and
 *   the same seed replays the same schedule. Each drawn fault fires once per
 *   run: an invocation invoked again (by a duplicate predecessor) does not
 *   meet the same fault again, or faults would multiply with every stage.
 * - `ServiceFaultPlan`: a `RandomPlan` whose calls may also meet the
 *   services' own failures (the campaign's `--service-faults` mode):
 *   DynamoDB throttling, 500s before and after a write took effect, short
 *   outages, and Lambda 429s, which the SDK's retries in the sandbox and
 *   Lambda's retries of the execution must absorb.
 */
import { createHash } from 'crypto';
import type * as FastCheck from 'fast-check';
import type { CallFault, CallInfo, EventFault, ExecutionInfo, FaultPlan, ServiceFault } from '../local/fault-plan';
import { isMissingModule, missingPeer } from '../local/optional-peer';

/**
 * fast-check, loaded when a seed's rates are first drawn: it is an optional
 * peer dependency, and the crash-point plans do without it.
 */
function fastCheck(): typeof FastCheck {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, so that unum-cdk/testing loads without it
    return require('fast-check') as typeof FastCheck;
  } catch (err) {
    if (isMissingModule(err, 'fast-check')) throw missingPeer('unum-cdk/testing', 'fast-check', 'the random fault schedules draw their rates from a seed with it');
    throw err;
  }
}

export interface CrashPoint {
  readonly identity: string;
  readonly label: string;
  readonly occurrence: number;
  readonly phase: 'before' | 'after';
}

export function describePoint(p: CrashPoint): string {
  return `${p.phase} ${p.label}#${p.occurrence} of ${p.identity}`;
}

export class CrashPointPlan implements FaultPlan {
  private readonly fired = new Set<number>();

  constructor(readonly points: readonly CrashPoint[]) {}

  callFault(exec: ExecutionInfo, call: CallInfo): CallFault {
    const i = this.points.findIndex((p, k) => !this.fired.has(k) && p.identity === exec.identity && p.label === call.label && p.occurrence === call.occurrence);
    if (i < 0) return 'none';
    this.fired.add(i);
    return this.points[i]?.phase === 'before' ? 'crash-before' : 'crash-after';
  }

  eventFault(): EventFault {
    return { delayMs: 0, duplicate: 'none' };
  }

  rerunSucceeded(): boolean {
    return false;
  }

  /** How many points fired (a point on a path the run did not take never fires). */
  get firedCount(): number {
    return this.fired.size;
  }
}

export interface RandomFaultParams {
  readonly salt: number;
  /** Probability that a call crashes its execution (before or after the call, even odds). */
  readonly crash: number;
  /** Probability that a call hangs until its execution is killed as timed out. */
  readonly timeout: number;
  /** Probability that an async event is delivered twice at once. */
  readonly duplicate: number;
  /** Probability that an async event is delivered again after the run finished. */
  readonly late: number;
  /** Probability that a successful async execution runs once more. */
  readonly rerun: number;
  /** Events wait up to this long before delivery (different waits reorder them). */
  readonly reorderMs: number;
  /** Probability that an eventually consistent read is answered by a replica that has none of its items. */
  readonly stale: number;
}

/** A rate in [0, max], uniform (no bias towards the edges: every seed should inject faults). */
const rate = (fc: typeof FastCheck, max: number): FastCheck.Arbitrary<number> => fc.noBias(fc.integer({ min: 0, max: 1000 })).map((n) => (n / 1000) * max);

function randomFaultParams(fc: typeof FastCheck): FastCheck.Arbitrary<RandomFaultParams> {
  return fc.record({
    salt: fc.noBias(fc.integer({ min: 0, max: 0x7fffffff })),
    crash: rate(fc, 0.1),
    timeout: rate(fc, 0.02),
    duplicate: rate(fc, 0.2),
    late: rate(fc, 0.2),
    rerun: rate(fc, 0.1),
    reorderMs: fc.noBias(fc.integer({ min: 0, max: 30 })),
    stale: rate(fc, 0.5),
  });
}

/** The fault parameters of a seed: the same seed always gives the same ones. */
export function paramsForSeed(seed: number): RandomFaultParams {
  const fc = fastCheck();
  return fc.sample(randomFaultParams(fc), { seed, numRuns: 1 })[0] as RandomFaultParams;
}

/** The kinds of fault a `RandomPlan` draws, as it counts them. */
export const RANDOM_FAULT_KINDS = ['crash', 'timeout', 'duplicate', 'late', 'rerun', 'stale'] as const;

export class RandomPlan implements FaultPlan {
  /** Faults this plan injected, by kind. */
  readonly injected: Record<(typeof RANDOM_FAULT_KINDS)[number], number> = { crash: 0, timeout: 0, duplicate: 0, late: 0, rerun: 0, stale: 0 };
  private readonly fired = new Set<string>();

  constructor(readonly params: RandomFaultParams) {}

  callFault(exec: ExecutionInfo, call: CallInfo): CallFault {
    // Never fault the last attempt Lambda allows: the run would fail for a
    // reason the runtime cannot control, and the oracle wants its result.
    if (exec.attempt >= exec.maxAttempts) return 'none';
    const key = `${exec.identity}|${exec.attempt}|${exec.duplicate}|${call.label}|${call.occurrence}`;
    if (!this.once(`call|${key}`)) return 'none';
    const r = this.draw(`call|${key}`);
    if (r < this.params.crash) {
      this.injected.crash++;
      return this.draw(`phase|${key}`) < 0.5 ? 'crash-before' : 'crash-after';
    }
    if (r < this.params.crash + this.params.timeout) {
      this.injected.timeout++;
      return 'timeout';
    }
    if (call.eventuallyConsistent && this.draw(`stale|${key}`) < this.params.stale) {
      this.injected.stale++;
      return 'stale';
    }
    return 'none';
  }

  eventFault(functionName: string, identity: string): EventFault {
    const key = `${functionName}|${identity}`;
    const delayMs = Math.floor(this.draw(`delay|${key}`) * this.params.reorderMs);
    const d = this.once(`dup|${key}`) ? this.draw(`dup|${key}`) : 1;
    if (d < this.params.duplicate) {
      this.injected.duplicate++;
      return { delayMs, duplicate: 'concurrent' };
    }
    if (d < this.params.duplicate + this.params.late) {
      this.injected.late++;
      return { delayMs, duplicate: 'late' };
    }
    return { delayMs, duplicate: 'none' };
  }

  rerunSucceeded(exec: ExecutionInfo): boolean {
    const key = `rerun|${exec.identity}|${exec.attempt}`;
    const yes = this.once(key) && this.draw(key) < this.params.rerun;
    if (yes) this.injected.rerun++;
    return yes;
  }

  /** Every fault injected so far, by kind. */
  counts(): Readonly<Record<string, number>> {
    return { ...this.injected };
  }

  /** True the first time a decision key comes up in this run. */
  protected once(key: string): boolean {
    if (this.fired.has(key)) return false;
    this.fired.add(key);
    return true;
  }

  /** A uniform number in [0, 1) from the salt and a key. */
  protected draw(key: string): number {
    return createHash('sha256').update(`${this.params.salt}|${key}`).digest().readUInt32BE(0) / 2 ** 32;
  }
}

export interface ServiceFaultParams {
  /** Probability that a DynamoDB call is throttled: ProvisionedThroughputExceededException or ThrottlingException, even odds. */
  readonly throttle: number;
  /** Probability that a DynamoDB call fails with a 500 before it reaches DynamoDB. */
  readonly errorBefore: number;
  /** Probability that a DynamoDB call fails with a 500 after it took effect (the response is lost). */
  readonly errorAfter: number;
  /** Probability that a DynamoDB outage begins at a call. */
  readonly outage: number;
  /**
   * An outage lasts 1 to this many attempts of the call that meets it. The
   * SDK makes 3 or 4 attempts (4 for DynamoDB in current versions); an outage
   * that outlasts them fails the execution, and Lambda retries it.
   */
  readonly outageAttempts: number;
  /** Probability that a Lambda Invoke is refused with a 429 TooManyRequestsException. */
  readonly invokeThrottle: number;
}

function serviceFaultParams(fc: typeof FastCheck): FastCheck.Arbitrary<ServiceFaultParams> {
  return fc.record({
    throttle: rate(fc, 0.1),
    errorBefore: rate(fc, 0.05),
    errorAfter: rate(fc, 0.05),
    outage: rate(fc, 0.03),
    outageAttempts: fc.noBias(fc.integer({ min: 1, max: 5 })),
    invokeThrottle: rate(fc, 0.1),
  });
}

/**
 * The service-fault rates of a seed, drawn from a stream of their own so that
 * the seed's `paramsForSeed` (and with it every call and event fault a seed
 * draws) stays what it is without service faults.
 */
export function serviceParamsForSeed(seed: number): ServiceFaultParams {
  const fc = fastCheck();
  return fc.sample(serviceFaultParams(fc), { seed: seed ^ 0x5e41ce, numRuns: 1 })[0] as ServiceFaultParams;
}

/** The kinds of service fault a `ServiceFaultPlan` draws, as it counts them (`outage`: outages begun). */
export const SERVICE_FAULT_KINDS = ['throughput', 'throttling', 'error-before', 'error-after', 'outage', 'invoke-throttling'] as const;

export class ServiceFaultPlan extends RandomPlan {
  /** Service faults this plan injected, by kind. */
  readonly serviceInjected: Record<(typeof SERVICE_FAULT_KINDS)[number], number> = { throughput: 0, throttling: 0, 'error-before': 0, 'error-after': 0, outage: 0, 'invoke-throttling': 0 };
  /** Outages under way: per execution and call label, the first occurrence (SDK attempt) after the outage. */
  private readonly outages = new Map<string, number>();

  constructor(params: RandomFaultParams, readonly service: ServiceFaultParams) {
    super(params);
  }

  override callFault(exec: ExecutionInfo, call: CallInfo): CallFault {
    const fault = super.callFault(exec, call);
    // The last attempt Lambda allows stays fault-free here too: the SDK could give up and the run would fail.
    if (fault !== 'none' || exec.attempt >= exec.maxAttempts) return fault;
    const execution = `${exec.identity}|${exec.attempt}|${exec.duplicate}`;
    const window = `${execution}|${call.label}`;
    if (call.occurrence < (this.outages.get(window) ?? 0)) return 'unreachable';
    const key = `svc|${window}|${call.occurrence}`;
    if (!this.once(key)) return 'none';
    const r = this.draw(key);
    const s = this.service;
    // Lambda's Invoke and Scheduler's CreateSchedule: throttled at the invoke rate (counted with the invokes).
    if (call.service !== 'dynamodb') return r < s.invokeThrottle ? this.count('invoke-throttling', 'throttling') : 'none';
    if (r < s.throttle) return this.draw(`throttle|${key}`) < 0.5 ? this.count('throughput', 'throughput') : this.count('throttling', 'throttling');
    if (r < s.throttle + s.errorBefore) return this.count('error-before', 'error-before');
    if (r < s.throttle + s.errorBefore + s.errorAfter) return this.count('error-after', 'error-after');
    if (r < s.throttle + s.errorBefore + s.errorAfter + s.outage) {
      this.outages.set(window, call.occurrence + 1 + Math.floor(this.draw(`outage|${key}`) * s.outageAttempts));
      return this.count('outage', 'unreachable');
    }
    return 'none';
  }

  override counts(): Readonly<Record<string, number>> {
    return { ...this.injected, ...this.serviceInjected };
  }

  private count(kind: keyof ServiceFaultPlan['serviceInjected'], fault: ServiceFault): ServiceFault {
    this.serviceInjected[kind]++;
    return fault;
  }
}

/** The plan of a seed: its call and event faults, and with `serviceFaults` the services' failures too. */
export function planForSeed(seed: number, serviceFaults = false): RandomPlan {
  const params = paramsForSeed(seed);
  return serviceFaults ? new ServiceFaultPlan(params, serviceParamsForSeed(seed)) : new RandomPlan(params);
}
