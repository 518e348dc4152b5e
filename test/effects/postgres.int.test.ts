/**
 * Exactly-once PostgreSQL transactions through the handler context (issue 17,
 * parts 4 and 6) on a real PostgreSQL (test/support/postgres.ts) and DynamoDB
 * Local: Golem's crash points, for both strategies (introspection, and the
 * internal table with introspection switched off), and concurrent duplicate
 * executions. A crash kills the connections the execution holds, as a dying
 * process does, and fails the call; the driver runs the invocation again as
 * Lambda's async retry would.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Pool, PoolClient } from 'pg';
import { compileWorkflow } from '../../lib/compiler';
import { Definition, Task } from '../../lib/definition';
import { DynamoDbStore } from '../../runtime/aws/dynamodb-store';
import type { UnumContext } from '../../runtime/effects';
import { EffectError, type PgPool, postgres, type PostgresStrategy } from '../../runtime/effects/postgres';
import { parseKey, keyOf } from '../../runtime/contract/table';
import { useTestDb } from '../support/dynamodb';
import { command, type Crash, CrashError, crashingClient } from '../support/effects';
import { Driver, fromCompiled } from '../support/harness';
import { usePostgres } from '../support/postgres';

jest.setTimeout(90_000);
const db = useTestDb();
const pg = usePostgres();

const ENTRY = '/project/pg-effects.ts';
const definition = Definition.from(new Task('Order', { entry: ENTRY, handler: 'order' }));

/** A pool whose queries crash where `crashes` say: the connections it lent are destroyed, then the query fails. */
class CrashingPool implements PgPool {
  private readonly lent = new Set<PoolClient>();
  constructor(
    readonly pool: Pool,
    private readonly crashes: { match: (sql: string) => boolean; point: 'before' | 'after'; left: number }[] = [],
    /** Runs before every query (to hold one back until another execution got somewhere). */
    private readonly beforeQuery: (sql: string) => Promise<void> = async () => undefined,
  ) {}

  /** What a dying process does to its connections. */
  killConnections(): void {
    for (const client of this.lent) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }

  async connect() {
    const client = await this.pool.connect();
    // A connection killed on purpose reports it on the client it belongs to.
    client.on('error', () => undefined);
    this.lent.add(client);
    const query = async (text: string, values?: unknown[]) => {
      await this.beforeQuery(text);
      const crash = this.crashes.find((c) => c.left > 0 && c.match(text));
      if (crash) crash.left--;
      if (crash?.point === 'before') {
        this.killConnections();
        throw new CrashError(`injected crash before ${text}`);
      }
      const r = await client.query(text, values);
      if (crash?.point === 'after') {
        this.killConnections();
        throw new CrashError(`injected crash after ${text}`);
      }
      return r;
    };
    return {
      query,
      release: (destroy?: boolean | Error) => {
        this.lent.delete(client);
        client.release(destroy);
      },
    };
  }
}

let tables = 0;

/** A fresh `applied` table: one row per application of an order's transaction. */
async function appliedTable(pool: Pool): Promise<string> {
  const name = `applied_${++tables}`;
  await pool.query(`CREATE TABLE ${name} (id serial PRIMARY KEY, order_id text NOT NULL)`);
  return name;
}

async function applications(pool: Pool, table: string, orderId: string): Promise<number> {
  const r = await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE order_id = $1`, [orderId]);
  return r.rows[0].n as number;
}

interface Setup {
  readonly driver: Driver;
  readonly workflowTable: string;
  readonly pool: CrashingPool;
  readonly applied: string;
  /** What each execution's transaction returned. */
  readonly returned: number[];
}

async function setup(
  strategy: PostgresStrategy,
  options: {
    pgCrashes?: { match: (sql: string) => boolean; point: 'before' | 'after' }[];
    dbCrashes?: (pool: CrashingPool) => Crash[];
    failFirst?: boolean;
    beforeQuery?: (sql: string) => Promise<void>;
    wrapClient?: (client: DynamoDBClient) => DynamoDBClient;
  } = {},
): Promise<Setup> {
  const base = pg.pool();
  const applied = await appliedTable(base);
  const pool = new CrashingPool(base, (options.pgCrashes ?? []).map((c) => ({ ...c, left: 1 })), options.beforeQuery);
  const workflow = await db.table();
  const { client } = crashingClient(options.wrapClient?.(db.client) ?? db.client, options.dbCrashes?.(pool) ?? []);
  const returned: number[] = [];
  let calls = 0;
  const order = async (input: { id: string }, _lambda: unknown, unum: UnumContext) => {
    const id = await postgres(unum, pool, { strategy, internalTable: `unum_effects_${tables}` }).transaction(async (sql) => {
      const r = await sql.query(`INSERT INTO ${applied} (order_id) VALUES ($1) RETURNING id`, [input.id]);
      if (options.failFirst && calls++ === 0) throw new Error('the first attempt fails after its statement');
      return r.rows[0].id as number;
    });
    returned.push(id);
    return { id };
  };
  const driver = new Driver(new DynamoDbStore(workflow.name, client), fromCompiled(compileWorkflow('pgfx', definition), { order }));
  return { driver, workflowTable: workflow.name, pool, applied, returned };
}

async function result(s: Setup, workflowId: string): Promise<unknown> {
  const record = await db.run(s.workflowTable, workflowId);
  expect(record?.status?.S).toBe('SUCCEEDED');
  return JSON.parse(record?.result?.S ?? 'null');
}

/** The DynamoDB write that logs the transaction's identity (introspection) or its outcome. */
const claimWrite = command('UpdateItemCommand', (i) => String(i.UpdateExpression).includes('#xid = :x'));
const outcomeWrite = command('UpdateItemCommand', (i) => String(i.UpdateExpression).startsWith('SET #st = :c'));

describe.each<PostgresStrategy>(['introspection', 'internal-table'])('PostgreSQL, %s: every crash point leaves the transaction committed exactly once', (strategy) => {
  let n = 0;
  const run = async (s: Setup, options: { duplicates?: number } = {}): Promise<{ orderId: string; workflowId: string }> => {
    const orderId = `${strategy}-${++n}`;
    const event = { workflowId: `pg-${orderId}`, input: { id: orderId } };
    await Promise.all(Array.from({ length: options.duplicates ?? 1 }, () => s.driver.deliver('fn-Order', event)));
    await s.driver.drain();
    return { orderId, workflowId: event.workflowId };
  };

  test('crash before the transaction begins: the retry commits it', async () => {
    const s = await setup(strategy, { pgCrashes: [{ match: (q) => q === 'BEGIN', point: 'before' }] });
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
    const s = await setup(strategy, { failFirst: true });
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

  test('concurrent duplicate executions commit it once and all return its value', async () => {
    const s = await setup(strategy);
    const { orderId, workflowId } = await run(s, { duplicates: 4 });
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
  const rows = await s.pool.pool.query(`SELECT count(*)::int AS n FROM unum_effects_${tables}`);
  expect(rows.rows[0].n).toBe(0);
});

test('auto chooses introspection on PostgreSQL 15: the identity is logged in the workflow table, no internal table is created', async () => {
  const base = pg.pool();
  const applied = await appliedTable(base);
  const workflow = await db.table();
  const order = async (input: { id: string }, _lambda: unknown, unum: UnumContext) =>
    postgres(unum, base, { internalTable: 'unum_effects_auto' }).transaction(async (sql) => sql.query(`INSERT INTO ${applied} (order_id) VALUES ($1)`, [input.id]).then(() => 'ok'));
  const driver = new Driver(new DynamoDbStore(workflow.name, db.client), fromCompiled(compileWorkflow('pgfx', definition), { order }));
  await driver.run({ workflowId: 'pg-auto', input: { id: 'auto' } });
  const effects = (await db.scan(workflow.name)).filter((item) => parseKey(keyOf(item) ?? '')?.kind === 'effect');
  expect(effects).toHaveLength(1);
  expect(effects[0].xid?.S).toMatch(/^\d+$/);
  expect(effects[0].st?.S).toBe('committed');
  const table = await base.query(`SELECT to_regclass('unum_effects_auto') AS t`);
  expect(table.rows[0].t).toBeNull();
});

test('a server with neither introspection nor a table of its own is an EffectError saying why', async () => {
  const refusing: PgPool = {
    async connect() {
      return {
        async query(text: string) {
          const e = Object.assign(new Error(text.includes('CREATE') ? 'permission denied for schema public' : 'function pg_xact_status(xid8) does not exist'), {
            code: text.includes('CREATE') ? '42501' : '42883',
          });
          throw e;
        },
        release: () => undefined,
      };
    },
  };
  const workflow = await db.table();
  const order = (_input: unknown, _lambda: unknown, unum: UnumContext) => postgres(unum, refusing).transaction(async () => 1);
  const driver = new Driver(new DynamoDbStore(workflow.name, db.client), fromCompiled(compileWorkflow('pgfx', definition), { order }));
  await driver.run({ workflowId: 'pg-none', input: {} }, { retryAttempts: 0 });
  const record = await db.run(workflow.name, 'pg-none');
  expect(record?.status?.S).toBe('FAILED');
  expect(record?.error?.M?.error?.S).toBe(new EffectError('x').name);
  expect(record?.error?.M?.cause?.S).toMatch(
    /need pg_xact_status \(PostgreSQL 13\+\) or a table of their own.*introspection: function pg_xact_status\(xid8\) does not exist; internal table unum_effects: permission denied/,
  );
});
