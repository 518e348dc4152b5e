/**
 * `unum-cdk/effects/postgres`: PostgreSQL transactions that commit exactly
 * once however often the handler runs, after Golem's two strategies
 * (docs/architecture.md "Effects"). The caller brings its own pool (`pg`'s
 * `Pool`, or anything with its `connect`/`query`/`release`); nothing here
 * imports `pg`, so neither it nor this module reaches a function whose
 * handler does not import this entry.
 *
 * - introspection (PostgreSQL 13+): the transaction's id
 *   (`pg_current_xact_id()`) is logged in the workflow table before the
 *   user's statements and the outcome after the commit; an execution that
 *   finds an id without an outcome asks `pg_xact_status`: committed -> not run
 *   again; in progress -> wait; aborted or unknown -> run again in a new
 *   transaction, whose id replaces the old one.
 * - internal table (where introspection is not available): the transaction
 *   first inserts its operation's row into a small table (`unum_effects`),
 *   holding the value at the end, so the row commits with the user's
 *   statements. The row tells a later execution that it committed, and a
 *   concurrent one waits on it; it is deleted once the outcome is logged.
 *
 * @module unum-cdk/effects/postgres
 */
import type { UnumContext } from '../contract/handler-api';
import { sleep } from '../ports/pool';
import { assertRecordable, EffectError, fromJson, type Operation, type Operations, operationsOf, toJson } from './operations';
import { claimEffect, logEffectOutcome, logEffectResult, readEffect } from './records';

export type { UnumContext } from '../contract/handler-api';
export { EffectError } from './operations';

/** What a query returns (the part used here). */
export interface PgResult {
  readonly rows: readonly Record<string, unknown>[];
}

/** A connection: `pg`'s `Client` or `PoolClient`. */
export interface PgClient {
  query(text: string, values?: unknown[]): Promise<PgResult>;
}

/** A pool: `pg`'s `Pool`. */
export interface PgPool {
  connect(): Promise<PgClient & { release(destroy?: boolean | Error): void }>;
}

export type PostgresStrategy = 'introspection' | 'internal-table';

export interface PostgresEffectsOptions {
  /**
   * How a later execution learns whether a transaction committed. `auto`
   * uses introspection where the server has `pg_xact_status`, else the
   * internal table; a server with neither is an EffectError saying why.
   * @default 'auto'
   */
  readonly strategy?: 'auto' | PostgresStrategy;
  /** The internal table (created if missing), optionally schema-qualified. @default 'unum_effects' */
  readonly internalTable?: string;
}

export interface TransactionOptions {
  /** Names the operation (with its occurrence under that name) instead of the default `transaction`. */
  readonly name?: string;
}

export interface PostgresEffects {
  /**
   * Runs `fn` in a transaction on a connection of the pool and commits it,
   * unless an execution of this invocation committed this operation before:
   * then returns the value that execution's `fn` returned (as JSON keeps
   * it). `fn` must not commit or roll back itself; an error it throws rolls
   * the transaction back and is rethrown.
   */
  transaction<T>(fn: (client: PgClient) => Promise<T>, options?: TransactionOptions): Promise<Awaited<T>>;
}

/** SQLSTATEs that mean the server lacks the feature, not that it is unreachable. */
const MISSING_FEATURE = new Set(['42883', '0A000', '42501', '3F000', '42P01']);
const sqlState = (e: unknown): string | undefined => (e as { code?: unknown } | undefined)?.code as string | undefined;
const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/;

/** The strategy per pool and table, found once per process. */
const strategies = new WeakMap<PgPool, Map<string, Promise<PostgresStrategy>>>();

async function withClient<T>(pool: PgPool, use: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    return await use(client);
  } catch (e) {
    failure = e instanceof Error ? e : new Error(String(e));
    throw e;
  } finally {
    // A connection that failed mid-transaction is not given back to the pool.
    client.release(failure);
  }
}

async function canIntrospect(pool: PgPool): Promise<true | string> {
  try {
    const r = await withClient(pool, (c) => c.query('SELECT pg_xact_status(pg_current_xact_id())::text AS s'));
    return r.rows[0]?.s === 'in progress' ? true : `pg_xact_status returned ${JSON.stringify(r.rows[0]?.s)}`;
  } catch (e) {
    if (MISSING_FEATURE.has(sqlState(e) ?? '')) return describe(e);
    throw e;
  }
}

async function ensureInternalTable(pool: PgPool, table: string): Promise<true | string> {
  try {
    await withClient(pool, (c) => c.query(`CREATE TABLE IF NOT EXISTS ${table} (op text PRIMARY KEY, result text, created_at timestamptz NOT NULL DEFAULT now())`));
    return true;
  } catch (e) {
    if (MISSING_FEATURE.has(sqlState(e) ?? '')) return describe(e);
    throw e;
  }
}

/**
 * Only a definite answer of the server makes auto fall back: an unreachable
 * server is an error (retried), never a reason to change strategy, since an
 * earlier execution's transaction is found only by the strategy it used.
 */
async function findStrategy(pool: PgPool, table: string, wanted: PostgresEffectsOptions['strategy']): Promise<PostgresStrategy> {
  const introspection = wanted === 'internal-table' ? 'not wanted (strategy internal-table)' : await canIntrospect(pool);
  if (introspection === true) return 'introspection';
  if (wanted === 'introspection') throw new EffectError(`PostgreSQL effects: introspection is not available: ${introspection}`);
  const internal = await ensureInternalTable(pool, table);
  if (internal === true) return 'internal-table';
  throw new EffectError(
    `PostgreSQL effects need pg_xact_status (PostgreSQL 13+) or a table of their own, and this server has neither: introspection: ${introspection}; internal table ${table}: ${internal}`,
  );
}

function strategyOf(pool: PgPool, table: string, wanted: PostgresEffectsOptions['strategy']): Promise<PostgresStrategy> {
  let byTable = strategies.get(pool);
  if (!byTable) strategies.set(pool, (byTable = new Map()));
  const key = `${wanted ?? 'auto'}:${table}`;
  let found = byTable.get(key);
  if (!found) {
    found = findStrategy(pool, table, wanted);
    // A transient failure is not remembered: the next call probes again.
    found.catch(() => byTable.delete(key));
    byTable.set(key, found);
  }
  return found;
}

/** How long to wait for an earlier execution's transaction, and how much of the handler's time to leave. */
const POLL_MS = 200;
const LEAVE_MS = 2000;

async function waitOrGiveUp(ops: Operations, op: Operation, what: string): Promise<void> {
  if (ops.port.remainingMs() < POLL_MS + LEAVE_MS) {
    throw new EffectError(`node ${ops.context.node}: effect ${op.id}: ${what} is still in progress; the next execution will look again`);
  }
  await sleep(POLL_MS);
}

async function introspected<T>(ops: Operations, op: Operation, pool: PgPool, fn: (client: PgClient) => Promise<T>): Promise<T> {
  for (;;) {
    const recorded = await readEffect(ops.table, op.key);
    if (recorded?.state === 'committed') return fromJson(recorded.result);
    let replaces: string | undefined;
    if (recorded?.xid !== undefined) {
      const xid = recorded.xid;
      const r = await withClient(pool, (c) => c.query('SELECT pg_xact_status($1::xid8)::text AS s', [xid]));
      const status = r.rows[0]?.s;
      if (status === 'committed') {
        // The value was logged before the commit, maybe after our read: the next read returns it.
        await logEffectOutcome(ops.table, op.key, undefined, ops.port.recordTtl());
        continue;
      }
      if (status === 'in progress') {
        await waitOrGiveUp(ops, op, `transaction ${xid} of another execution`);
        continue;
      }
      // Aborted, or too old for the server to know: it did not commit here, so run it again.
      replaces = xid;
    }
    const outcome = await withClient(pool, async (client) => {
      await client.query('BEGIN');
      try {
        const xid = String((await client.query('SELECT pg_current_xact_id()::text AS x')).rows[0]?.x);
        if (!(await claimEffect(ops.table, op.key, xid, replaces, ops.port.recordTtl()))) {
          await client.query('ROLLBACK');
          return undefined;
        }
        const json = toJson(await fn(client));
        assertRecordable(ops, op, json);
        // A value is logged before the commit: an execution that finds the transaction committed returns it.
        if (json !== undefined) await logEffectResult(ops.table, op.key, xid, json);
        await client.query('COMMIT');
        return { json };
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
    // Another execution claimed it first: look at its record again.
    if (!outcome) continue;
    await logEffectOutcome(ops.table, op.key, undefined, ops.port.recordTtl());
    return fromJson(outcome.json);
  }
}

async function withInternalTable<T>(ops: Operations, op: Operation, pool: PgPool, table: string, fn: (client: PgClient) => Promise<T>): Promise<T> {
  const row = op.idempotencyKey;
  const forget = (): Promise<unknown> => withClient(pool, (c) => c.query(`DELETE FROM ${table} WHERE op = $1`, [row]));
  for (;;) {
    const recorded = await readEffect(ops.table, op.key);
    if (recorded?.state === 'committed') {
      // The row may outlive the outcome (a crash between the two); it is not needed any more.
      await forget();
      return fromJson(recorded.result);
    }
    const outcome = await withClient(pool, async (client) => {
      await client.query('BEGIN');
      try {
        // Waits for a concurrent execution's row; inserts nothing when a committed one is there.
        const inserted = await client.query(`INSERT INTO ${table} (op) VALUES ($1) ON CONFLICT (op) DO NOTHING RETURNING op`, [row]);
        if (inserted.rows.length === 0) {
          await client.query('ROLLBACK');
          const committed = await client.query(`SELECT result FROM ${table} WHERE op = $1`, [row]);
          const result = committed.rows[0]?.result;
          return committed.rows.length === 0 ? undefined : { json: result === null || result === undefined ? undefined : String(result), logged: false };
        }
        // Holding the row: an execution that logged the outcome and deleted its row before we inserted ours is seen now.
        const again = await readEffect(ops.table, op.key);
        if (again?.state === 'committed') {
          await client.query('ROLLBACK');
          return { json: again.result, logged: true };
        }
        const json = toJson(await fn(client));
        assertRecordable(ops, op, json);
        if (json !== undefined) await client.query(`UPDATE ${table} SET result = $2 WHERE op = $1`, [row, json]);
        await client.query('COMMIT');
        return { json, logged: false };
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
    // The row vanished between our insert and our read: its outcome is logged now.
    if (!outcome) continue;
    if (!outcome.logged) await logEffectOutcome(ops.table, op.key, outcome.json, ops.port.recordTtl());
    await forget();
    return fromJson(outcome.json);
  }
}

/** PostgreSQL effects of the handler call whose unum context (its last argument) is `unum`, on `pool`. */
export function postgres(unum: UnumContext, pool: PgPool, options: PostgresEffectsOptions = {}): PostgresEffects {
  const ops = operationsOf(unum);
  const table = options.internalTable ?? 'unum_effects';
  if (!IDENTIFIER.test(table)) throw new EffectError(`node ${unum.node}: internalTable ${JSON.stringify(table)} is not a lower-case SQL identifier (optionally schema.table)`);
  const strategy = options.strategy ?? 'auto';
  if (!['auto', 'introspection', 'internal-table'].includes(strategy)) throw new EffectError(`node ${unum.node}: unknown PostgreSQL strategy ${JSON.stringify(strategy)}`);
  return {
    async transaction<T>(fn: (client: PgClient) => Promise<T>, txOptions: TransactionOptions = {}): Promise<Awaited<T>> {
      if (typeof fn !== 'function') throw new EffectError(`node ${unum.node}: transaction needs a function`);
      const op = ops.next('postgres', txOptions.name ?? 'transaction');
      const found = await strategyOf(pool, table, strategy);
      return (found === 'introspection' ? introspected(ops, op, pool, fn) : withInternalTable(ops, op, pool, table, fn)) as Promise<Awaited<T>>;
    },
  };
}
