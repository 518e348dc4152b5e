/**
 * A bounded number of seeded random fault schedules (crashes before/after
 * calls, timeouts, concurrent and late duplicates, re-runs of successes,
 * reordering) over every example workflow (the Orders example's effects
 * checked on its ledger and a real PostgreSQL), every fault-test workflow and the
 * shapes of issue 14 (the extended set), then as many again with the
 * services' failures too (DynamoDB throttling, 500s before and after a
 * write, short outages, Lambda 429s): over the same set in `npm run
 * test:full`, over the fault-test workflows in `npm test`. `npm run test:faults -- --seeds N
 * --extended [--service-faults]` runs many more; a failing seed replays with
 * `npm run test:faults -- --extended [--service-faults] --seed S`.
 */
import { randomSchedules, type Target } from '../../lib/testing/campaign';
import { exampleTargets, FAULT_TARGETS, SHAPE_TARGETS } from './app/targets';
import { ROOT, useFaultEngine } from './fault-engine';
import { FULL_DEPTH } from '../support/depth';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const faultEngine = useFaultEngine({ examples: true });

/** Every example workflow, every fault-test workflow and the shapes of issue 14. */
const extendedSet = async (): Promise<Target[]> => [...(await exampleTargets(ROOT, faultEngine(), faultEngine.database())), ...FAULT_TARGETS, ...SHAPE_TARGETS];

/** Seeds 1..n: with n the number of workflows, every workflow once. */
const seeds = (n: number): number[] => Array.from({ length: Number(process.env.UNUM_FAULT_SEEDS ?? n) }, (_, i) => i + 1);

test('random fault schedules over the extended set keep every invariant', async () => {
  const targets = await extendedSet();
  expect(targets.length).toBeGreaterThanOrEqual(FAULT_TARGETS.length + SHAPE_TARGETS.length + 2);
  // The Orders example is among them, with its effects counted (invariant 7).
  expect(targets.filter((t) => t.effects).map((t) => t.workflow)).toEqual(['Orders']);
  const s = await randomSchedules(faultEngine(), targets, seeds(targets.length), { concurrency: 6 });
  process.stdout.write(`${s.schedules} seeds: ${s.executions} executions, ${s.callFaults} call faults, injected ${JSON.stringify(s.injected)}\n`);
  expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')} (replay: npm run test:faults -- --extended --seed ${f.what.split(' ')[1]})`)).toEqual([]);
  expect(s.callFaults).toBeGreaterThan(0);
  expect(s.serviceFaults).toBe(0);
});

test('with service faults too, every invariant still holds', async () => {
  // The quick depth: the fault-test workflows (each service fault on a chosen call is service-faults.test.ts).
  const targets = FULL_DEPTH ? await extendedSet() : FAULT_TARGETS;
  const s = await randomSchedules(faultEngine(), targets, seeds(targets.length), { concurrency: 6, serviceFaults: true });
  process.stdout.write(`${s.schedules} seeds: ${s.executions} executions, ${s.callFaults} call faults, ${s.serviceFaults} service faults, injected ${JSON.stringify(s.injected)}\n`);
  expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')} (replay: npm run test:faults -- --extended --service-faults --seed ${f.what.split(' ')[1]})`)).toEqual([]);
  expect(s.serviceFaults).toBeGreaterThan(0);
});
