/**
 * The PostgreSQL effects' liveness (issue 35, item 1): a hung duplicate
 * holding the operation's row makes an execution give up within its
 * handler's time (lock timeout) rather than wait without bound; a handler
 * abandoned by States.Timeout never commits afterwards; the marker table
 * is swept of rows no execution can look for any more.
 */
import { createHash } from 'node:crypto';
import type { UnumContext } from '../../runtime/effects';
import { useTestDb } from '../support/dynamodb';
import { usePostgres } from '../support/postgres';
import { applications, deliver, runOf, setupFor } from './postgres-setup';

jest.setTimeout(90_000);
const db = useTestDb();
const pg = usePostgres();
const setup = setupFor(db, pg);

/** The marker row's key of the call's first transaction (the operation's idempotency key). */
const markerOf = (unum: UnumContext): string => createHash('sha256').update(`${unum.idempotencyKey}#postgres:transaction:0`).digest('base64url');

test('a hung duplicate holds the operation: the execution gives up with an EffectError within its time, and a later one applies it once', async () => {
  const hung = pg.pool(1);
  let hungPid = 0;
  let holding = true;
  const s = await setup('default', {
    timeoutSeconds: 4,
    handler: async (run, unum) => {
      if (holding) {
        // A duplicate stuck inside its transaction (busy, so no idle timeout ends it), holding the operation's row.
        const c = await hung.connect();
        c.on('error', () => undefined);
        hungPid = (c as unknown as { processID: number }).processID;
        await c.query(`BEGIN; INSERT INTO ${s.markers} (op) VALUES ('${markerOf(unum)}')`);
        void c.query('SELECT pg_sleep(60)').catch(() => c.release(true));
      }
      return run();
    },
  });
  await s.pool.pool.query(`CREATE TABLE ${s.markers} (op text PRIMARY KEY, result text, done boolean NOT NULL DEFAULT false, expires_at timestamptz, created_at timestamptz NOT NULL DEFAULT now())`);
  const id = 'hung';
  try {
    await deliver(s, id, { retryAttempts: 0 });
  } finally {
    holding = false;
    await s.pool.pool.query('SELECT pg_cancel_backend($1)', [hungPid]);
  }
  expect(s.driver.failures).toHaveLength(1);
  expect(s.driver.failures[0].responsePayload).toMatchObject({
    errorType: 'EffectError',
    errorMessage: expect.stringMatching(/node Order: effect postgres:transaction:0: another execution's transaction holds it past this handler's time; the next execution will look again/),
  });
  // The failure recorder failed the run: the invocation's next execution is a redelivery of the same event.
  await s.driver.deliver('fn-Order', { workflowId: `pg-${id}`, input: { id } }, 0);
  expect(await applications(s.pool.pool, s.applied, id)).toBe(1);
});

test('a handler abandoned by States.Timeout while its callback runs rolls back instead of committing', async () => {
  let settled: Promise<unknown> | undefined;
  const s = await setup('default', {
    timeoutSeconds: 2,
    // Busy past the handler's deadline with short statements, so neither server timeout ends the transaction first.
    body: async (sql, id) => {
      const until = Date.now() + 3000;
      while (Date.now() < until) await sql.query('SELECT pg_sleep(0.05)');
      return id;
    },
    handler: async (run) => {
      const p = run();
      settled = p.then(
        () => 'committed',
        (e: unknown) => e,
      );
      return p;
    },
  });
  const id = 'abandoned';
  const run = await runOf(db, s, await deliver(s, id, { retryAttempts: 0 }));
  expect(run).toMatchObject({ status: 'FAILED', error: 'States.Timeout' });
  const outcome = await settled;
  expect(outcome).toBeInstanceOf(Error);
  expect((outcome as Error).message).toMatch(/node Order: effect postgres:transaction:0: the handler's time ran out before the commit \(States.Timeout\): the transaction was rolled back/);
  expect(await applications(s.pool.pool, s.applied, id)).toBe(0);
});

test('the marker table is swept of rows past their expiry, a bounded number, at most once per period; live rows stay', async () => {
  const s = await setup('default');
  const pool = s.pool.pool;
  await pool.query(`CREATE TABLE ${s.markers} (op text PRIMARY KEY, result text, done boolean NOT NULL DEFAULT false, expires_at timestamptz, created_at timestamptz NOT NULL DEFAULT now())`);
  await pool.query(`INSERT INTO ${s.markers} (op, done, expires_at) SELECT 'expired-' || i, true, now() - interval '1 hour' FROM generate_series(1, 150) i`);
  await pool.query(`INSERT INTO ${s.markers} (op, done, expires_at) VALUES ('live', true, now() + interval '1 hour'), ('older-version', true, NULL)`);
  const count = async (where: string): Promise<number> => (await pool.query(`SELECT count(*)::int AS n FROM ${s.markers} WHERE ${where}`)).rows[0].n;
  expect((await runOf(db, s, await deliver(s, 'sweep-1'))).status).toBe('SUCCEEDED');
  // One sweep deletes at most 100 rows.
  expect(await count(`op LIKE 'expired-%'`)).toBe(50);
  expect(await count(`op IN ('live', 'older-version')`)).toBe(2);
  // Within the period no other sweep runs in this process.
  expect((await runOf(db, s, await deliver(s, 'sweep-2'))).status).toBe('SUCCEEDED');
  expect(await count(`op LIKE 'expired-%'`)).toBe(50);
});

test('a marker row expires with the effect records of its invocation', async () => {
  // The crash after the COMMIT leaves the row until the retry logs the outcome and deletes it: read it in between.
  let expiry: number | undefined;
  const crashed = await setup('default', {
    pgCrashes: [
      {
        match: (q) => q === 'COMMIT',
        point: 'after',
        onCrash: async (p) => {
          const r = await p.pool.query(`SELECT extract(epoch FROM expires_at)::bigint AS e FROM ${crashed.markers}`);
          expiry = Number(r.rows[0].e);
          p.killConnections();
        },
      },
    ],
  });
  const before = Math.floor(Date.now() / 1000);
  await deliver(crashed, 'expiry');
  const records = (await db.scan(crashed.workflowTable)).filter((item) => item.st !== undefined);
  expect(records).toHaveLength(1);
  expect(expiry).toBeGreaterThan(before);
  expect(Math.abs(expiry! - Number(records[0].ttl?.N))).toBeLessThanOrEqual(2);
});
