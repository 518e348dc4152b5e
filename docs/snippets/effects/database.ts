// database.ts: one PostgreSQL pool per Lambda container, from the `pg` package (an optional peer
// of unum-cdk: install it where a handler uses PostgreSQL). Its Pool is a PgPool. It is loaded by
// name on first use, so that this module compiles and loads where pg is not installed.
import type { PgPool } from 'unum-cdk/effects/postgres';

const PG_PACKAGE: string = 'pg';
let pool: PgPool | undefined;

export async function ordersDatabase(): Promise<PgPool> {
  const pg: { Pool: new (config: { connectionString?: string; max?: number }) => PgPool } = await import(PG_PACKAGE);
  pool ??= new pg.Pool({ connectionString: process.env.ORDERS_DB, max: 2 });
  return pool;
}
