/**
 * The database of the Orders example (examples/orders) for the local engine:
 * a throwaway PostgreSQL with the example's schema, and the environment that
 * points the example's functions at it (`LocalEngineOptions.functionEnvironment`).
 */
import type { Pool } from 'pg';
import { ORDERS_DATABASE_ENV, ORDERS_SCHEMA } from '../../examples/orders/database';
import { startPostgres, type TestPostgres } from './postgres';

export interface OrdersDatabase {
  /** The functions' environment: the database's connection string. */
  readonly environment: Readonly<Record<string, string>>;
  /** A pool on the database, to read what the runs wrote. */
  readonly pool: Pool;
  /** The server itself, for the campaign's PostgreSQL faults (crash-restart, a backend killed). */
  readonly server: TestPostgres;
  stop(): Promise<void>;
}

/** Starts PostgreSQL with the orders schema; `what` says who needs it, in the error when PostgreSQL is missing. */
export async function startOrdersDatabase(what: string): Promise<OrdersDatabase> {
  const server = await startPostgres().catch((e: unknown) => {
    throw new Error(`${what} runs the Orders example, whose effects write PostgreSQL: ${e instanceof Error ? e.message : String(e)}`);
  });
  try {
    const pool = server.pool(4);
    await pool.query(ORDERS_SCHEMA);
    return { environment: { [ORDERS_DATABASE_ENV]: server.url }, pool, server, stop: () => server.stop() };
  } catch (e) {
    await server.stop();
    throw e;
  }
}
