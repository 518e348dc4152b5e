/**
 * The launch tree on the local engine (docs/architecture.md "Launch tree"):
 * the fault-test app's LaunchTree workflow (launch width 2: 9 items through
 * launchers three deep, then a bounded Map of 9 whose first 3 go through
 * launchers), with a crash before and after every call of every launcher,
 * and under random schedules with many concurrent and late duplicates.
 * Every invariant of the checker holds, invariant 6 (maxConcurrency) included.
 */
import { type Target } from '../../lib/testing/campaign';
import { isLauncher } from '../../lib/local/events';
import { checkedRun, profile, referenceRun, withConcurrency } from '../../lib/testing/fault-run';
import { type CrashPoint, CrashPointPlan, describePoint, RandomPlan } from '../../lib/testing/schedule';
import { expectationFor } from '../../lib/testing/campaign';
import { SHAPE_TARGETS } from './app/targets';
import { useFaultEngine } from './fault-engine';
import { FULL_DEPTH } from '../support/depth';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const faultEngine = useFaultEngine();
const target = SHAPE_TARGETS.find((t) => t.workflow === 'LaunchTree') as Target;

/** At the quick depth, of each launcher the crash halfway through its calls: its retry must launch the rest, and no item twice in effect. */
function atDepth(points: readonly CrashPoint[]): readonly CrashPoint[] {
  if (FULL_DEPTH) return points;
  const launchers = [...new Set(points.map((pt) => pt.identity))];
  return launchers.map((launcher) => {
    const own = points.filter((pt) => pt.identity === launcher);
    return own[Math.floor(own.length / 2)] as CrashPoint;
  });
}

test('a crash before or after any call of any launcher: the retry launches the rest, every item runs once in effect', async () => {
  const engine = faultEngine();
  const p = await profile(engine, target.workflow, target.input);
  const expectation = expectationFor(target, p.record, engine);
  const launcherPoints = p.points.filter((pt) => isLauncher(pt.identity));
  // 8 launchers of the 9 items, 2 of the bounded Map's first 3; each reads the origin and invokes.
  expect(new Set(launcherPoints.map((pt) => pt.identity)).size).toBe(10);
  const points = atDepth(launcherPoints);
  expect(new Set(points.map((pt) => pt.identity)).size).toBe(10);
  const runs = await withConcurrency(points, 8, async (pt) => ({ what: describePoint(pt), run: await checkedRun(engine, target.workflow, target.input, new CrashPointPlan([pt]), expectation) }));
  process.stdout.write(`LaunchTree: ${points.length} launcher crash points, ${runs.reduce((n, r) => n + r.run.callFaults, 0)} crashes injected\n`);
  expect(runs.filter((r) => r.run.violations.length > 0).map((r) => `${r.what}: ${r.run.violations.join('; ')}`)).toEqual([]);
  expect(runs.every((r) => r.run.callFaults === 1)).toBe(true);
});

test('random schedules with many duplicate and late launchers keep every invariant', async () => {
  const engine = faultEngine();
  const expectation = expectationFor(target, await referenceRun(engine, target.workflow, target.input), engine);
  const seeds = Array.from({ length: FULL_DEPTH ? 8 : 1 }, (_, i) => i + 1);
  const runs = await withConcurrency(seeds, 4, async (salt) => {
    const plan = new RandomPlan({ salt, crash: 0.05, timeout: 0.01, duplicate: 0.5, late: 0.5, rerun: 0.2, reorderMs: 20, stale: 0.3 });
    return { salt, plan, run: await checkedRun(engine, target.workflow, target.input, plan, expectation, { workflowId: `launch-tree-${salt}-${Date.now()}` }) };
  });
  expect(runs.filter((r) => r.run.violations.length > 0).map((r) => `salt ${r.salt}: ${r.run.violations.join('; ')}`)).toEqual([]);
  const injected = runs.reduce((sum, r) => sum + r.plan.injected.duplicate + r.plan.injected.late, 0);
  process.stdout.write(`LaunchTree: ${runs.length} random schedules, ${injected} duplicate or late deliveries\n`);
  expect(runs.every((r) => r.plan.injected.duplicate > 0 && r.plan.injected.late > 0)).toBe(true);
});
