/**
 * The server's failures (issue 35, item 1): a PostgreSQL crash-restart with
 * the effect's transaction open (an immediate stop and start; a SIGKILL of
 * its backend, after which the postmaster resets without restarting), and a
 * lost transaction status. A crash-restart rolls the transaction-id counter
 * back, so the claimed id is handed out again: the default strategy (the
 * marker row commits with the transaction) holds; introspection must fail
 * safe, never applying twice nor returning a value that was never committed.
 */
import { claimEffect } from '../../runtime/effects/records';
import { INCARNATION_SQL } from '../../runtime/effects/postgres-introspection';
import type { PostgresStrategy } from '../../runtime/effects/postgres';
import { effectKey } from '../../runtime/contract/table';
import { operationsOf } from '../../runtime/effects/operations';
import { useTestDb } from '../support/dynamodb';
import { command, type Crash } from '../support/effects';
import { usePostgres } from '../support/postgres';
import { applications, type CrashingPool, deliver, type PgCrash, runOf, type Setup, setupFor } from './postgres-setup';

jest.setTimeout(120_000);
const db = useTestDb();
const pg = usePostgres();
const setup = setupFor(db, pg);
let n = 0;
const claimWrite = command('UpdateItemCommand', (i) => String(i.UpdateExpression).includes('#xid = :x'));

type ServerCrash = 'immediate restart' | 'backend SIGKILL';
const crashServer = (how: ServerCrash) => async (pool: CrashingPool): Promise<void> => {
  if (how === 'immediate restart') await pg.crashRestart();
  else await pg.killBackend(pool.lastPid);
};

/** Commits transactions until the server hands out id `xid` again (or a later one). */
async function reuseIds(s: Setup, xid: bigint): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = await s.pool.pool.query('SELECT pg_current_xact_id()::text AS x');
    if (BigInt(r.rows[0].x) >= xid) return;
  }
}

/** The transaction id the invocation's claim names (introspection). */
async function claimedXid(s: Setup): Promise<bigint | undefined> {
  const items = await db.scan(s.workflowTable);
  const claim = items.map((i) => i.xid?.S).find((x) => x !== undefined);
  return claim === undefined ? undefined : BigInt(claim.split('@')[0]);
}

describe.each<ServerCrash>(['immediate restart', 'backend SIGKILL'])('PostgreSQL %s with the transaction open', (how) => {
  /** The server crashes right before the library's COMMIT, with the user's statement done; the execution fails. */
  const beforeCommit = (): PgCrash => ({ match: (q) => q === 'COMMIT', point: 'before', onCrash: crashServer(how) });

  test('the default strategy: the next execution applies it once and returns its value', async () => {
    const s = await setup('default', { pgCrashes: [beforeCommit()] });
    const id = `default-${how.replace(/\W+/g, '-')}-${++n}`;
    const run = await runOf(db, s, await deliver(s, id));
    expect(s.driver.executions).toBe(2);
    expect(await applications(s.pool.pool, s.applied, id)).toBe(1);
    const [row] = (await s.pool.pool.query(`SELECT id FROM ${s.applied} WHERE order_id = $1`, [id])).rows;
    expect(run).toMatchObject({ status: 'SUCCEEDED', result: { id: row.id } });
  });

  /**
   * The server crashes right after the claim is logged, before any WAL names
   * the claimed id: the restarted server's counter is back below it.
   */
  const afterClaim = (then: (s: Setup) => Promise<void> = async () => undefined) => (pool: CrashingPool): Crash[] => [
    { match: claimWrite, point: 'after', onCrash: async () => (await crashServer(how)(pool), await then(current!)) },
  ];
  let current: Setup | undefined;

  test('introspection, the claimed id handed out again and committed by someone else: undeterminable, an EffectError, never a value', async () => {
    let claimed: bigint | undefined;
    current = await setup('introspection', {
      dbCrashes: afterClaim(async (s) => {
        claimed = await claimedXid(s);
        // Other clients' transactions take the rolled-back ids, the claimed one among them, and commit.
        await reuseIds(s, claimed!);
      }),
    });
    const s = current;
    const id = `introspection-reused-${how.replace(/\W+/g, '-')}-${++n}`;
    const run = await runOf(db, s, await deliver(s, id, { retryAttempts: 1 }));
    expect((await s.pool.pool.query(`SELECT pg_xact_status($1::xid8)::text AS s`, [String(claimed)])).rows[0].s).toBe('committed');
    expect(run.status).toBe('FAILED');
    expect(run.cause).toMatch(/effect postgres:transaction:0: whether its transaction committed cannot be determined \(the server restarted since transaction \d+ was claimed/);
    expect(await applications(s.pool.pool, s.applied, id)).toBe(0);
  });

  test('introspection, the claimed id not handed out again: it did not commit, the next execution applies it once', async () => {
    current = await setup('introspection', { dbCrashes: afterClaim() });
    const s = current;
    const id = `introspection-fresh-${how.replace(/\W+/g, '-')}-${++n}`;
    const run = await runOf(db, s, await deliver(s, id));
    expect(s.driver.executions).toBe(2);
    expect(run.status).toBe('SUCCEEDED');
    expect(await applications(s.pool.pool, s.applied, id)).toBe(1);
    expect(run.result).toEqual({ id: s.returned[0] });
  });
});

describe.each<PostgresStrategy | 'default'>(['default', 'introspection'])('%s: a server crash after the COMMIT, before the outcome is logged', (strategy) => {
  test('the next execution returns the committed value, or (introspection) fails with an EffectError; never twice', async () => {
    const s = await setup(strategy, { pgCrashes: [{ match: (q) => q === 'COMMIT', point: 'after', onCrash: crashServer('immediate restart') }] });
    const id = `after-commit-${strategy}-${++n}`;
    const run = await runOf(db, s, await deliver(s, id, { retryAttempts: 1 }));
    expect(await applications(s.pool.pool, s.applied, id)).toBe(1);
    if (strategy === 'default') {
      expect(run).toMatchObject({ status: 'SUCCEEDED', result: { id: s.returned[0] ?? (await s.pool.pool.query(`SELECT id FROM ${s.applied} WHERE order_id = $1`, [id])).rows[0].id } });
    } else {
      expect(run.status).toBe('FAILED');
      expect(run.cause).toMatch(/cannot be determined \(the server restarted/);
    }
  });
});

test('introspection: a status the server no longer has (pg_xact_status NULL) is undeterminable: an EffectError naming the node and the operation, never run again', async () => {
  const base = pg.pool(1);
  const incarnation = (await base.query(`SELECT ${INCARNATION_SQL} AS server`)).rows[0].server as string;
  const oldest = Number((await base.query('SELECT oldest_xid::text::bigint AS x FROM pg_control_checkpoint()')).rows[0].x);
  // An earlier execution's claim of a transaction older than the server's oldest known one (its pg_xact truncated away).
  const lost = String(oldest - 100);
  expect((await base.query(`SELECT pg_xact_status($1::xid8)::text AS s`, [lost])).rows[0].s).toBeNull();
  const s = await setup('introspection', {
    handler: async (run, unum) => {
      const ops = operationsOf(unum);
      await claimEffect(ops.table, effectKey(unum.invocation, 'postgres:transaction:0'), `${lost}@${incarnation}`, undefined, ops.port.recordTtl());
      return run();
    },
  });
  const id = `status-lost-${++n}`;
  const run = await runOf(db, s, await deliver(s, id, { retryAttempts: 0 }));
  expect(run.status).toBe('FAILED');
  expect(run.error).toBe('EffectError');
  expect(run.cause).toMatch(new RegExp(`node Order: effect postgres:transaction:0: whether its transaction committed cannot be determined \\(pg_xact_status\\(${lost}\\) is NULL`));
  expect(await applications(s.pool.pool, s.applied, id)).toBe(0);
});
