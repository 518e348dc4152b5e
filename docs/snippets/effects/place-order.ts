// handlers.ts: charge the card once, record the order once (a runnable version: examples/orders/handlers.ts).
import { effects, type UnumContext } from 'unum-cdk/effects';
import { postgres } from 'unum-cdk/effects/postgres';
import { ordersDatabase } from './database';
import { payments } from './payments';

export interface Order {
  readonly id: string;
  readonly card: string;
  readonly total: number;
  readonly sku: string;
  readonly quantity: number;
}

export async function placeOrder(order: Order, _lambda: unknown, unum: UnumContext) {
  const fx = effects(unum);
  // Recorded under the invocation: a retry returns the recorded charge instead of
  // charging again. The key makes the payment API absorb a repeat of the call itself.
  const charge = await fx.step('charge', (key) => payments.charge(order.card, order.total, { idempotencyKey: key }));
  // Exactly once: the write and a marker of this operation commit in one TransactWriteItems.
  await fx.dynamodb.transactWrite([
    { Put: { TableName: process.env.ORDERS_TABLE, Item: { id: { S: order.id }, charge: { S: charge.id } } } },
  ]);
  // One UpdateItem, exactly once: the operation is logged in the item it updates.
  await fx.dynamodb.updateItem({
    TableName: process.env.STOCK_TABLE, Key: { sku: { S: order.sku } },
    UpdateExpression: 'ADD reserved :n', ExpressionAttributeValues: { ':n': { N: String(order.quantity) } },
  });
  // Exactly once: commits once; a retry after the commit returns the first run's value.
  const invoiceId = await postgres(unum, await ordersDatabase()).transaction(async (sql) => {
    const r = await sql.query('INSERT INTO invoices (order_id, amount) VALUES ($1, $2) RETURNING id', [order.id, order.total]);
    return r.rows[0].id as number;
  });
  return { orderId: order.id, chargeId: charge.id, invoiceId };
}
