/**
 * PostgreSQL's own failures in the fault campaign (issue 35): each kind is
 * injected into a run of the Orders shape (pg-faults.ts), and invariant 7
 * holds: the default strategy succeeds having applied each effect once;
 * `introspection` meeting a lost status fails with the undeterminable
 * EffectError having applied the transaction at most once. A plain
 * transaction whose COMMIT's answer is lost applies it twice, and invariant 7
 * says so; and it accepts nothing weaker than "at most once" after that error.
 */
import * as fs from 'fs';
import * as path from 'path';
import { expectationFor, randomSchedules } from '../../lib/testing/campaign';
import { effectViolations, type EffectCheck } from '../../lib/testing/checker';
import { checkedRun, referenceRun } from '../../lib/testing/fault-run';
import type { RunStatusWithResult } from '../../lib/runs/run-status';
import type { Json } from '../../runtime/contract/ir';
import type { Order } from '../../examples/orders/handlers';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';
import { orderEffects } from './app/orders';
import { ROOT, useFaultEngine } from './fault-engine';
import { PG_FAULT_KINDS, type PgFault, pgFaultTargets, UNDETERMINABLE } from './pg-faults';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const faultEngine = useFaultEngine({ pgFaults: true });
const order = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'orders', 'input.json'), 'utf8')) as Order;
let n = 0;

/** One run of `workflow` (a campaign target, or PgPlainOrders) with `fault` armed, checked. */
async function runUnder(workflow: string, fault: PgFault) {
  const engine = faultEngine();
  const control = faultEngine.pgFaults();
  const pool = faultEngine.database().pool;
  const target = (await pgFaultTargets(engine, pool, control, order)).find((t) => t.workflow === workflow)
    ?? { workflow, input: order as unknown as Json, effects: await orderEffects(engine, workflow, pool, order) };
  const expectation = expectationFor(target, await referenceRun(engine, workflow, target.input), engine);
  const workflowId = `pg-${workflow}-${fault.kind}-${++n}`;
  const armed = control.arm(workflowId, fault);
  const run = await checkedRun(engine, workflow, target.input, undefined, expectation, { workflowId, ...(target.effects ? { effects: target.effects } : {}) });
  armed.disarm();
  const applied = await target.effects!.applied(workflowId);
  return { run, injected: armed.counts(), applied };
}

test('the default strategy: a server restart before the COMMIT, the next execution applies the order once', async () => {
  const { run, injected, applied } = await runUnder('PgOrders', { kind: 'pgRestart', point: 'before-commit' });
  expect(injected).toEqual({ pgRestart: 1, pgBackendKill: 0, pgStatusLoss: 0 });
  expect(run.violations).toEqual([]);
  expect(run.record?.status).toBe('SUCCEEDED');
  expect(applied).toMatchObject({ orderRows: 1, orderLineRows: 2 });
});

test('the default strategy: the backend killed after the COMMIT (its answer lost), the next execution learns it committed', async () => {
  const { run, injected, applied } = await runUnder('PgOrders', { kind: 'pgBackendKill', point: 'after-commit' });
  expect(injected).toEqual({ pgRestart: 0, pgBackendKill: 1, pgStatusLoss: 0 });
  expect(run.violations).toEqual([]);
  expect(run.record?.status).toBe('SUCCEEDED');
  expect(applied).toMatchObject({ orderRows: 1, orderLineRows: 2 });
});

test('introspection: a lost transaction status fails the run with the undeterminable EffectError, nothing applied twice', async () => {
  const { run, injected, applied } = await runUnder('PgIntrospectedOrders', { kind: 'pgStatusLoss', point: 'before-transaction' });
  expect(injected).toEqual({ pgRestart: 0, pgBackendKill: 0, pgStatusLoss: 1 });
  expect(run.violations).toEqual([]);
  expect(run.record?.status).toBe('FAILED');
  expect(run.record?.error).toMatchObject({ error: 'EffectError', cause: expect.stringMatching(UNDETERMINABLE) });
  expect(applied).toMatchObject({ charges: 1, orderRows: 0, orderLineRows: 0 });
});

test('introspection: a restart after the COMMIT, its answer lost: undeterminable or its value, applied once', async () => {
  const { run, injected, applied } = await runUnder('PgIntrospectedOrders', { kind: 'pgRestart', point: 'after-commit' });
  expect(injected.pgRestart).toBe(1);
  expect(run.violations).toEqual([]);
  expect(applied).toMatchObject({ orderRows: 1, orderLineRows: 2 });
});

test('a plain transaction whose COMMIT\'s answer is lost is committed twice, and invariant 7 reports it', async () => {
  const { run, injected, applied } = await runUnder('PgPlainOrders', { kind: 'pgRestart', point: 'after-commit' });
  expect(injected.pgRestart).toBe(1);
  expect(applied).toMatchObject({ orderRows: 2, orderLineRows: 4 });
  expect(run.violations.filter((v) => v.startsWith('invariant 7'))).toEqual([
    'invariant 7: effect counter orderRows of PlaceOrder is 2, its committed path implies 1 (1 committed invocation(s) x 1)',
    'invariant 7: effect counter orderLineRows of PlaceOrder is 4, its committed path implies 2 (1 committed invocation(s) x 2)',
  ]);
});

test('the campaign\'s --effects schedules: a few seeds draw PostgreSQL faults beside the random plan\'s, counted by kind, and break no invariant', async () => {
  const engine = faultEngine();
  const targets = await pgFaultTargets(engine, faultEngine.database().pool, faultEngine.pgFaults(), order);
  const s = await randomSchedules(engine, targets, [1, 2, 3, 4, 5, 6, 7, 8], { concurrency: 1, targetFaultKinds: PG_FAULT_KINDS });
  expect(s.failures).toEqual([]);
  expect(Object.keys(s.injected)).toEqual(expect.arrayContaining([...PG_FAULT_KINDS]));
  expect(PG_FAULT_KINDS.reduce((a, k) => a + (s.injected[k] ?? 0), 0)).toBeGreaterThan(0);
});

describe('invariant 7 after an undeterminable failure', () => {
  const check: EffectCheck = { node: 'PlaceOrder', perInvocation: { charges: 1, orderLineRows: 2 }, applied: async () => ({}), undeterminable: UNDETERMINABLE };
  const failed = (cause: string): RunStatusWithResult => ({ status: 'FAILED', error: { node: 'PlaceOrder', error: 'EffectError', cause } }) as RunStatusWithResult;
  const lost = failed('node PlaceOrder: effect postgres:record:0: whether its transaction committed cannot be determined (pg_xact_status(1) is NULL); not running it again');
  const noCommit = new Map<string, Json>();
  const applied = (charges: number, orderLineRows: number) => ({ check, functionName: 'Fn-PlaceOrder', applied: { charges, orderLineRows } });

  test('allows each counter at 0 or at one application', () => {
    expect(effectViolations(applied(1, 0), noCommit, lost)).toEqual([]);
    expect(effectViolations(applied(1, 2), noCommit, lost)).toEqual([]);
    expect(effectViolations(applied(0, 0), noCommit, lost)).toEqual([]);
  });

  test('flags two applications, a partial one, and any other EffectError', () => {
    expect(effectViolations(applied(1, 4), noCommit, lost)).toEqual(['invariant 7: effect counter orderLineRows of PlaceOrder is 4 after an undeterminable failure, which allows 0 or one application (2)']);
    expect(effectViolations(applied(2, 1), noCommit, lost)).toHaveLength(2);
    expect(effectViolations(applied(1, 2), noCommit, failed('node PlaceOrder: effect postgres:record:0: too large'))).toEqual([
      'invariant 7: PlaceOrder failed with an EffectError that is not the undeterminable one: "node PlaceOrder: effect postgres:record:0: too large"',
    ]);
  });

  test('without `undeterminable`, the committed path rules even after an EffectError', () => {
    const { undeterminable: _, ...strict } = check;
    expect(effectViolations({ ...applied(1, 2), check: strict }, noCommit, lost)).toHaveLength(2);
  });
});
