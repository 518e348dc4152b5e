import { pairwiseCovering, allPairs } from '../../lib/local/covering';
import type { CallInfo, ExecutionInfo } from '../../lib/local/fault-plan';
import { CrashPointPlan, paramsForSeed, RandomPlan, type CrashPoint } from '../../lib/local/schedule';

const exec = (identity: string, attempt = 1): ExecutionInfo => ({ executionId: `e-${identity}-${attempt}`, functionName: 'f', requestId: 'r', attempt, maxAttempts: 3, identity, duplicate: false });
const call = (label: string, occurrence = 0): CallInfo => ({ service: 'dynamodb', operation: label, label, occurrence, index: 0 });

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
