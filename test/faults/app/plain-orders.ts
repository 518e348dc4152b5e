/**
 * The Orders example with plain writes where it has exactly-once ones: a
 * TransactWriteItems without the operation's marker, a plain UpdateItem and
 * a plain PostgreSQL transaction. An execution run again after any of them
 * applies it again: what invariant 7 must report.
 */
import { DynamoDBClient, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { chargeItems, ordersDatabase, placed, type PlacedOrder, type PricedOrder, recordOrder, reservation, setting } from '../../../examples/orders/handlers';
import type { UnumContext } from '../../../runtime/contract/handler-api';

export { confirm, price } from '../../../examples/orders/handlers';

const dynamodb = new DynamoDBClient({});

export async function placeOrder(order: PricedOrder, _lambda: unknown, unum: UnumContext): Promise<PlacedOrder> {
  const ledger = setting('LEDGER_TABLE');
  await dynamodb.send(new TransactWriteItemsCommand({ TransactItems: chargeItems(ledger, unum.runId, order) }));
  await dynamodb.send(new UpdateItemCommand(reservation(ledger, unum.runId, order)));
  const sql = await ordersDatabase().connect();
  try {
    await sql.query('BEGIN');
    await recordOrder(sql, unum.runId, order);
    await sql.query('COMMIT');
  } finally {
    sql.release();
  }
  return placed(order);
}
