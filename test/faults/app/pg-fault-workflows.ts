/**
 * The Orders example's shape with PlaceOrder on a pool that meets
 * PostgreSQL's failures (pg-fault-orders.ts): with the default strategy
 * (PgOrders), with `introspection` (PgIntrospectedOrders), and with a plain
 * transaction (PgPlainOrders, invariant 7's negative control).
 */
import * as path from 'path';
import { Definition, type EffectsTable, Task } from '../../../lib/definition';

const entry = path.join(__dirname, 'pg-fault-orders.ts');

/** The workflows and the handler of their PlaceOrder. */
export const PG_FAULT_WORKFLOWS = { PgOrders: 'placeOrder', PgIntrospectedOrders: 'placeOrderIntrospected', PgPlainOrders: 'placeOrderPlain' } as const;

export function pgFaultOrders(ledger: EffectsTable, handler: string): Definition {
  const place = new Task('PlaceOrder', { entry, handler, environment: { LEDGER_TABLE: ledger.tableName }, effects: { tables: [ledger] } });
  return Definition.from(new Task('Price', { entry, handler: 'price' }).next(place).next(new Task('Confirm', { entry, handler: 'confirm' })));
}
