/**
 * Orders: price an order, then place it: charge the card once (a ledger in
 * DynamoDB), reserve the stock once (one item of that ledger) and record the
 * order once (PostgreSQL), however often Lambda runs the handler. The run
 * places one order, so its run id names the order everywhere.
 */
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { Pool } from 'pg';
import { effects, type UnumContext, type UpdateItemInput } from '../../runtime/effects';
import { type PgClient, postgres } from '../../runtime/effects/postgres';
import { ORDERS_DATABASE_ENV } from './database';

export interface OrderLine {
  readonly sku: string;
  readonly quantity: number;
  readonly priceCents: number;
}

export interface Order {
  readonly customer: string;
  readonly card: string;
  readonly lines: readonly OrderLine[];
}

export interface PricedOrder extends Order {
  readonly totalCents: number;
  readonly units: number;
}

export interface PlacedOrder {
  readonly customer: string;
  readonly totalCents: number;
  readonly units: number;
}

export interface Confirmation extends PlacedOrder {
  readonly status: 'confirmed';
}

export async function price(order: Order): Promise<PricedOrder> {
  const lines = order?.lines;
  if (!Array.isArray(lines) || lines.length === 0) throw new RangeError('an order needs lines');
  for (const l of lines) {
    if (!Number.isSafeInteger(l.quantity) || l.quantity < 1 || !Number.isSafeInteger(l.priceCents) || l.priceCents < 0) {
      throw new RangeError(`line ${JSON.stringify(l.sku)}: quantity must be a positive integer and priceCents a non-negative integer`);
    }
  }
  return {
    ...order,
    totalCents: lines.reduce((a, l) => a + l.quantity * l.priceCents, 0),
    units: lines.reduce((a, l) => a + l.quantity, 0),
  };
}

export function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`the Orders example needs ${name} in the function's environment`);
  return value;
}

let pool: Pool | undefined;
/** One small pool per container: a sandbox runs one execution at a time. */
export const ordersDatabase = (): Pool => (pool ??= new Pool({ connectionString: setting(ORDERS_DATABASE_ENV), max: 2 }));

const one = { N: '1' };

/** The card's charge and its receipt: one transaction. */
export function chargeItems(ledger: string, orderId: string, order: PricedOrder): TransactWriteItem[] {
  return [
    {
      Update: {
        TableName: ledger,
        Key: { pk: { S: `charge#${orderId}` } },
        UpdateExpression: 'SET card = :card ADD amountCents :total, charges :one',
        ExpressionAttributeValues: { ':card': { S: order.card }, ':total': { N: String(order.totalCents) }, ':one': one },
      },
    },
    { Put: { TableName: ledger, Item: { pk: { S: `receipt#${orderId}` }, customer: { S: order.customer }, totalCents: { N: String(order.totalCents) } } } },
  ];
}

/** The stock reservation: one update of one item. */
export function reservation(ledger: string, orderId: string, order: PricedOrder): UpdateItemInput {
  return {
    TableName: ledger,
    Key: { pk: { S: `reservation#${orderId}` } },
    UpdateExpression: 'ADD units :units, reservations :one',
    ExpressionAttributeValues: { ':units': { N: String(order.units) }, ':one': one },
  };
}

/** The order's rows, inside the caller's transaction. */
export async function recordOrder(sql: PgClient, orderId: string, order: PricedOrder): Promise<void> {
  await sql.query('INSERT INTO orders (order_id, customer, total_cents) VALUES ($1, $2, $3)', [orderId, order.customer, order.totalCents]);
  for (const l of order.lines) await sql.query('INSERT INTO order_lines (order_id, sku, quantity) VALUES ($1, $2, $3)', [orderId, l.sku, l.quantity]);
}

export const placed = (order: PricedOrder): PlacedOrder => ({ customer: order.customer, totalCents: order.totalCents, units: order.units });

export async function placeOrder(order: PricedOrder, _lambda: unknown, unum: UnumContext): Promise<PlacedOrder> {
  const fx = effects(unum);
  const ledger = setting('LEDGER_TABLE');
  const orderId = unum.runId;
  // Charge the card once: the charge and its receipt commit in one transaction with the operation's marker.
  await fx.dynamodb.transactWrite(chargeItems(ledger, orderId, order), { name: 'charge' });
  // Reserve the stock once: one UpdateItem that logs its operation in the item it updates.
  await fx.dynamodb.updateItem(reservation(ledger, orderId, order), { name: 'reserve' });
  // Record the order once: the transaction commits once, and a later execution learns that it did.
  await postgres(unum, ordersDatabase()).transaction((sql) => recordOrder(sql, orderId, order), { name: 'record' });
  return placed(order);
}

export async function confirm(placed: PlacedOrder): Promise<Confirmation> {
  return { status: 'confirmed', ...placed };
}
