/**
 * A bounded number of seeded random fault schedules (crashes before/after
 * calls, timeouts, concurrent and late duplicates, re-runs of successes,
 * reordering) over every example workflow, every fault-test workflow and the
 * shapes of issue 14 (the extended set), then as many again with the
 * services' failures too (DynamoDB throttling, 500s before and after a
 * write, short outages, Lambda 429s). `npm run test:faults -- --seeds N
 * --extended [--service-faults]` runs many more; a failing seed replays with
 * `npm run test:faults -- --extended [--service-faults] --seed S`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { randomSchedules, type Target } from '../../lib/local/campaign';
import { LocalEngine } from '../../lib/local/engine';
import { synthesize } from '../../lib/local/synth';
import { exampleTargets, FAULT_APP_DIR, FAULT_TARGETS, SHAPE_TARGETS } from './app/targets';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';

const ROOT = path.join(__dirname, '..', '..');
jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let engine: LocalEngine;
let targets: Target[];
const dirs: string[] = [];

beforeAll(async () => {
  dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), 'unum-examples-')), fs.mkdtempSync(path.join(os.tmpdir(), 'unum-fault-app-')));
  await Promise.all([synthesize({ appDir: ROOT, outDir: dirs[0] as string }), synthesize({ appDir: FAULT_APP_DIR, outDir: dirs[1] as string })]);
  engine = await LocalEngine.fromCloudAssembly(dirs, { timeScale: 0.0005, ttlIntervalMs: 60_000 });
  targets = [...exampleTargets(ROOT, engine.workflows.map((w) => w.name)), ...FAULT_TARGETS, ...SHAPE_TARGETS];
});

afterAll(async () => {
  await engine?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Seeds 1..n: with n the number of workflows, every workflow once. */
const seeds = (n: number): number[] => Array.from({ length: Number(process.env.UNUM_FAULT_SEEDS ?? n) }, (_, i) => i + 1);

test('random fault schedules over the extended set keep every invariant', async () => {
  expect(targets.length).toBeGreaterThanOrEqual(FAULT_TARGETS.length + SHAPE_TARGETS.length + 2);
  const s = await randomSchedules(engine, targets, seeds(targets.length), { concurrency: 6 });
  process.stdout.write(`${s.schedules} seeds: ${s.executions} executions, ${s.callFaults} call faults, injected ${JSON.stringify(s.injected)}\n`);
  expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')} (replay: npm run test:faults -- --extended --seed ${f.what.split(' ')[1]})`)).toEqual([]);
  expect(s.callFaults).toBeGreaterThan(0);
  expect(s.serviceFaults).toBe(0);
});

test('with service faults too, every invariant still holds', async () => {
  const s = await randomSchedules(engine, targets, seeds(targets.length), { concurrency: 6, serviceFaults: true });
  process.stdout.write(`${s.schedules} seeds: ${s.executions} executions, ${s.callFaults} call faults, ${s.serviceFaults} service faults, injected ${JSON.stringify(s.injected)}\n`);
  expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')} (replay: npm run test:faults -- --extended --service-faults --seed ${f.what.split(' ')[1]})`)).toEqual([]);
  expect(s.serviceFaults).toBeGreaterThan(0);
});
