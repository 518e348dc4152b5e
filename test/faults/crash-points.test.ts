/**
 * Every single crash point and every pair of crash points of seven small
 * workflows (3-step chain, 3-way parallel + fan-in, map of 5 + fan-in, nested
 * map, choice, loop; and a run that fails through Lambda's retries and the
 * failure recorder), synthesized with the real DSL + construct and run on the
 * local engine. Every single point runs alone; the pairs run as a pairwise
 * covering (every pair of points together in some run of up to 8 points, at
 * most 2 per invocation), which keeps this suite to a few minutes;
 * `npm run test:faults -- --crash-points` runs every pair alone (one run per pair).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { enumerateCrashPoints } from '../../lib/local/campaign';
import { LocalEngine } from '../../lib/local/engine';
import { synthesize } from '../../lib/local/synth';
import { FAULT_APP_DIR, FAULT_TARGETS } from './app/targets';

jest.setTimeout(300_000);

let engine: LocalEngine;
let outDir: string;

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-fault-app-'));
  await synthesize({ appDir: FAULT_APP_DIR, outDir });
  engine = await LocalEngine.fromCloudAssembly(outDir, { timeScale: 0.0005, ttlIntervalMs: 60_000 });
});

afterAll(async () => {
  await engine?.stop();
  fs.rmSync(outDir, { recursive: true, force: true });
});

describe.each(FAULT_TARGETS.map((t) => [t.workflow, t] as const))('%s', (name, target) => {
  test('every crash point, and every pair of crash points together', async () => {
    const s = await enumerateCrashPoints(engine, target, { pairs: 'covering', setSize: 8, concurrency: 8 });
    const notes = [...s.notes].map(([n, k]) => `\n  note (${k}x): ${n}`).join('');
    process.stdout.write(`${name}: ${s.points} crash points (${s.singles} single runs); ${s.pairs} pairs of ${s.pairPoints} points in ${s.pairSchedules} runs; ${s.executions} executions, ${s.callFaults} crashes injected${notes}\n`);
    expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')}`)).toEqual([]);
    expect(s.singles).toBeGreaterThan(0);
  });
});
