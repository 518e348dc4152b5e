/**
 * maxConcurrency on the local engine (Lambda emulator + DynamoDB Local),
 * measured from the engine's own record of the run (its timeline and
 * traffic, as the fault checker's invariant 6 does): a bounded Map, from the
 * DSL and from ASL's MaxConcurrency, runs exactly N items at a time; the same
 * Map without a bound runs them all at once; under random faults the checker
 * finds no violation.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LocalEngine } from '../../lib/local/engine';
import { checkedRun } from '../../lib/testing/fault-run';
import { boundedMaps, mapConcurrencyViolations, type BoundedMap } from '../../lib/testing/map-concurrency';
import { paramsForSeed, RandomPlan } from '../../lib/testing/schedule';
import { engineDynamoDb } from '../support/test-dynamodb';

jest.setTimeout(300_000);

const APP = path.join(__dirname, 'bounded-map-app');
const items = [1, 2, 3, 4, 5, 6];
const total = items.reduce((a, n) => a + n * 10, 0);

let engine: LocalEngine;
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-bounded-map-'));

beforeAll(async () => {
  engine = await LocalEngine.fromApp(APP, { outDir, ...engineDynamoDb() });
});
afterAll(async () => {
  await engine?.stop();
  fs.rmSync(outDir, { recursive: true, force: true });
});

const mapsOf = (workflow: string): BoundedMap[] => boundedMaps(Object.values(engine.workflow(workflow).nodes).flatMap((fn) => (fn.ir ? [fn.ir] : [])));

/** Runs `workflow` on the items to its result; the run's timeline and traffic. */
async function measure(workflow: string) {
  const workflowId = engine.startRun(workflow, items);
  expect(await engine.waitForRun(workflowId)).toMatchObject({ status: 'SUCCEEDED', result: total });
  await engine.idle(workflowId);
  return { timeline: engine.emulator.timeline.of(workflowId), calls: engine.traffic.of(workflowId) };
}

test.each(['Bounded', 'BoundedAsl'])('%s: maxConcurrency 2 runs two items at a time, never three', async (workflow) => {
  const [map] = mapsOf(workflow);
  expect(map).toMatchObject({ maxConcurrency: 2, members: new Map([['Work', 0], ['Check', 0]]) });
  const { timeline, calls } = await measure(workflow);
  expect(mapConcurrencyViolations([map], timeline, calls)).toEqual([]);
  // Two did run at once: a bound of 1 is broken.
  expect(mapConcurrencyViolations([{ ...map, maxConcurrency: 1 }], timeline, calls)).toEqual([expect.stringMatching(/^invariant 6: 2 items/)]);
});

test('the same Map without maxConcurrency runs all six items at once', async () => {
  expect(mapsOf('Unbounded')).toEqual([]);
  const [bounded] = mapsOf('Bounded');
  const { timeline, calls } = await measure('Unbounded');
  expect(mapConcurrencyViolations([bounded], timeline, calls)).toEqual([expect.stringMatching(/^invariant 6: 6 items/)]);
});

test.each([1, 2, 3, 4])('random faults, seed %i: the checker (invariant 6 included) finds no violation', async (seed) => {
  const run = await checkedRun(engine, 'Bounded', items, new RandomPlan(paramsForSeed(seed)), { kind: 'result', result: total });
  expect(run.violations).toEqual([]);
});
