import { pairwiseCovering, allPairs } from '../../lib/testing/crash-point-pairs';
import type { CallInfo, ExecutionInfo } from '../../lib/local/fault-plan';
import { randomFaults } from '../../lib/testing/random-faults';
import { CrashPointPlan, paramsForSeed, planForSeed, RandomPlan, ServiceFaultPlan, serviceParamsForSeed, type CrashPoint, type ServiceFaultParams } from '../../lib/testing/schedule';

const exec = (identity: string, attempt = 1): ExecutionInfo => ({ executionId: `e-${identity}-${attempt}`, functionName: 'f', requestId: 'r', attempt, maxAttempts: 3, identity, duplicate: false });
const call = (label: string, occurrence = 0, service: CallInfo['service'] = 'dynamodb'): CallInfo => ({ service, operation: label, label, occurrence, index: 0 });

test('the same seed gives the same schedule; decisions depend on identities, not on order', () => {
  expect(paramsForSeed(42)).toEqual(paramsForSeed(42));
  expect(paramsForSeed(42)).not.toEqual(paramsForSeed(43));
  const decide = (plan: RandomPlan, order: number[]): string[] => order.map((i) => plan.callFault(exec(`f@${i}`), call('PutItem(ckpt)')));
  const order = Array.from({ length: 200 }, (_, i) => i);
  const a = decide(new RandomPlan(paramsForSeed(7)), order);
  const b = decide(new RandomPlan(paramsForSeed(7)), [...order].reverse()).reverse();
  expect(a).toEqual(b);
});

test('random plans never fault the last attempt Lambda allows', () => {
  const plan = new RandomPlan({ ...paramsForSeed(1), crash: 1 });
  expect(plan.callFault(exec('x', 1), call('GetItem(ckpt)'))).not.toBe('none');
  expect(plan.callFault(exec('x', 3), call('GetItem(ckpt)'))).toBe('none');
});

test('a crash point fires once, at the first execution that makes the call', () => {
  const plan = new CrashPointPlan([{ identity: 'a', label: 'PutItem(ckpt)', occurrence: 0, phase: 'after' }]);
  expect(plan.callFault(exec('b'), call('PutItem(ckpt)'))).toBe('none');
  expect(plan.callFault(exec('a'), call('GetItem(ckpt)'))).toBe('none');
  expect(plan.callFault(exec('a'), call('PutItem(ckpt)'))).toBe('crash-after');
  expect(plan.callFault(exec('a', 2), call('PutItem(ckpt)'))).toBe('none');
  expect(plan.firedCount).toBe(1);
});

test('the pairwise covering contains every pair, at most two points per invocation per run', () => {
  const points: CrashPoint[] = Array.from({ length: 30 }, (_, i) => ({ identity: `inv${i % 7}`, label: `c${i}`, occurrence: 0, phase: 'before' }));
  const sets = pairwiseCovering(points, 8);
  const key = (p: CrashPoint): string => p.label;
  const covered = new Set(sets.flatMap((s) => s.flatMap((a) => s.map((b) => `${key(a)}|${key(b)}`))));
  for (const [a, b] of allPairs(points)) expect(covered.has(`${key(a as CrashPoint)}|${key(b as CrashPoint)}`)).toBe(true);
  for (const s of sets) {
    const per = new Map<string, number>();
    for (const p of s) per.set(p.identity, (per.get(p.identity) ?? 0) + 1);
    expect(Math.max(...per.values())).toBeLessThanOrEqual(2);
  }
  expect(sets.length).toBeLessThan(allPairs(points).length / 4);
});

describe('service faults', () => {
  const none: ServiceFaultParams = { throttle: 0, errorBefore: 0, errorAfter: 0, outage: 0, outageAttempts: 1, invokeThrottle: 0 };
  /** Service faults alone: no crash or timeout from the seed's own rates. */
  const plan = (service: Partial<ServiceFaultParams>): ServiceFaultPlan => new ServiceFaultPlan({ ...paramsForSeed(1), crash: 0, timeout: 0 }, { ...none, ...service });
  const calls = Array.from({ length: 300 }, (_, i) => [exec(`f@${i}`, 1 + (i % 2)), call(i % 3 === 0 ? 'Invoke(g@0)' : 'PutItem(ckpt)', 0, i % 3 === 0 ? 'lambda' : 'dynamodb')] as const);

  test('a seed keeps its call and event faults; its service rates come from a stream of their own', () => {
    expect(serviceParamsForSeed(42)).toEqual(serviceParamsForSeed(42));
    expect(serviceParamsForSeed(42)).not.toEqual(serviceParamsForSeed(43));
    expect(planForSeed(42)).toBeInstanceOf(RandomPlan);
    expect(planForSeed(42)).not.toBeInstanceOf(ServiceFaultPlan);
    const service = planForSeed(42, true) as ServiceFaultPlan;
    expect(service.params).toEqual(paramsForSeed(42));
    expect(service.service).toEqual(serviceParamsForSeed(42));
    const base = new RandomPlan({ ...paramsForSeed(42), crash: 0.3, timeout: 0.1 });
    const both = new ServiceFaultPlan(base.params, { ...none, throttle: 0.5, invokeThrottle: 0.5 });
    const killing = ['crash-before', 'crash-after', 'timeout'];
    const decisions = calls.map(([e, c]) => [base.callFault(e, c), both.callFault(e, c)]);
    expect(decisions.filter(([b]) => killing.includes(b as string))).toEqual(decisions.filter(([, s]) => killing.includes(s as string)));
    expect(decisions.filter(([b]) => b !== 'none').length).toBeGreaterThan(0);
    expect(both.eventFault('f', 'f@1')).toEqual(base.eventFault('f', 'f@1'));
  });

  test('DynamoDB calls meet DynamoDB\'s failures, Invoke calls only 429s, and the last attempt none', () => {
    const p = plan({ throttle: 0.25, errorBefore: 0.25, errorAfter: 0.25, outage: 0.25, invokeThrottle: 1 });
    const faults = calls.map(([e, c]) => [c.service, e.attempt, p.callFault({ ...e, maxAttempts: 2 }, c)] as const);
    expect(new Set(faults.filter(([s, a]) => s === 'lambda' && a === 1).map(([, , f]) => f))).toEqual(new Set(['throttling']));
    expect(new Set(faults.filter(([s, a]) => s === 'dynamodb' && a === 1).map(([, , f]) => f))).toEqual(new Set(['throughput', 'throttling', 'error-before', 'error-after', 'unreachable']));
    expect(faults.filter(([, a]) => a === 2).every(([, , f]) => f === 'none')).toBe(true);
    expect(Object.values(p.serviceInjected).every((n) => n > 0)).toBe(true);
    expect(p.counts()).toMatchObject({ ...p.injected, ...p.serviceInjected });
  });

  test('an outage lasts several attempts of the call that meets it, then ends', () => {
    const attempts = (p: ServiceFaultPlan, e: ExecutionInfo): string[] => Array.from({ length: 12 }, (_, i) => p.callFault(e, call('GetItem(ckpt)', i)));
    const single = plan({ outage: 1, outageAttempts: 1 });
    expect(attempts(single, exec('x'))).toEqual(Array(12).fill('unreachable'));
    expect(single.serviceInjected.outage).toBe(12);
    // Outages of up to 4 attempts: the 12 attempts fall into fewer outages, each drawn once.
    const long = plan({ outage: 1, outageAttempts: 4 });
    expect(attempts(long, exec('x'))).toEqual(Array(12).fill('unreachable'));
    expect(long.serviceInjected.outage).toBeLessThan(12);
    expect(long.serviceInjected.outage).toBeGreaterThanOrEqual(3);
    // The outage is the call's: another call of the execution, or another attempt, draws its own.
    const once = plan({ outage: 0.5, outageAttempts: 5 });
    const begun = Array.from({ length: 40 }, (_, i) => once.callFault(exec('y'), call(`GetItem(ckpt)#${i}`)));
    expect(begun.filter((f) => f === 'unreachable').length).toBe(once.serviceInjected.outage);
  });
});

describe('randomFaults, the schedule run() takes', () => {
  test("draws the seed's rates when made, and the services' too only when asked", () => {
    expect(randomFaults(7).params).toEqual(paramsForSeed(7));
    expect(randomFaults(7).serviceParams).toBeUndefined();
    expect(randomFaults(7, { serviceFaults: true }).serviceParams).toEqual(serviceParamsForSeed(7));
    expect(randomFaults(8).params).not.toEqual(paramsForSeed(7));
  });

  test('refuses a seed that is not an integer', () => {
    expect(() => randomFaults(1.5)).toThrow('randomFaults takes an integer seed, got 1.5');
  });
});
