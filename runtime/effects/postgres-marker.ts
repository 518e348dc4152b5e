/**
 * The default strategy: the operation's marker row, inserted first in the
 * user's transaction and marked done with the value last, commits with the
 * user's statements. Its commit is the effect's commit, so it holds across
 * a server's crash-restart, a failover and a lost transaction status: a
 * later execution finds the row (committed) or not (nothing happened).
 */
import { EffectError, fromJson, type Operation, type Operations } from './operations';
import { assertInTime, attemptOn, begin, runGuarded, type IsolationLevel, misused, type PgClient, type PgPool, sqlState, withClient } from './postgres-session';
import { logEffectOutcome, readEffect } from './records';

/** A marker table's columns; `done` is set with the value by the library just before its COMMIT. */
const COLUMNS = {
  op: 'text PRIMARY KEY',
  result: 'text',
  done: 'boolean NOT NULL DEFAULT false',
  expires_at: 'timestamptz',
  created_at: 'timestamptz NOT NULL DEFAULT now()',
};

/** Tables made ready per pool, once per process. */
const ready = new WeakMap<PgPool, Map<string, Promise<void>>>();

/** Creates the table, or adds the columns an older version's table lacks; a table made in advance needs no CREATE privilege. */
async function prepare(pool: PgPool, table: string): Promise<void> {
  await withClient(pool, async (c) => {
    const columns = async (): Promise<readonly Record<string, unknown>[]> =>
      (await c.query(`SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped`, [table])).rows;
    let have = await columns();
    if (have.length === 0) {
      await c.query(`CREATE TABLE IF NOT EXISTS ${table} (${Object.entries(COLUMNS).map(([name, type]) => `${name} ${type}`).join(', ')})`);
      have = await columns();
    }
    const names = new Set(have.map((r) => String(r.attname)));
    for (const [name, type] of Object.entries(COLUMNS)) {
      if (!names.has(name)) await c.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${name} ${type}`);
    }
  });
}

function markerTable(ops: Operations, pool: PgPool, table: string): Promise<void> {
  let byTable = ready.get(pool);
  if (!byTable) ready.set(pool, (byTable = new Map()));
  let done = byTable.get(table);
  if (!done) {
    done = prepare(pool, table).catch((e: unknown) => {
      // A transient failure is not remembered: the next call tries again.
      byTable.delete(table);
      throw new EffectError(`node ${ops.context.node}: PostgreSQL effects need their marker table ${table}: ${e instanceof Error ? e.message : String(e)}`);
    });
    byTable.set(table, done);
  }
  return done;
}

/** How often a process sweeps a table, and how many rows a sweep deletes at most. */
const SWEEP_EVERY_MS = 10 * 60_000;
const SWEEP_LIMIT = 100;
const SWEEP_TIMEOUT_MS = 2000;
const swept = new WeakMap<PgPool, Map<string, number>>();

/**
 * Deletes rows past their `expires_at` (the TTL of the effect records of
 * their invocation: after it no execution looks for them), now and then and
 * a bounded number, skipping rows another transaction holds. Rows normally
 * go when their outcome is logged; these are the ones of executions that
 * died before, and of invocations never run again. A failed sweep is
 * forgotten: the next one retries.
 */
async function sweep(ops: Operations, pool: PgPool, table: string): Promise<void> {
  let byTable = swept.get(pool);
  if (!byTable) swept.set(pool, (byTable = new Map()));
  const now = Date.now();
  if (now - (byTable.get(table) ?? -Infinity) < SWEEP_EVERY_MS || ops.port.remainingMs() < SWEEP_TIMEOUT_MS * 2) return;
  byTable.set(table, now);
  await withClient(pool, async (c) => {
    await c.query(`BEGIN; SET LOCAL statement_timeout = ${SWEEP_TIMEOUT_MS}`);
    await c.query(`DELETE FROM ${table} WHERE op IN (SELECT op FROM ${table} WHERE expires_at < now() LIMIT ${SWEEP_LIMIT} FOR UPDATE SKIP LOCKED)`);
    await c.query('COMMIT');
  }).catch(() => undefined);
}

/** One attempt's outcome: the value, and whether it is logged in the workflow table already. */
interface Outcome {
  readonly json: string | undefined;
  readonly logged: boolean;
}

/** The marker row of `op` as a committed transaction left it: its value, or an error when its transaction did not end through the library. */
async function committedRow(ops: Operations, op: Operation, client: PgClient, table: string, row: string): Promise<Outcome | undefined> {
  const r = await client.query(`SELECT result, done FROM ${table} WHERE op = $1`, [row]);
  const found = r.rows[0];
  if (!found) return undefined;
  if (found.done !== true) {
    throw new EffectError(
      `node ${ops.context.node}: effect ${op.id}: its transaction was committed by the callback, not by the library, so its value is unknown; not running it again`,
    );
  }
  return { json: found.result === null || found.result === undefined ? undefined : String(found.result), logged: false };
}

async function attempt<T>(
  ops: Operations,
  op: Operation,
  client: PgClient,
  table: string,
  isolation: IsolationLevel | undefined,
  fn: (client: PgClient) => Promise<T>,
): Promise<Outcome | undefined> {
  const row = op.idempotencyKey;
  await begin(client, ops, op, isolation);
  let inserted;
  try {
    // Waits for a concurrent execution's uncommitted row (up to the lock timeout); inserts nothing when a committed one is there.
    inserted = await client.query(`INSERT INTO ${table} (op, expires_at) VALUES ($1, to_timestamp($2)) ON CONFLICT (op) DO NOTHING RETURNING pg_current_xact_id()::text AS x`, [
      row,
      ops.port.recordTtl(),
    ]);
  } catch (e) {
    // Lock or statement timeout: both set to the handler's remaining time.
    if (sqlState(e) !== '55P03' && sqlState(e) !== '57014') throw e;
    throw new EffectError(`node ${ops.context.node}: effect ${op.id}: another execution's transaction holds it past this handler's time; the next execution will look again`);
  }
  const xid = inserted.rows[0]?.x;
  if (xid === undefined) {
    await client.query('ROLLBACK');
    return committedRow(ops, op, client, table, row);
  }
  // Holding the row: an execution that logged its outcome and deleted its row before our insert shows here.
  const again = await readEffect(ops.table, op.key);
  if (again?.state === 'committed') {
    await client.query('ROLLBACK');
    return { json: again.result, logged: true };
  }
  const json = await runGuarded(client, ops, op, fn);
  // Only in our own transaction (xid as at the insert) does this find the row: after a COMMIT or ROLLBACK the callback slipped past the guard, it changes nothing.
  const marked = await client.query(`UPDATE ${table} SET result = $2, done = true WHERE op = $1 AND NOT done AND pg_current_xact_id_if_assigned() = $3::xid8 RETURNING op`, [
    row,
    json ?? null,
    xid,
  ]);
  if (marked.rows.length !== 1) throw misused(ops, op, 'its transaction ended before the library committed it');
  assertInTime(ops, op);
  await client.query('COMMIT');
  return { json, logged: false };
}

export async function withMarker<T>(
  ops: Operations,
  op: Operation,
  pool: PgPool,
  table: string,
  isolation: IsolationLevel | undefined,
  fn: (client: PgClient) => Promise<T>,
): Promise<T> {
  await markerTable(ops, pool, table);
  const row = op.idempotencyKey;
  const forget = (): Promise<unknown> => withClient(pool, (c) => c.query(`DELETE FROM ${table} WHERE op = $1`, [row]));
  for (;;) {
    const recorded = await readEffect(ops.table, op.key);
    if (recorded?.state === 'committed') {
      // The row may outlive the outcome (a crash between the two); it is not needed any more.
      await forget();
      return fromJson(recorded.result);
    }
    const outcome = await attemptOn(pool, (client) => attempt(ops, op, client, table, isolation, fn));
    // The row vanished between our insert and our read: its outcome is logged now.
    if (!outcome) continue;
    if (!outcome.logged) await logEffectOutcome(ops.table, op.key, outcome.json, ops.port.recordTtl());
    await forget();
    await sweep(ops, pool, table);
    return fromJson(outcome.json);
  }
}
