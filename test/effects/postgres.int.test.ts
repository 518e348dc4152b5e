/**
 * Exactly-once PostgreSQL transactions through the handler context (issue 17,
 * parts 4 and 6; issue 35) on a real PostgreSQL (test/support/postgres.ts)
 * and DynamoDB Local: Golem's crash points, for both strategies (the default
 * marker row in the internal table, and introspection), and concurrent
 * duplicate executions. A crash kills the connections the execution holds,
 * as a dying process does, and fails the call; the driver runs the
 * invocation again as Lambda's async retry would. (Crashes by SIGKILL of a
 * process: postgres-kill.int.test.ts; of the server: postgres-restart.int.test.ts.)
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { PostgresStrategy } from '../../runtime/effects/postgres';
import { parseKey, keyOf } from '../../runtime/contract/table';
import { useTestDb } from '../support/dynamodb';
import { command, type Crash } from '../support/effects';
import { usePostgres } from '../support/postgres';
import { runOrder } from './fixtures/pg-crash-child';
import { applications, appliedTable, type CrashingPool, deliver, runOf, type Setup, setupFor } from './postgres-setup';

jest.setTimeout(90_000);
const db = useTestDb();
const pg = usePostgres();
const setup = setupFor(db, pg);

async function result(s: Setup, workflowId: string): Promise<unknown> {
  const run = await runOf(db, s, workflowId);
  expect(run.status).toBe('SUCCEEDED');
  return run.result;
}

/** The DynamoDB write that logs the transaction's identity (introspection) or its outcome. */
const claimWrite = command('UpdateItemCommand', (i) => String(i.UpdateExpression).includes('#xid = :x'));
const outcomeWrite = command('UpdateItemCommand', (i) => String(i.UpdateExpression).startsWith('SET #st = :c'));

describe.each<PostgresStrategy>(['introspection', 'internal-table'])('PostgreSQL, %s: every crash point leaves the transaction committed exactly once', (strategy) => {
  let n = 0;
  const run = async (s: Setup, options: { duplicates?: number } = {}): Promise<{ orderId: string; workflowId: string }> => {
    const orderId = `${strategy}-${++n}`;
    return { orderId, workflowId: await deliver(s, orderId, options) };
  };

  test('crash before the transaction begins: the retry commits it', async () => {
    const s = await setup(strategy, { pgCrashes: [{ match: (q) => q.startsWith('BEGIN'), point: 'before' }] });
    const { orderId, workflowId } = await run(s);
    expect(await applications(s.pool.pool, s.applied, orderId)).toBe(1);
    expect(await result(s, workflowId)).toEqual({ id: s.returned[0] });
  });

  test('crash after the identity is logged, before the statements: the transaction aborted, the retry runs it again', async () => {
    const crashes =
      strategy === 'introspection'
        ? { dbCrashes: (pool: CrashingPool): Crash[] => [{ match: claimWrite, point: 'after', onCrash: () => pool.killConnections() }] }
        : { pgCrashes: [{ match: (q: string) => q.startsWith('INSERT INTO unum_effects'), point: 'after' as const }] };
    const s = await setup(strategy, crashes);
    const { orderId, workflowId } = await run(s);
    expect(s.driver.executions).toBe(2);
    expect(await applications(s.pool.pool, s.applied, orderId)).toBe(1);
    expect(await result(s, workflowId)).toEqual({ id: s.returned[0] });
  });

  test('crash after the commit, before the outcome is logged: the database says committed, the retry does not run it again and returns its value', async () => {
    const s = await setup(strategy, { pgCrashes: [{ match: (q) => q === 'COMMIT', point: 'after' }] });
    const { orderId, workflowId } = await run(s);
    expect(s.driver.executions).toBe(2);
    expect(await applications(s.pool.pool, s.applied, orderId)).toBe(1);
    const [row] = (await s.pool.pool.query(`SELECT id FROM ${s.applied} WHERE order_id = $1`, [orderId])).rows;
    expect(s.returned).toEqual([row.id]);
    expect(await result(s, workflowId)).toEqual({ id: row.id });
  });

  test('crash after a rollback: nothing committed, the retry commits it once', async () => {
    const s = await setup(strategy, {
      body: async (_sql, id, call) => {
        if (call === 0) throw new Error('the first attempt fails after its statement');
        return id;
      },
    });
    const { orderId, workflowId } = await run(s);
    expect(s.driver.executions).toBe(2);
    expect(await applications(s.pool.pool, s.applied, orderId)).toBe(1);
    expect(await result(s, workflowId)).toEqual({ id: s.returned[0] });
  });

  test('crash after the outcome is logged: the retry returns the logged value', async () => {
    const s = await setup(strategy, { dbCrashes: () => [{ match: outcomeWrite, point: 'after' }] });
    const { orderId, workflowId } = await run(s);
    expect(s.driver.executions).toBe(2);
    expect(await applications(s.pool.pool, s.applied, orderId)).toBe(1);
    expect(s.returned).toHaveLength(1);
    expect(await result(s, workflowId)).toEqual({ id: s.returned[0] });
  });

  test.each([2, 4])('%i concurrent duplicate executions commit it once and all return its value', async (duplicates) => {
    const s = await setup(strategy);
    const { orderId, workflowId } = await run(s, { duplicates });
    expect(await applications(s.pool.pool, s.applied, orderId)).toBe(1);
    const { id } = (await result(s, workflowId)) as { id: number };
    expect(s.returned.length).toBeGreaterThan(0);
    for (const r of s.returned) expect(r).toBe(id);
  });
});

test('introspection: a duplicate that read the claim before the value was logged, and asks after the commit, returns the value', async () => {
  // Holds the first execution's value write until the other execution has read the claim without it,
  // and that execution's status query until the first one returned: the interleaving a loaded machine found.
  let readPending!: () => void;
  const pendingRead = new Promise<void>((resolve) => (readPending = resolve));
  let firstDone!: () => void;
  const done = new Promise<void>((resolve) => (firstDone = resolve));
  let identityLogged!: () => void;
  const claimed = new Promise<void>((resolve) => (identityLogged = resolve));
  const wrapClient = (client: DynamoDBClient): DynamoDBClient =>
    new Proxy(client, {
      get: (target, prop, receiver) =>
        prop !== 'send'
          ? Reflect.get(target, prop, receiver)
          : async (cmd: { constructor: { name: string }; input: { UpdateExpression?: string } }) => {
              if (cmd.constructor.name === 'UpdateItemCommand' && cmd.input.UpdateExpression === 'SET #res = :r') await pendingRead;
              const r = (await target.send(cmd as never)) as { Item?: { st?: { S?: string }; res?: unknown } };
              if (cmd.constructor.name === 'UpdateItemCommand' && String(cmd.input.UpdateExpression).includes('#xid = :x')) identityLogged();
              if (cmd.constructor.name === 'GetItemCommand' && r.Item?.st?.S === 'pending' && r.Item.res === undefined) readPending();
              return r;
            },
    });
  const s = await setup('introspection', { wrapClient, beforeQuery: async (sql) => (sql.startsWith('SELECT pg_xact_status($1') ? done : undefined) });
  const event = { workflowId: 'pg-interleaved', input: { id: 'interleaved' } };
  const first = s.driver.deliver('fn-Order', event).then(firstDone);
  // The duplicate starts once the first execution logged its transaction's identity, so it reads that claim.
  await claimed;
  await Promise.all([first, s.driver.deliver('fn-Order', event)]);
  await s.driver.drain();
  expect(await applications(s.pool.pool, s.applied, 'interleaved')).toBe(1);
  expect(s.returned).toHaveLength(2);
  expect(s.returned[1]).toBe(s.returned[0]);
});

test('the internal table keeps no row once the outcome is logged', async () => {
  const s = await setup('internal-table');
  await s.driver.run({ workflowId: 'pg-rows', input: { id: 'rows' } });
  const rows = await s.pool.pool.query(`SELECT count(*)::int AS n FROM ${s.markers}`);
  expect(rows.rows[0].n).toBe(0);
});

test('the default strategy is the internal table: its row commits with the transaction, no transaction id is logged', async () => {
  const s = await setup('default', { pgCrashes: [{ match: (q) => q === 'COMMIT', point: 'after' }] });
  await s.driver.run({ workflowId: 'pg-default', input: { id: 'default' } });
  expect(s.driver.executions).toBe(2);
  expect(await applications(s.pool.pool, s.applied, 'default')).toBe(1);
  const effects = (await db.scan(s.workflowTable)).filter((item) => parseKey(keyOf(item) ?? '')?.kind === 'effect');
  expect(effects).toHaveLength(1);
  expect(effects[0].xid).toBeUndefined();
  expect(effects[0].st?.S).toBe('committed');
  const rows = await s.pool.pool.query(`SELECT count(*)::int AS n FROM ${s.markers}`);
  expect(rows.rows[0].n).toBe(0);
});

test('introspection logs the transaction id with the server incarnation it was given by', async () => {
  const s = await setup('introspection');
  await s.driver.run({ workflowId: 'pg-claim', input: { id: 'claim' } });
  const effects = (await db.scan(s.workflowTable)).filter((item) => parseKey(keyOf(item) ?? '')?.kind === 'effect');
  expect(effects).toHaveLength(1);
  expect(effects[0].xid?.S).toMatch(/^\d+@\d+:\d+:(\d+|-)$/);
  expect(effects[0].st?.S).toBe('committed');
});

test('a marker table made in advance serves a role that may not create tables (PostgreSQL 15: no CREATE on public)', async () => {
  const admin = pg.pool(1);
  const markers = `unum_effects_made_${process.pid}`;
  const applied = await appliedTable(admin);
  await admin.query(`CREATE ROLE app_${process.pid} LOGIN`);
  await admin.query(`CREATE TABLE ${markers} (op text PRIMARY KEY, result text, done boolean NOT NULL DEFAULT false, expires_at timestamptz, created_at timestamptz NOT NULL DEFAULT now())`);
  await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${markers}, ${applied} TO app_${process.pid}; GRANT USAGE ON SEQUENCE ${applied}_id_seq TO app_${process.pid}`);
  const { name: table } = await db.table();
  const config = { pgUrl: pg.url.replace('postgres@', `app_${process.pid}@`), dynamoEndpoint: db.endpoint, table, invocation: 'made', orderId: 'made', applied, markers, strategy: 'internal-table' as const };
  const value = await runOrder(config);
  expect(await runOrder(config)).toBe(value);
  expect(await applications(admin, applied, 'made')).toBe(1);
});
