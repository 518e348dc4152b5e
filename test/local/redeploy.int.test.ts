/**
 * Deploying while runs are in flight (issue 34) on the local engine, with
 * test/local/redeploy-app synthesized as version 1 and version 2: every run
 * finishes on the deployment it started on. A run waiting on a callback Task
 * across the deploy (version 2 adds a Parallel branch, renames a node and
 * changes a handler's result) finishes with version 1's result, and a run
 * started after it gets version 2's; a run started while the deploy is half
 * done runs entirely on version 1; a run that FAILED on version 1 stays on it
 * when redriven plainly, and succeeds when redriven onto the latest deployment
 * (same graph, the broken handler fixed).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readAssembly } from '../../lib/assembly';
import { UnumClient } from '../../lib/client';
import { LocalEngine, type PendingDeploy } from '../../lib/local/engine';
import { synthesize } from '../../lib/local/synth';
import { engineDynamoDb } from '../support/test-dynamodb';
import { ENGINE_TEST_TIMEOUT_MS, RUN_WAIT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const APP = path.join(__dirname, 'redeploy-app');
const WAIT = { timeoutMs: RUN_WAIT_MS };
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-redeploy-'));
const out = { v1: path.join(root, 'v1'), v2: path.join(root, 'v2') };
const tokens = path.join(root, 'tokens');

let engine: LocalEngine;
/** A client of `workflow` as an app would make one after the deploy (from the newest synth). */
const client = (workflow: string): UnumClient => UnumClient.fromCloudAssembly(out.v2, workflow, { localEngine: engine.environment });

/** The token the run's callback Task handed out (polled: the handler runs asynchronously). */
async function tokenOf(id: string): Promise<string> {
  const file = path.join(tokens, `${id}.json`);
  for (let i = 0; i < 6000 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { token: string }).token;
}

/** A run of Pinned waiting on its callback Task on version 1, and a run of Fixable that FAILED on version 1. */
let waiting: { id: string; token: string };
let failed: string;

beforeAll(async () => {
  fs.mkdirSync(tokens);
  await Promise.all([
    synthesize({ appDir: APP, outDir: out.v1 }),
    synthesize({ appDir: APP, outDir: out.v2, context: { unumVersion: '2' } }),
  ]);
  engine = await LocalEngine.fromCloudAssembly(out.v1, { functionEnvironment: { CALLBACK_TOKENS: tokens }, ...engineDynamoDb() });
  const id = engine.startRun('Pinned', {});
  waiting = { id, token: await tokenOf(id) };
  failed = engine.startRun('Fixable', {});
  expect((await engine.waitForRun(failed, WAIT)).status).toBe('FAILED');
});

afterAll(async () => {
  await engine?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('the two synths are two deployments of each workflow; the engine runs the first', () => {
  const deployments = (dir: string): Record<string, string> => Object.fromEntries([...readAssembly(dir).workflows].map(([name, w]) => [name, w.metadata.deployment]));
  const [d1, d2] = [deployments(out.v1), deployments(out.v2)];
  for (const name of ['Pinned', 'Versioned', 'Fixable']) expect(d2[name]).not.toBe(d1[name]);
  expect(engine.workflows.map((w) => [w.name, w.deployment])).toEqual(Object.entries(d1));
});

test('a run started while the deploy is half done runs entirely on the old deployment; one started after it, on the new', async () => {
  const old = engine.workflow('Versioned').deployment;
  const pending: PendingDeploy = await engine.beginDeploy(out.v2);
  expect(pending.deployments.Versioned).not.toBe(old);
  const during = engine.startRun('Versioned', {});
  const run = await engine.waitForRun(during, WAIT);
  expect(run).toMatchObject({ status: 'SUCCEEDED', result: { steps: ['v1', 'v1'] } });
  await pending.finish();
  expect(engine.workflow('Versioned').deployment).toBe(pending.deployments.Versioned);
  expect(await engine.waitForRun(engine.startRun('Versioned', {}), WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { steps: ['v2', 'v2'] } });
  // Runs record the deployment they started on.
  expect((await client('Versioned').status(during)).deployment).toBe(old);
});

test('a run waiting on a callback Task across the deploy finishes with version 1\'s result; a new run gets version 2\'s', async () => {
  await client('Pinned').sendTaskSuccess(waiting.token, { approved: true });
  expect(await engine.waitForRun(waiting.id, WAIT)).toMatchObject({ status: 'SUCCEEDED', result: [{ computed: 'v1' }] });

  const after = engine.startRun('Pinned', {});
  await client('Pinned').sendTaskSuccess(await tokenOf(after), { approved: true });
  expect(await engine.waitForRun(after, WAIT)).toMatchObject({ status: 'SUCCEEDED', result: [{ computed: 'v2' }, { extra: true }] });
});

test('a run that FAILED on version 1 stays there when redriven; redriven onto the latest deployment (the handler fixed) it succeeds', async () => {
  const fixable = client('Fixable');
  await fixable.redrive(failed);
  expect((await engine.waitForRun(failed, WAIT)).status).toBe('FAILED');
  await fixable.redrive(failed, { deployment: 'latest' });
  expect(await engine.waitForRun(failed, WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { steps: ['v1'], fixed: 'v2' } });
  expect((await fixable.status(failed)).deployment).toBe(engine.workflow('Fixable').deployment);
});
