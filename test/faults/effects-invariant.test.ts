/**
 * Invariant 7 ("every effect applied exactly once") can fail, and holds where
 * it should: a crash of PlaceOrder just before its checkpoint makes Lambda
 * run it again. The Orders example (effects through the handler context:
 * a transaction with a marker, a logged update, a PostgreSQL transaction)
 * applies each write once; the same workflow with plain writes
 * (test/faults/app/plain-orders.ts) applies every write twice, and the
 * checker says so, counter by counter.
 */
import * as fs from 'fs';
import * as path from 'path';
import { expectationFor } from '../../lib/testing/campaign';
import { effectViolations, type EffectCheck } from '../../lib/testing/checker';
import { checkedRun, profile, referenceRun } from '../../lib/testing/fault-run';
import { CrashPointPlan } from '../../lib/testing/schedule';
import type { Json } from '../../runtime/contract/ir';
import type { Order } from '../../examples/orders/handlers';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';
import { orderEffects } from './app/orders';
import { ROOT, useFaultEngine } from './fault-engine';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const faultEngine = useFaultEngine({ examples: true });
const order = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'orders', 'input.json'), 'utf8')) as Order;

/** Runs `workflow` with PlaceOrder crashing just before its checkpoint (after every effect), and checks it. */
async function crashBeforeCheckpoint(workflow: string): Promise<{ violations: string[]; applied: Readonly<Record<string, number>> }> {
  const engine = faultEngine();
  const effects = await orderEffects(engine, workflow, faultEngine.database().pool, order);
  const target = { workflow, input: order as unknown as Json, effects };
  const placeOrder = engine.workflow(workflow).nodes.PlaceOrder?.functionName as string;
  const point = (await profile(engine, workflow, target.input)).points.find((p) => p.identity.startsWith(`${placeOrder}@`) && p.label === 'PutItem(ckpt)' && p.phase === 'before');
  if (!point) throw new Error(`no crash point before PlaceOrder's checkpoint in ${workflow}`);
  const expectation = expectationFor(target, await referenceRun(engine, workflow, target.input), engine);
  const run = await checkedRun(engine, workflow, target.input, new CrashPointPlan([point]), expectation, { effects, keep: true });
  expect(engine.emulator.timeline.of(run.workflowId).filter((e) => e.node === 'PlaceOrder').map((e) => e.outcome)).toEqual(['crash', 'ok']);
  const applied = await effects.applied(run.workflowId);
  engine.forget(run.workflowId);
  return { violations: run.violations, applied };
}

test('the Orders example applies each effect once although PlaceOrder ran twice', async () => {
  const { violations, applied } = await crashBeforeCheckpoint('Orders');
  expect(violations).toEqual([]);
  expect(applied).toEqual({ charges: 1, chargedCents: 4596, reservations: 1, reservedUnits: 4, orderRows: 1, orderLineRows: 2 });
});

test('with plain writes the second execution applies them again, and invariant 7 reports every counter', async () => {
  const { violations, applied } = await crashBeforeCheckpoint('PlainOrders');
  expect(applied).toEqual({ charges: 2, chargedCents: 9192, reservations: 2, reservedUnits: 8, orderRows: 2, orderLineRows: 4 });
  const effectsViolations = violations.filter((v) => v.startsWith('invariant 7'));
  expect(effectsViolations).toEqual(['charges', 'chargedCents', 'reservations', 'reservedUnits', 'orderRows', 'orderLineRows'].map((counter) => expect.stringContaining(`effect counter ${counter} of PlaceOrder is`)));
  expect(effectsViolations[0]).toBe('invariant 7: effect counter charges of PlaceOrder is 2, its committed path implies 1 (1 committed invocation(s) x 1)');
});

test('the committed path sets the expectation: no committed PlaceOrder, no effect expected', () => {
  const check: EffectCheck = { node: 'PlaceOrder', perInvocation: { charges: 1 }, applied: async () => ({}) };
  const committed = new Map<string, Json>([['Fn-PlaceOrder@0', {}], ['Fn-Price@0', {}]]);
  expect(effectViolations({ check, functionName: 'Fn-PlaceOrder', applied: { charges: 1 } }, committed)).toEqual([]);
  expect(effectViolations({ check, functionName: 'Fn-PlaceOrder', applied: { charges: 1 } }, new Map([['Fn-Price@0', {}]]))).toEqual([
    'invariant 7: effect counter charges of PlaceOrder is 1, its committed path implies 0 (0 committed invocation(s) x 1)',
  ]);
  expect(effectViolations({ check, functionName: 'Fn-PlaceOrder', applied: {} }, committed)).toEqual([
    'invariant 7: effect counter charges of PlaceOrder is 0, its committed path implies 1 (1 committed invocation(s) x 1)',
  ]);
});
