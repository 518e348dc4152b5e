/**
 * A bounded number of seeded random fault schedules (crashes before/after
 * calls, timeouts, concurrent and late duplicates, re-runs of successes,
 * reordering) over every example workflow and every fault-test workflow.
 * `npm run test:faults -- --seeds N` runs many more; a failing seed replays
 * with `npm run test:faults -- --seed S`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { randomSchedules } from '../../lib/local/campaign';
import { LocalEngine } from '../../lib/local/engine';
import { synthesize } from '../../lib/local/synth';
import { exampleTargets, FAULT_APP_DIR, FAULT_TARGETS } from './app/targets';

const ROOT = path.join(__dirname, '..', '..');
const SEEDS = Number(process.env.UNUM_FAULT_SEEDS ?? 18);
jest.setTimeout(300_000);

let engine: LocalEngine;
const dirs: string[] = [];

beforeAll(async () => {
  dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), 'unum-examples-')), fs.mkdtempSync(path.join(os.tmpdir(), 'unum-fault-app-')));
  await Promise.all([synthesize({ appDir: ROOT, outDir: dirs[0] as string }), synthesize({ appDir: FAULT_APP_DIR, outDir: dirs[1] as string })]);
  engine = await LocalEngine.fromCloudAssembly(dirs, { timeScale: 0.0005, ttlIntervalMs: 60_000 });
});

afterAll(async () => {
  await engine?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

test(`${SEEDS} random fault schedules over all workflows keep every invariant`, async () => {
  const targets = [...exampleTargets(ROOT, engine.workflows.map((w) => w.name)), ...FAULT_TARGETS];
  expect(targets.length).toBeGreaterThanOrEqual(FAULT_TARGETS.length + 2);
  const seeds = Array.from({ length: SEEDS }, (_, i) => i + 1);
  const s = await randomSchedules(engine, targets, seeds, { concurrency: 6 });
  process.stdout.write(`${s.schedules} seeds: ${s.executions} executions, ${s.callFaults} call faults, injected ${JSON.stringify(s.injected)}\n`);
  expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')} (replay: npm run test:faults -- --seed ${f.what.split(' ')[1]})`)).toEqual([]);
  expect(s.callFaults).toBeGreaterThan(0);
});
