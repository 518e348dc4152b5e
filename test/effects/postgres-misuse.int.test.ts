/**
 * What a handler can get wrong in a PostgreSQL effect, and the library's
 * answer (issue 35, item 1): transaction control in the callback is refused
 * (and caught before the COMMIT when it slips past), the isolation level is
 * an option, serialization failures are retried under the same operation (a
 * handler's own retry loop around transaction() broke exactly-once), and an
 * aborted attempt's logged value is never returned for a later one.
 */
import { EffectError, type PgClient, type PostgresStrategy } from '../../runtime/effects/postgres';
import { transactionControl } from '../../runtime/effects/postgres-session';
import { useTestDb } from '../support/dynamodb';
import { usePostgres } from '../support/postgres';
import { applications, deliver, runOf, setupFor } from './postgres-setup';

jest.setTimeout(90_000);
const db = useTestDb();
const pg = usePostgres();
const setup = setupFor(db, pg);
let n = 0;
const orderId = (what: string): string => `${what}-${++n}`;

const serializationFailure = (sql: PgClient): Promise<unknown> => sql.query(`DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$`);

test.each([
  ['COMMIT', 'COMMIT'],
  ['commit work', 'COMMIT WORK'],
  ['ROLLBACK', 'ROLLBACK'],
  ['rollback and chain', 'ROLLBACK AND CHAIN'],
  ['END', 'END'],
  ['ABORT', 'ABORT'],
  ['BEGIN', 'BEGIN'],
  ['start transaction isolation level serializable', 'START TRANSACTION ISOLATION'],
  ["PREPARE TRANSACTION 'x'", 'PREPARE TRANSACTION'],
  ["COMMIT PREPARED 'x'", 'COMMIT PREPARED'],
  ["ROLLBACK PREPARED 'x'", 'ROLLBACK PREPARED'],
  ['SELECT 1; COMMIT', 'COMMIT'],
  ["SELECT ';' AS a; /* c */ -- d\n commit", 'COMMIT'],
])('%j is transaction control', (sql, found) => {
  expect(transactionControl(sql)).toBe(found);
});

test.each([
  'SAVEPOINT a',
  'RELEASE SAVEPOINT a',
  'ROLLBACK TO SAVEPOINT a',
  'ROLLBACK TO a',
  'rollback work to savepoint a',
  "SELECT 'COMMIT'; SELECT \"end\" FROM t",
  'SELECT 1 -- ; COMMIT',
  'SELECT 1 /* ; /* nested */ COMMIT */',
  'DO $body$ BEGIN PERFORM 1; END $body$',
  "SELECT E'it\\'s; COMMIT'",
  'SELECT CASE WHEN true THEN 1 END',
  'PREPARE q AS SELECT 1',
])('%j is not transaction control', (sql) => {
  expect(transactionControl(sql)).toBeUndefined();
});

describe.each<PostgresStrategy>(['internal-table', 'introspection'])('%s', (strategy) => {
  test.each(['COMMIT', 'ROLLBACK', 'SELECT 1; COMMIT'])('%j in the callback is refused: an EffectError naming the operation, nothing applied', async (statement) => {
    const s = await setup(strategy, { body: async (sql) => sql.query(statement) });
    const id = orderId('misuse');
    const run = await runOf(db, s, await deliver(s, id, { retryAttempts: 0 }));
    expect(run.status).toBe('FAILED');
    expect(run.error).toBe(EffectError.name);
    expect(run.cause).toMatch(/node Order: effect postgres:transaction:0: the callback ran (COMMIT|ROLLBACK)/);
    expect(await applications(s.pool.pool, s.applied, id)).toBe(0);
  });

  test('a COMMIT that slips past the guard is caught before the library commits; the effect is never run again', async () => {
    let slipped = false;
    const s = await setup(strategy, {
      body: async (sql) => sql.query('SELECT 1 AS slip'),
      beforeQuery: async (sql, client) => {
        if (sql === 'SELECT 1 AS slip' && !slipped) {
          slipped = true;
          await client.query('COMMIT');
        }
      },
    });
    const id = orderId('slip-commit');
    const run = await runOf(db, s, await deliver(s, id));
    expect(run.status).toBe('FAILED');
    expect(run.cause).toMatch(/effect postgres:transaction:0: .*(ended before the library committed it|committed by the callback)/);
    // Committed by the callback, and never run again.
    expect(await applications(s.pool.pool, s.applied, id)).toBe(1);
  });

  test('a ROLLBACK that slips past the guard is caught; the next execution applies the effect once', async () => {
    let slipped = false;
    const s = await setup(strategy, {
      body: async (sql, id) => (await sql.query('SELECT 1 AS slip'), id),
      beforeQuery: async (sql, client) => {
        if (sql === 'SELECT 1 AS slip' && !slipped) {
          slipped = true;
          await client.query('ROLLBACK');
        }
      },
    });
    const id = orderId('slip-rollback');
    const run = await runOf(db, s, await deliver(s, id));
    expect(s.driver.executions).toBe(2);
    expect(run.status).toBe('SUCCEEDED');
    expect(await applications(s.pool.pool, s.applied, id)).toBe(1);
  });

  test('savepoints stay allowed', async () => {
    const s = await setup(strategy, {
      body: async (sql, id) => {
        await sql.query('SAVEPOINT before_second');
        await sql.query(`INSERT INTO ${s.applied} (order_id) VALUES ('undone')`);
        await sql.query('ROLLBACK TO SAVEPOINT before_second');
        await sql.query('RELEASE SAVEPOINT before_second');
        return id;
      },
    });
    const id = orderId('savepoint');
    expect((await runOf(db, s, await deliver(s, id))).status).toBe('SUCCEEDED');
    expect(await applications(s.pool.pool, s.applied, id)).toBe(1);
    expect(await applications(s.pool.pool, s.applied, 'undone')).toBe(0);
  });

  test.each(['serializable', 'repeatable read'] as const)('isolationLevel %j is issued with BEGIN', async (isolationLevel) => {
    const s = await setup(strategy, { effects: { isolationLevel }, body: async (sql) => (await sql.query('SHOW transaction_isolation')).rows[0].transaction_isolation });
    const run = await runOf(db, s, await deliver(s, orderId('isolation')));
    expect(run.result).toEqual({ id: isolationLevel });
  });

  test('a handler retry loop around transaction() no longer applies it twice: a serialization failure is retried inside, under the same operation', async () => {
    const s = await setup(strategy, {
      body: async (sql, id, call) => (call === 0 ? serializationFailure(sql) : id),
      // The loop PostgreSQL's manual recommends: with positional operation ids it made a second operation.
      handler: async (run) => {
        for (;;) {
          try {
            return await run();
          } catch (e) {
            if ((e as { code?: string }).code !== '40001') throw e;
          }
        }
      },
      pgCrashes: [{ match: (q) => q === 'COMMIT', point: 'after' }],
    });
    const id = orderId('retry-loop');
    const run = await runOf(db, s, await deliver(s, id));
    expect(s.driver.executions).toBe(2);
    expect(s.calls.n).toBe(2);
    expect(await applications(s.pool.pool, s.applied, id)).toBe(1);
    expect(run.result).toEqual({ id: s.returned[0] });
  });

  test('the retries are bounded by retry.maxAttempts; the serialization failure is then the error', async () => {
    const s = await setup(strategy, { effects: { retry: { maxAttempts: 3, baseDelayMs: 1 } }, body: serializationFailure });
    const run = await runOf(db, s, await deliver(s, orderId('retry-bound'), { retryAttempts: 0 }));
    expect(s.calls.n).toBe(3);
    expect(run.status).toBe('FAILED');
    expect(run.cause).toMatch(/conflict/);
  });
});

test('introspection: an aborted attempt logged its value; a committed later attempt that returns undefined returns undefined, not that value', async () => {
  const s = await setup('introspection', {
    body: async (_sql, _id, call) => (call === 0 ? 'stale' : undefined),
    // The first attempt logs its value and dies before its COMMIT; the second commits and dies before logging the outcome.
    pgCrashes: [
      { match: (q) => q === 'COMMIT', point: 'before' },
      { match: (q) => q === 'COMMIT', point: 'after' },
    ],
  });
  const id = orderId('stale');
  const run = await runOf(db, s, await deliver(s, id));
  expect(s.driver.executions).toBe(3);
  expect(run.status).toBe('SUCCEEDED');
  expect(run.result).toEqual({ id: null });
  expect(await applications(s.pool.pool, s.applied, id)).toBe(1);
});

test('an unknown isolation level is an EffectError', async () => {
  const s = await setup('default', { effects: { isolationLevel: 'snapshot' as never } });
  const run = await runOf(db, s, await deliver(s, orderId('bad-isolation'), { retryAttempts: 0 }));
  expect(run.cause).toMatch(/node Order: isolationLevel must be one of 'read committed', 'repeatable read', 'serializable', got \\"snapshot\\"/);
});
