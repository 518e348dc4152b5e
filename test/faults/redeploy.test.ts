/**
 * The redeploy fault (issue 34): seeded random fault schedules over the
 * workflows of test/faults/redeploy-app, each seed also deploying a shape of
 * the app (drawn from the seed, possibly the live one or an earlier one) once
 * or twice at points of its run, while the other seeds' runs are in flight.
 * Every run must finish on the deployment it started on, with the result
 * that deployment defines, and keep the other invariants.
 * `npm run test:faults -- --redeploy --seeds N` runs many more; a failing seed
 * replays with `npm run test:faults -- --redeploy --seed S`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { TimelineEntry } from '../../lib/local/timeline';
import { LocalEngine } from '../../lib/local/engine';
import type { RunStatusWithResult } from '../../lib/runs/run-status';
import { checkRun, type Expectation } from '../../lib/testing/checker';
import { pinningViolations } from '../../lib/testing/pinning';
import { deploymentExpectations, redeploySchedules, type DeploymentExpectations } from '../../lib/testing/redeploy-campaign';
import type { RedeployShape } from '../../lib/testing/redeploys';
import { redeploysForSeed } from '../../lib/testing/redeploy-plan';
import { REDEPLOY_TARGETS, synthesizeShapes } from './redeploy-app/targets';
import { engineDynamoDb } from '../support/test-dynamodb';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const SEEDS = Array.from({ length: Number(process.env.UNUM_FAULT_SEEDS ?? 24) }, (_, i) => i + 1);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-redeploy-faults-'));
let shapes: RedeployShape[];
let engine: LocalEngine | undefined;
let expectations: DeploymentExpectations;

beforeAll(async () => {
  shapes = await synthesizeShapes(root);
  engine = await LocalEngine.fromCloudAssembly(shapes[0]?.dir as string, { timeScale: 0.0005, ttlIntervalMs: 60_000, ...engineDynamoDb() });
  expectations = await deploymentExpectations(engine, REDEPLOY_TARGETS, shapes);
});

afterAll(async () => {
  await engine?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('every shape change gives the changed workflows a new deployment with a result of its own', () => {
  const count = (workflow: string): number => expectations.get(workflow)?.size ?? 0;
  // Approval changes in every shape; Paused's shape 3 is its shape 2; Batch's and Chain's shape 4 are their shape 1.
  expect(Object.fromEntries(REDEPLOY_TARGETS.map((t) => [t.workflow, count(t.workflow)]))).toEqual({ Approval: 4, Paused: 3, Batch: 3, Chain: 3 });
  for (const [workflow, byDeployment] of expectations) {
    const results = [...byDeployment.values()].map((e) => JSON.stringify(e));
    expect({ workflow, distinct: new Set(results).size }).toEqual({ workflow, distinct: results.length });
  }
});

test('invariants 3 and 8 catch a run that left its deployment, or that no deployment defines', () => {
  const [d1, d2] = ['d00000000000000000001', 'd00000000000000000002'];
  // Timeline entries as the emulator adds them: an execution is seen whether or not it made a call (a refusal makes none).
  const execution = (functionName: string, qualifier: string | undefined, executionId: string): TimelineEntry => ({
    executionId, functionName, ...(qualifier === undefined ? {} : { qualifier }), identity: `${functionName}@x`, requestId: executionId, attempt: 1, duplicate: false, workflowId: 'w', start: 0,
  });
  const record: RunStatusWithResult = { workflowId: 'w', status: 'SUCCEEDED', deployment: d1, result: 1 };
  const pinned = [execution('Entry', 'live', 'e1'), execution('Next', d1, 'e2')];
  expect(pinningViolations(record, pinned, { entryFunction: 'Entry', startedOn: d1 })).toEqual([]);
  const crossed = [...pinned, execution('Next', d2, 'e3'), execution('Last', '$LATEST', 'e4'), execution('Next', 'live', 'e5'), execution('Last', undefined, 'e6')];
  expect(pinningViolations(record, crossed, { entryFunction: 'Entry', startedOn: d1 })).toHaveLength(4);
  expect(pinningViolations(record, pinned, { entryFunction: 'Entry', startedOn: d2 })).toHaveLength(1);
  expect(pinningViolations({ workflowId: 'w', status: 'SUCCEEDED' }, pinned, { entryFunction: 'Entry' })).toEqual(['invariant 8: the run record names no deployment']);
  const byDeployment: Expectation = { kind: 'byDeployment', expectations: new Map([[d1, { kind: 'result', result: 1 }], [d2, { kind: 'result', result: 2 }]]) };
  const check = (r: RunStatusWithResult): string[] => checkRun({ record: r, calls: [], items: [], untimed: [], expectation: byDeployment }).filter((v) => v.startsWith('invariant 3'));
  expect(check(record)).toEqual([]);
  expect(check({ ...record, deployment: d2 })).toHaveLength(1);
  expect(check({ ...record, deployment: 'd00000000000000000003' })).toHaveLength(1);
});

test('the seeds draw deploys of every shape, reverts and deploys at both kinds of point', () => {
  const drawn = SEEDS.flatMap((s) => redeploysForSeed(s, shapes.length));
  expect(new Set(drawn.map((r) => r.shape)).size).toBe(shapes.length);
  expect(drawn.some((r) => 'execution' in r.at)).toBe(true);
  expect(drawn.some((r) => 'afterMs' in r.at)).toBe(true);
  expect(drawn.length).toBeGreaterThan(SEEDS.length);
});

test('random fault schedules with redeploys keep every run on its deployment, with its result', async () => {
  const s = await redeploySchedules(engine as LocalEngine, REDEPLOY_TARGETS, shapes, SEEDS, { concurrency: 6, expectations });
  process.stdout.write(`${s.schedules} seeds: ${s.executions} executions, ${s.redeploys} deploys, ${s.spanned} runs with a deploy during them, ${s.deploymentsRun} of ${s.deploymentsDefined} deployments run on, injected ${JSON.stringify(s.injected)}\n`);
  expect(s.failures.map((f) => `${f.what}: ${f.violations.join('; ')} (replay: npm run test:faults -- --redeploy --seed ${f.what.split(' ')[1]})`)).toEqual([]);
  expect(s.injected.redeploy).toBeGreaterThan(0);
  expect(s.redeploys).toBe(s.injected.redeploy);
  // Runs met deploys: the campaign tested what it is for.
  expect(s.spanned).toBeGreaterThan(0);
  expect(s.deploymentsRun).toBeGreaterThan(REDEPLOY_TARGETS.length);
  expect(s.callFaults).toBeGreaterThan(0);
});
