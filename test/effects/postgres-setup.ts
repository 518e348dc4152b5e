/**
 * The PostgreSQL effects tests' workflow: one Task whose handler records an
 * order through `postgres(unum, pool).transaction`, run by the test driver
 * on DynamoDB Local and a real PostgreSQL, with a pool that can crash at
 * chosen queries (the connections it lent are destroyed, as a dying process
 * does) and a DynamoDB client that can crash at chosen commands.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Pool, PoolClient } from 'pg';
import { compileWorkflow } from '../../lib/compiler';
import { Definition, Task } from '../../lib/definition';
import { DynamoDbStore } from '../../runtime/aws/dynamodb-store';
import type { UnumContext } from '../../runtime/effects';
import { type PgClient, type PgPool, postgres, type PostgresEffectsOptions, type PostgresStrategy, type TransactionOptions } from '../../runtime/effects/postgres';
import type { TestDb } from '../support/dynamodb';
import { type Crash, CrashError, crashingClient } from '../support/effects';
import { Driver, fromCompiled } from '../support/harness';
import type { TestPostgres } from '../support/postgres';

const ENTRY = '/project/pg-effects.ts';
export const definitionOf = (timeoutSeconds?: number): Definition =>
  Definition.from(new Task('Order', { entry: ENTRY, handler: 'order', ...(timeoutSeconds ? { timeoutSeconds } : {}) }));

export interface PgCrash {
  readonly match: (sql: string) => boolean;
  readonly point: 'before' | 'after';
  /** Instead of destroying the connections: e.g. crash the server. */
  readonly onCrash?: (pool: CrashingPool) => Promise<void>;
}

/** A pool whose queries crash where `crashes` say: the connections it lent are destroyed, then the query fails. */
export class CrashingPool implements PgPool {
  private readonly lent = new Set<PoolClient>();
  private readonly crashes: (PgCrash & { left: number })[];
  /** The backend of the last connection lent. */
  lastPid = 0;
  constructor(
    readonly pool: Pool,
    crashes: readonly PgCrash[] = [],
    /** Runs before every query (to hold one back until another execution got somewhere). */
    private readonly beforeQuery: (sql: string, client: PoolClient) => Promise<void> = async () => undefined,
  ) {
    this.crashes = crashes.map((c) => ({ ...c, left: 1 }));
  }

  /** What a dying process does to its connections. */
  killConnections(): void {
    for (const client of this.lent) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }

  async connect() {
    const client = await this.pool.connect();
    // A connection killed on purpose reports it on the client it belongs to.
    client.on('error', () => undefined);
    this.lent.add(client);
    this.lastPid = (client as unknown as { processID: number }).processID;
    const crash = async (c: PgCrash, text: string): Promise<never> => {
      if (c.onCrash) await c.onCrash(this);
      else this.killConnections();
      throw new CrashError(`injected crash ${c.point} ${text}`);
    };
    const query = async (text: string, values?: unknown[]) => {
      await this.beforeQuery(text, client);
      const armed = this.crashes.find((c) => c.left > 0 && c.match(text));
      if (armed) armed.left--;
      if (armed?.point === 'before') return crash(armed, text);
      const r = await client.query(text, values);
      if (armed?.point === 'after') return crash(armed, text);
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
export async function appliedTable(pool: Pool): Promise<string> {
  const name = `applied_${process.pid}_${++tables}`;
  await pool.query(`CREATE TABLE ${name} (id serial PRIMARY KEY, order_id text NOT NULL)`);
  return name;
}

export async function applications(pool: Pool, table: string, orderId: string): Promise<number> {
  const r = await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE order_id = $1`, [orderId]);
  return r.rows[0].n as number;
}

export interface Setup {
  readonly driver: Driver;
  readonly workflowTable: string;
  readonly pool: CrashingPool;
  readonly applied: string;
  /** The marker table of this setup. */
  readonly markers: string;
  /** What each execution's transaction returned. */
  readonly returned: unknown[];
  /** How often the transaction's callback ran. */
  readonly calls: { n: number };
}

export interface SetupOptions {
  pgCrashes?: PgCrash[];
  dbCrashes?: (pool: CrashingPool) => Crash[];
  beforeQuery?: (sql: string, client: PoolClient) => Promise<void>;
  wrapClient?: (client: DynamoDBClient) => DynamoDBClient;
  /** The callback's body after its INSERT (`call` counts the callback's runs from 0); its value is the transaction's. */
  body?: (sql: PgClient, id: number, call: number) => Promise<unknown>;
  /** What the handler does with the effects (default: one transaction, its value returned as `{ id }`). */
  handler?: (run: (options?: TransactionOptions) => Promise<unknown>, unum: UnumContext) => Promise<unknown>;
  effects?: Omit<PostgresEffectsOptions, 'strategy'>;
  timeoutSeconds?: number;
}

/** `default`: the options name no strategy. */
export function setupFor(db: TestDb, pg: TestPostgres): (strategy: PostgresStrategy | 'default', options?: SetupOptions) => Promise<Setup> {
  return async (strategy, options = {}) => {
    const base = pg.pool();
    const applied = await appliedTable(base);
    const markers = `unum_effects_${process.pid}_${tables}`;
    const pool = new CrashingPool(base, options.pgCrashes ?? [], options.beforeQuery);
    const workflow = await db.table();
    const { client } = crashingClient(options.wrapClient?.(db.client) ?? db.client, options.dbCrashes?.(pool) ?? []);
    const returned: unknown[] = [];
    const calls = { n: 0 };
    const order = async (input: { id: string }, _lambda: unknown, unum: UnumContext) => {
      const fx = postgres(unum, pool, { ...(strategy === 'default' ? {} : { strategy }), internalTable: markers, ...options.effects });
      const run = (txOptions?: TransactionOptions): Promise<unknown> =>
        fx.transaction(async (sql) => {
          const r = await sql.query(`INSERT INTO ${applied} (order_id) VALUES ($1) RETURNING id`, [input.id]);
          const id = r.rows[0].id as number;
          return options.body ? options.body(sql, id, calls.n++) : (calls.n++, id);
        }, txOptions);
      const value = options.handler ? await options.handler(run, unum) : await run();
      returned.push(value);
      return { id: value ?? null };
    };
    const driver = new Driver(new DynamoDbStore(workflow.name, client), fromCompiled(compileWorkflow('pgfx', definitionOf(options.timeoutSeconds)), { order }));
    return { driver, workflowTable: workflow.name, pool, applied, markers, returned, calls };
  };
}

/** Delivers the run's event `duplicates` times at once and drains. */
export async function deliver(s: Setup, orderId: string, options: { duplicates?: number; retryAttempts?: number } = {}): Promise<string> {
  const event = { workflowId: `pg-${orderId}`, input: { id: orderId } };
  await Promise.all(Array.from({ length: options.duplicates ?? 1 }, () => s.driver.deliver('fn-Order', event, options.retryAttempts)));
  await s.driver.drain({ retryAttempts: options.retryAttempts });
  return event.workflowId;
}

/** The run's record: its status, and its result or error. */
export async function runOf(db: TestDb, s: Setup, workflowId: string): Promise<{ status?: string; result?: unknown; error?: string; cause?: string }> {
  const record = await db.run(s.workflowTable, workflowId);
  return {
    status: record?.status?.S,
    result: record?.result?.S === undefined ? undefined : JSON.parse(record.result.S),
    error: record?.error?.M?.error?.S,
    cause: record?.error?.M?.cause?.S,
  };
}
