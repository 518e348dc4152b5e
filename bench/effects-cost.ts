/**
 * Figure 11: what an exactly-once write costs over a plain one (issue 17).
 * The Orders example's own writes (examples/orders/handlers.ts: the charge
 * transaction, the reservation update, the order's rows) run side by side,
 * plain and through the effects (runtime/effects), on DynamoDB Local and a
 * throwaway PostgreSQL; every DynamoDB call is observed on the client and
 * priced by AWS's rules (bench/calls.ts), every PostgreSQL statement counted.
 * A re-execution (the same invocation run again, as after a crash) is
 * measured too: what finding the write applied costs.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type DynamoDBClient, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { Pool } from 'pg';
import { chargeItems, type PricedOrder, recordOrder, reservation } from '../examples/orders/handlers';
import { ORDERS_SCHEMA } from '../examples/orders/database';
import { DynamoDbStore } from '../runtime/aws/dynamodb-store';
import { effects } from '../runtime/effects';
import { type PgClient, type PgPool, postgres, type PostgresStrategy } from '../runtime/effects/postgres';
import { EFFECTS_PORT, type EffectsPort } from '../runtime/step/handler-context';
import type { UnumContext } from '../runtime/contract/handler-api';
import { startPostgres, postgresMissing } from '../test/support/postgres';
import { CallLog, instrument, Pricer } from './calls';
import { fmt, fmtMs, median } from './stats';
import { type BenchContext, type Cell, type FigureOutput, NotMeasured } from './types';

const ORDER: PricedOrder = {
  customer: 'c-1042',
  card: 'tok_visa_4242',
  lines: [{ sku: 'book-ddia', quantity: 1, priceCents: 3999 }, { sku: 'pen-blue', quantity: 3, priceCents: 199 }],
  totalCents: 4596,
  units: 4,
};

/** A pool that counts the statements its connections send (each one a round trip). */
class CountingPool implements PgPool {
  statements = 0;
  constructor(private readonly pool: Pool) {}

  async connect(): Promise<PgClient & { release(destroy?: boolean | Error): void }> {
    const client = await this.pool.connect();
    return {
      query: (text: string, values?: unknown[]) => {
        this.statements++;
        return client.query(text, values);
      },
      release: (destroy?: boolean | Error) => client.release(destroy),
    };
  }
}

interface Sample {
  readonly dynamoCalls: number;
  readonly writeUnits: number;
  readonly readUnits: number;
  readonly statements: number;
  readonly ms: number;
}

/** One way of writing: a first execution, and what a re-execution of the same invocation costs (when it has one). */
interface Variant {
  readonly write: string;
  readonly how: string;
  /** The row this one adds cost over (its plain write); absent for a plain write. */
  readonly over?: string;
  /** One execution writing for invocation `i`; running it again is the invocation's re-execution. */
  readonly run: (i: number) => Promise<void>;
  readonly reexecution?: boolean;
}

/** The context an execution of invocation `invocation` gets (runtime/step/handler-context.ts), without a Lambda around it. */
function contextOf(store: DynamoDbStore, invocation: string): UnumContext {
  const port: EffectsPort = { store, recordTtl: () => Math.floor(Date.now() / 1000) + 86_400, handoffSeconds: 900, remainingMs: () => 60_000 };
  const idempotencyKey = createHash('sha256').update(invocation).digest('base64url');
  const context: UnumContext = { workflow: 'bench', runId: 'bench-run', node: 'PlaceOrder', invocation, idempotencyKey };
  return Object.defineProperty(context, EFFECTS_PORT, { value: port });
}

function variants(client: DynamoDBClient, store: DynamoDbStore, ledger: string, pools: Record<'plain' | PostgresStrategy, CountingPool>): Variant[] {
  const ctx = (name: string, i: number): UnumContext => contextOf(store, `${name}-${i}`);
  const order = (name: string, i: number): string => `${name}-${i}`;
  const plainTransaction = async (pool: CountingPool, orderId: string): Promise<void> => {
    const sql = await pool.connect();
    try {
      await sql.query('BEGIN');
      await recordOrder(sql, orderId, ORDER);
      await sql.query('COMMIT');
    } finally {
      sql.release();
    }
  };
  const pg = (name: string, strategy: PostgresStrategy, returns: boolean) => async (i: number) => {
    const tx = postgres(ctx(name, i), pools[strategy], { strategy });
    await tx.transaction(async (sql) => {
      await recordOrder(sql, order(name, i), ORDER);
      return returns ? { recorded: order(name, i) } : undefined;
    }, { name: 'record' });
  };
  const charge = 'DynamoDB TransactWriteItems (the charge: 2 items)';
  const reserve = 'DynamoDB UpdateItem (the reservation)';
  const record = 'PostgreSQL transaction (the order: 3 INSERTs)';
  return [
    { write: charge, how: 'plain', run: (i) => client.send(new TransactWriteItemsCommand({ TransactItems: chargeItems(ledger, order('tx-plain', i), ORDER) })).then(() => undefined) },
    {
      write: charge, how: 'exactly once: `transactWrite` (+ marker)', over: 'plain', reexecution: true,
      run: (i) => effects(ctx('tx', i)).dynamodb.transactWrite(chargeItems(ledger, order('tx', i), ORDER), { name: 'charge' }).then(() => undefined),
    },
    { write: reserve, how: 'plain', run: (i) => client.send(new UpdateItemCommand(reservation(ledger, order('up-plain', i), ORDER))).then(() => undefined) },
    {
      write: reserve, how: 'exactly once: `updateItem` (Beldi: tag in the item)', over: 'plain', reexecution: true,
      run: (i) => effects(ctx('up', i)).dynamodb.updateItem(reservation(ledger, order('up', i), ORDER), { name: 'reserve' }).then(() => undefined),
    },
    { write: record, how: 'plain (BEGIN, statements, COMMIT)', run: (i) => plainTransaction(pools.plain, order('pg-plain', i)) },
    { write: record, how: 'exactly once: introspection (`pg_xact_status`)', over: 'plain (BEGIN, statements, COMMIT)', reexecution: true, run: pg('pg-intro', 'introspection', false) },
    { write: record, how: 'exactly once: introspection, `fn` returns a value', over: 'plain (BEGIN, statements, COMMIT)', run: pg('pg-intro-value', 'introspection', true) },
    { write: record, how: 'exactly once: internal table (`unum_effects`)', over: 'plain (BEGIN, statements, COMMIT)', reexecution: true, run: pg('pg-table', 'internal-table', false) },
  ];
}

export async function run(ctx: BenchContext): Promise<FigureOutput> {
  const missing = postgresMissing();
  if (missing) throw new NotMeasured(missing);
  const reps = ctx.quick ? 5 : 30;
  const dyn = await ctx.resources.dynamo();
  const log = new CallLog();
  const client = dyn.client();
  instrument(client, log);
  const store = new DynamoDbStore(await dyn.table('effects-workflow'), client);
  const ledger = await dyn.table('effects-ledger');
  const server = await startPostgres();
  try {
    const admin = server.pool(2);
    await admin.query(ORDERS_SCHEMA);
    const pools = { plain: new CountingPool(server.pool(2)), introspection: new CountingPool(server.pool(2)), 'internal-table': new CountingPool(server.pool(2)) };
    const list = variants(client, store, ledger, pools);
    const pricer = new Pricer();
    const measure = async (v: Variant, i: number): Promise<Sample> => {
      const pool = Object.values(pools);
      const before = pool.map((p) => p.statements);
      log.clear();
      const t0 = performance.now();
      await v.run(i);
      const ms = performance.now() - t0;
      const priced = pricer.price(log.calls);
      return { dynamoCalls: log.calls.length, writeUnits: priced.writeUnits, readUnits: priced.readUnits, statements: pool.reduce((a, p, k) => a + p.statements - (before[k] ?? 0), 0), ms };
    };
    // Warm-up: connections, JIT, and each pool's one-time strategy probe (not a per-write cost).
    for (const v of list) await measure(v, -1);
    const first = new Map<Variant, Sample[]>(list.map((v) => [v, []]));
    const again = new Map<Variant, Sample[]>(list.map((v) => [v, []]));
    for (let i = 0; i < reps; i++) {
      for (const v of list) {
        first.get(v)?.push(await measure(v, i));
        if (v.reexecution) again.get(v)?.push(await measure(v, i));
      }
    }
    const med = (samples: readonly Sample[], f: (s: Sample) => number): number => median(samples.map(f));
    const trips = (s: Sample): number => s.dynamoCalls + s.statements;
    const plainSamples = (v: Variant): Sample[] | undefined => {
      const plain = list.find((p) => p.write === v.write && p.how === v.over);
      return plain ? first.get(plain) : undefined;
    };
    /** `base`: the plain write's samples, for the added-cost columns (none for a plain write or a re-execution). */
    const row = (v: Variant, samples: readonly Sample[], label: string, base?: readonly Sample[]): Cell[] => {
      const added = (f: (s: Sample) => number): string => (base ? `+${fmt(med(samples, f) - med(base, f), 2)}` : '');
      return [
        v.write, label,
        fmt(med(samples, (s) => s.writeUnits), 2), fmt(med(samples, (s) => s.readUnits), 2),
        fmt(med(samples, (s) => s.dynamoCalls), 2), fmt(med(samples, (s) => s.statements), 2), fmt(med(samples, trips), 2),
        added((s) => s.writeUnits), added((s) => s.readUnits), added(trips),
        fmtMs(med(samples, (s) => s.ms)),
      ];
    };
    const rows = list.flatMap((v) => [
      row(v, first.get(v) ?? [], v.how, plainSamples(v)),
      ...(v.reexecution ? [row(v, again.get(v) ?? [], `${v.how.replace(/^exactly once: /, '')}, re-executed: finds it applied`)] : []),
    ]);
    ctx.log(`exactly-once writes measured over ${reps} invocations each`);
    return {
      tables: [{
        caption: `Per write, median over ${reps} invocations of each (fresh keys every time; items well under 1 KB). "+" columns: what the exactly-once write adds over the plain write of the same kind. Round trips = DynamoDB calls + PostgreSQL statements. A re-execution does not write again (a plain write would: its full cost again).`,
        headers: ['Write', 'How', 'WU (AWS rules)', 'RU (AWS rules)', 'DynamoDB calls', 'PostgreSQL statements', 'Round trips', '+WU', '+RU', '+Round trips', 'Time here'],
        rows,
      }],
      method: [
        'Command: `npm run bench -- --only 11`. The writes are the Orders example\'s (examples/orders/handlers.ts: `chargeItems`, `reservation`, `recordOrder`), each done plain and through `unum-cdk/effects` / `unum-cdk/effects/postgres` with a handler context built as runtime/step/handler-context.ts builds it, on DynamoDB Local and a throwaway PostgreSQL 15 (test/support/postgres.ts), all in one run, the variants interleaved.',
        'Capacity units follow AWS\'s published rules applied to the observed calls (bench/calls.ts, lib/cost/capacity.ts): a write costs 1 WU per started 1 KB of the larger of the item before and after, doubled inside a transaction; a strongly consistent read 1 RU per started 4 KB. DynamoDB Local\'s own numbers under-report transactions and are not used. PostgreSQL statements are counted on the pool (each one a round trip); the one-time strategy probe of a pool (`pg_xact_status` available? the internal table created?) runs in the warm-up and is not counted.',
        'A re-execution is the same invocation run again (a new execution of the handler, as after a crash after the write): it must find the write applied and not apply it again.',
      ],
      notes: [
        'Time here is indicative only: a shared, loaded 2-core machine, DynamoDB Local and PostgreSQL on it; the capacity units and round trips are the figure.',
      ],
    };
  } finally {
    await server.stop();
  }
}
