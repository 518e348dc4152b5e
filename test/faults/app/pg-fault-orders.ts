/**
 * The Orders example's PlaceOrder on a pool that meets PostgreSQL's own
 * failures (issue 35): before the library's COMMIT and right after it, and
 * before the transaction, the handler asks the campaign's control channel
 * (test/faults/pg-faults.ts, at the address in UNUM_PG_FAULTS_URL) whether
 * the run's plan puts a server fault there. The campaign, not the sandbox,
 * restarts the server or kills the backend, since only it holds the server;
 * a status loss is staged here, as an earlier execution's claim of a
 * transaction the server no longer knows (the restart test's way). Without
 * the variable, PlaceOrder is the example's.
 */
import { Pool, type PoolClient } from 'pg';
import { chargeItems, placed, type PlacedOrder, type PricedOrder, recordOrder, reservation, setting } from '../../../examples/orders/handlers';
import { ORDERS_DATABASE_ENV } from '../../../examples/orders/database';
import { effects, type UnumContext } from '../../../runtime/effects';
import { type PgPool, type PostgresStrategy, postgres } from '../../../runtime/effects/postgres';
import { INCARNATION_SQL } from '../../../runtime/effects/postgres-introspection';
import { claimEffect } from '../../../runtime/effects/records';
import { operationsOf } from '../../../runtime/effects/operations';
import { effectKey } from '../../../runtime/contract/table';

export { confirm, price } from '../../../examples/orders/handlers';

/** Where the campaign's control channel listens (an http:// address); unset, no fault is asked for. */
export const PG_FAULTS_ENV = 'UNUM_PG_FAULTS_URL';
/** Where in PlaceOrder the handler asks for a fault. */
export type PgFaultPoint = 'before-transaction' | 'before-commit' | 'after-commit';

interface Asker {
  readonly runId: string;
  readonly requestId: string;
}

async function control(path: 'fault' | 'begin' | 'end', body: Record<string, unknown>): Promise<string | undefined> {
  const url = process.env[PG_FAULTS_ENV];
  if (!url) return undefined;
  const r = await fetch(`${url}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await r.json()) as { fault?: string };
  return answer.fault;
}

let pool: Pool | undefined;
/** The example's pool, but one whose connections a server crash breaks while idle: their errors are expected, not the sandbox's end. */
function database(): Pool {
  if (!pool) {
    pool = new Pool({ connectionString: setting(ORDERS_DATABASE_ENV), max: 2 });
    pool.on('error', () => undefined);
  }
  return pool;
}

/** Connections a server crash broke while idle in this (possibly frozen) sandbox are dropped when lent, as a pool that validates on borrow does. */
async function healthyClient(base: Pool): Promise<PoolClient> {
  for (let tries = 1; ; tries++) {
    const client = await base.connect();
    try {
      await client.query('SELECT 1');
      return client;
    } catch (e) {
      client.release(true);
      if (tries >= 3) throw e;
    }
  }
}

/** The pool the library gets: each connection says when it is lent and given back, and asks for a fault around the COMMIT. */
function faultingPool(base: Pool, asker: Asker): PgPool {
  return {
    async connect() {
      await control('begin', { ...asker });
      const client = await healthyClient(base).catch(async (e: unknown) => {
        await control('end', { ...asker });
        throw e;
      });
      const pid = (client as unknown as { processID: number }).processID;
      return {
        async query(text: string, values?: unknown[]) {
          if (text === 'COMMIT') await control('fault', { ...asker, point: 'before-commit', pid });
          const result = await client.query(text, values);
          // The server committed and then crashed before its answer arrived: the client sees only the broken connection.
          if (text === 'COMMIT' && (await control('fault', { ...asker, point: 'after-commit', pid }))) throw new Error('Connection terminated unexpectedly (the server crashed after the COMMIT)');
          return result;
        },
        release(destroy?: boolean | Error) {
          client.release(destroy);
          void control('end', { ...asker }).catch(() => undefined);
        },
      };
    },
  };
}

/** An earlier execution's claim of a transaction older than the server's oldest known one: its status is lost. */
async function loseStatus(unum: UnumContext, operation: string): Promise<void> {
  const ops = operationsOf(unum);
  const [server] = (await database().query(`SELECT ${INCARNATION_SQL} AS server, (SELECT oldest_xid::text::bigint FROM pg_control_checkpoint()) AS oldest`)).rows;
  const lost = String(Number(server.oldest) - 100);
  // An execution that already claimed the operation keeps its claim: then no loss is staged.
  await claimEffect(ops.table, effectKey(unum.invocation, operation), `${lost}@${String(server.server)}`, undefined, ops.port.recordTtl()).catch(() => false);
}

async function placeWith(strategy: PostgresStrategy, order: PricedOrder, lambda: { awsRequestId: string }, unum: UnumContext): Promise<PlacedOrder> {
  const fx = effects(unum);
  const ledger = setting('LEDGER_TABLE');
  const orderId = unum.runId;
  const asker = { runId: unum.runId, requestId: lambda.awsRequestId };
  await fx.dynamodb.transactWrite(chargeItems(ledger, orderId, order), { name: 'charge' });
  await fx.dynamodb.updateItem(reservation(ledger, orderId, order), { name: 'reserve' });
  if ((await control('fault', { ...asker, point: 'before-transaction' })) === 'pgStatusLoss') await loseStatus(unum, 'postgres:record:0');
  await postgres(unum, faultingPool(database(), asker), { strategy }).transaction((sql) => recordOrder(sql, orderId, order), { name: 'record' });
  return placed(order);
}

/** PlaceOrder with a plain transaction on the same pool: a COMMIT whose answer is lost is run again. Invariant 7's negative control. */
export async function placeOrderPlain(order: PricedOrder, lambda: { awsRequestId: string }, unum: UnumContext): Promise<PlacedOrder> {
  const fx = effects(unum);
  const ledger = setting('LEDGER_TABLE');
  await fx.dynamodb.transactWrite(chargeItems(ledger, unum.runId, order), { name: 'charge' });
  await fx.dynamodb.updateItem(reservation(ledger, unum.runId, order), { name: 'reserve' });
  const sql = await faultingPool(database(), { runId: unum.runId, requestId: lambda.awsRequestId }).connect();
  let failure: Error | undefined;
  try {
    await sql.query('BEGIN');
    await recordOrder(sql, unum.runId, order);
    await sql.query('COMMIT');
  } catch (e) {
    failure = e instanceof Error ? e : new Error(String(e));
    throw e;
  } finally {
    sql.release(failure);
  }
  return placed(order);
}

/** PlaceOrder with the default strategy (the marker row). */
export const placeOrder = (order: PricedOrder, lambda: { awsRequestId: string }, unum: UnumContext): Promise<PlacedOrder> => placeWith('internal-table', order, lambda, unum);

/** PlaceOrder with the opt-in strategy `introspection`. */
export const placeOrderIntrospected = (order: PricedOrder, lambda: { awsRequestId: string }, unum: UnumContext): Promise<PlacedOrder> => placeWith('introspection', order, lambda, unum);
