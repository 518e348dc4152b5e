/**
 * Golem's crash points with the process really killed (issue 35): a child
 * process runs the invocation's PostgreSQL effect and SIGKILLs itself at a
 * labelled point (test/effects/fixtures/pg-crash-child.ts); its connections
 * die with it, as a Lambda sandbox's do. Then the same invocation runs again
 * and must apply the effect exactly once and return the committed row's id.
 * UNUM_PG_KILL_ROUNDS=<n> repeats every point n times.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { PostgresStrategy } from '../../runtime/effects/postgres';
import { useTestDb } from '../support/dynamodb';
import { usePostgres } from '../support/postgres';
import { CRASH_POINTS, type ChildConfig, type CrashPoint, runOrder } from './fixtures/pg-crash-child';
import { appliedTable, applications } from './postgres-setup';

jest.setTimeout(120_000);
const db = useTestDb();
const pg = usePostgres();
const ROUNDS = Number(process.env.UNUM_PG_KILL_ROUNDS ?? 1);

let dir: string;
let bundle: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-pg-kill-'));
  bundle = path.join(dir, 'child.js');
  buildSync({ entryPoints: [path.join(__dirname, 'fixtures', 'pg-crash-child.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, external: ['pg-native'], logLevel: 'error' });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the child; resolves to the signal that ended it (or its exit code) and what it printed. */
function child(config: ChildConfig): Promise<{ signal: NodeJS.Signals | null; code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [bundle], { env: { ...process.env, UNUM_PG_CRASH_CHILD: JSON.stringify(config) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code, signal) => resolve({ signal, code, stdout, stderr }));
  });
}

let n = 0;
describe.each<PostgresStrategy>(['internal-table', 'introspection'])('%s: the process SIGKILLed', (strategy) => {
  const cases = CRASH_POINTS.flatMap((point) => Array.from({ length: ROUNDS }, (_, round) => [point, round] as const));
  test.each(cases)('%s (round %i): the invocation run again applies it once and returns its value', async (crashAt: CrashPoint) => {
    const pool = pg.pool(2);
    const applied = await appliedTable(pool);
    const { name: table } = await db.table();
    const config: ChildConfig = {
      pgUrl: pg.url,
      dynamoEndpoint: db.endpoint,
      table,
      invocation: `inv-${++n}`,
      orderId: `kill-${strategy}-${crashAt}-${n}`,
      applied,
      markers: `unum_effects_kill_${process.pid}`,
      strategy,
      crashAt,
    };
    const killed = await child(config);
    expect({ signal: killed.signal, stderr: killed.stderr }).toEqual({ signal: 'SIGKILL', stderr: '' });
    const value = await runOrder({ ...config, crashAt: undefined });
    expect(await applications(pool, applied, config.orderId)).toBe(1);
    const [row] = (await pool.query(`SELECT id FROM ${applied} WHERE order_id = $1`, [config.orderId])).rows;
    expect(value).toBe(row.id);
    // And once more, as a late duplicate: the same value, nothing applied.
    expect(await runOrder({ ...config, crashAt: undefined })).toBe(row.id);
    expect(await applications(pool, applied, config.orderId)).toBe(1);
  });
});
