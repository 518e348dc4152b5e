/**
 * Invariant 7 on the Orders example: the ledger (DynamoDB) and the orders
 * database (PostgreSQL) hold exactly what one committed PlaceOrder implies
 * (one charge of the order's total, one reservation of its units, one order
 * row and one row per line), read for the run, whose id names the order.
 */
import { type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Pool } from 'pg';
import type { EffectCheck } from '../../../lib/testing/checker';
import type { LocalEngine } from '../../../lib/local/engine';
import { type Order, price } from '../../../examples/orders/handlers';

/** The table the node's function writes its effects to (its `tableEnv` variable, as the engine resolved it). */
export function effectsTableOf(engine: LocalEngine, workflow: string, node: string, tableEnv: string): string {
  const fn = engine.workflow(workflow).nodes[node]?.functionName;
  const table = fn === undefined ? undefined : engine.app.functions.get(fn)?.environment[tableEnv];
  if (!table) throw new Error(`${workflow}.${node} has no ${tableEnv} in its environment`);
  return table;
}

async function counter(client: DynamoDBClient, table: string, pk: string, attribute: string): Promise<number> {
  const r = await client.send(new GetItemCommand({ TableName: table, Key: { pk: { S: pk } }, ConsistentRead: true }));
  return Number(r.Item?.[attribute]?.N ?? 0);
}

async function rows(pool: Pool, table: 'orders' | 'order_lines', orderId: string): Promise<number> {
  // A server crash (the campaign's PostgreSQL faults) breaks the pool's idle connections: a read is simply made again.
  for (let tries = 1; ; tries++) {
    try {
      const r = await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE order_id = $1`, [orderId]);
      return Number(r.rows[0]?.n ?? 0);
    } catch (e) {
      const code = String((e as { code?: unknown }).code ?? '');
      const brokenConnection = code === '' || code.startsWith('E') || /^(08|57P)/.test(code);
      if (tries >= 5 || !brokenConnection) throw e;
      await new Promise((resolve) => setTimeout(resolve, 200 * tries));
    }
  }
}

/** What the stores of a run of `workflow` (the Orders example's shape, or a variant of it) hold, against what one PlaceOrder of `order` implies. */
export async function orderEffects(engine: LocalEngine, workflow: string, pool: Pool, order: Order): Promise<EffectCheck> {
  const priced = await price(order);
  const ledger = effectsTableOf(engine, workflow, 'PlaceOrder', 'LEDGER_TABLE');
  return {
    node: 'PlaceOrder',
    perInvocation: { charges: 1, chargedCents: priced.totalCents, reservations: 1, reservedUnits: priced.units, orderRows: 1, orderLineRows: priced.lines.length },
    async applied(runId) {
      const [charges, chargedCents, reservations, reservedUnits, orderRows, orderLineRows] = await Promise.all([
        counter(engine.dynamo, ledger, `charge#${runId}`, 'charges'),
        counter(engine.dynamo, ledger, `charge#${runId}`, 'amountCents'),
        counter(engine.dynamo, ledger, `reservation#${runId}`, 'reservations'),
        counter(engine.dynamo, ledger, `reservation#${runId}`, 'units'),
        rows(pool, 'orders', runId),
        rows(pool, 'order_lines', runId),
      ]);
      return { charges, chargedCents, reservations, reservedUnits, orderRows, orderLineRows };
    },
  };
}
