/**
 * The example app tested as a user tests their own workflows: synthesize the
 * app in the test, start the local engine with the public helper of
 * `unum-cdk/local`, run workflows and assert on outcome and timeline, also
 * under a fault seed. The Orders example's database is a throwaway
 * PostgreSQL, whose address its functions get in their environment.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { ExamplesStack } from '../../examples/app';
import { startLocalEngine, type LocalTestEngine } from '../../lib/local';
import { randomFaults } from '../../lib/testing';
import type { Order } from '../../examples/orders/handlers';
import type { Json } from '../../runtime/contract/ir';
import { orderEffects } from '../faults/app/orders';
import { ENGINE_TEST_TIMEOUT_MS, RUN_WAIT_MS } from '../support/load';
import { type OrdersDatabase, startOrdersDatabase } from '../support/orders-database';
import { engineDynamoDb } from '../support/test-dynamodb';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let outdir: string;
let engine: LocalTestEngine;
let database: OrdersDatabase;

beforeAll(async () => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-examples-'));
  const app = new App({ outdir });
  new ExamplesStack(app, 'UnumExamples');
  app.synth();
  database = await startOrdersDatabase('the examples test');
  engine = await startLocalEngine({ app: outdir, functionEnvironment: database.environment, ...engineDynamoDb() });
});

afterAll(async () => {
  await engine?.stop();
  await database?.stop();
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

const exampleOrder = (): Json => JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'orders', 'input.json'), 'utf8')) as Json;
const orderCounters = () => orderEffects(engine.engine, 'Orders', database.pool, exampleOrder() as unknown as Order);
/** One charge of the order's total, one reservation of its units, one order row and one row per line. */
const ONCE = { charges: 1, chargedCents: 4596, reservations: 1, reservedUnits: 4, orderRows: 1, orderLineRows: 2 };
/** A seed whose schedule crashes PlaceOrder and delivers its event twice at once: three executions of it. */
const ORDERS_FAULT_SEED = 12;

test('Orders: the card is charged once, the stock reserved once and the order recorded once', async () => {
  const run = await engine.run('Orders', exampleOrder(), { timeoutMs: RUN_WAIT_MS });
  expect(run).toMatchObject({ status: 'SUCCEEDED', result: { status: 'confirmed', customer: 'c-1042', totalCents: 4596, units: 4 } });
  expect(run.timeline.map((e) => e.node)).toEqual(['Price', 'PlaceOrder', 'Confirm']);
  expect(await (await orderCounters()).applied(run.workflowId)).toEqual(ONCE);
});

test('Orders under a fault seed: PlaceOrder crashes and runs again, twice at once, and its writes still land once', async () => {
  const run = await engine.run('Orders', exampleOrder(), { faults: randomFaults(ORDERS_FAULT_SEED), timeoutMs: RUN_WAIT_MS });
  expect(run.faults?.violations).toEqual([]);
  expect(run.result).toEqual(run.faults?.reference.result);
  const placeOrder = run.timeline.filter((e) => e.node === 'PlaceOrder');
  expect(placeOrder.length).toBeGreaterThan(2);
  expect(placeOrder.some((e) => e.outcome === 'crash')).toBe(true);
  expect(placeOrder.some((e) => e.duplicate)).toBe(true);
  expect(await (await orderCounters()).applied(run.workflowId)).toEqual(ONCE);
});

test('Collatz of 6: the result, and one Step execution per iteration', async () => {
  const run = await engine.run('Collatz', { n: 6 }, { timeoutMs: RUN_WAIT_MS });
  expect(run).toMatchObject({ status: 'SUCCEEDED', result: { start: 6, steps: 8, peak: 16 } });
  expect(run.timeline.map((e) => e.node)).toEqual(['Step.Start', ...Array<string>(8).fill('Step'), 'Finish']);
  expect(run.timeline.every((e) => e.outcome === 'ok' && e.attempt === 1 && !e.duplicate)).toBe(true);
});

test('a failing run resolves FAILED, naming the node and the error', async () => {
  const run = await engine.run('Collatz', { n: 0 }, { timeoutMs: RUN_WAIT_MS });
  expect(run).toMatchObject({ status: 'FAILED', error: { node: 'Step', error: 'RangeError' } });
  expect(run.result).toBeUndefined();
  // Lambda's async retries ran the failing handler again before the failure recorder ended the run.
  expect(run.timeline.filter((e) => e.node === 'Step').length).toBeGreaterThan(1);
});

test('under a fault seed the word count gives the fault-free result, with faults injected', async () => {
  const input = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'wordcount', 'input.json'), 'utf8'));
  const run = await engine.run('WordCount', input, { faults: randomFaults(11), timeoutMs: RUN_WAIT_MS });
  expect(run.faults?.violations).toEqual([]);
  expect(run.status).toBe('SUCCEEDED');
  expect(run.result).toEqual(run.faults?.reference.result);
  const injected: Record<string, number> = { ...run.faults?.injected };
  expect(Object.values(injected).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  // Every injected fault costs at least one extra execution.
  expect(run.timeline.length).toBeGreaterThan(run.faults?.reference.timeline.length ?? Infinity);
});

test('an unknown workflow is an error listing the workflows there are', async () => {
  await expect(engine.run('Nope', {})).rejects.toThrow(/no workflow 'Nope' .*have: TextPipeline, WordCount, Collatz, Orders, Approval\)/);
});
