/**
 * What both PostgreSQL strategies do on a connection: lend it for one
 * transaction, begin it with the timeouts the library relies on, hand the
 * user's function a client that refuses transaction control, and refuse the
 * COMMIT once the handler's time is up (its run has moved on: States.Timeout).
 */
import { assertRecordable, EffectError, type Operation, type Operations, toJson } from './operations';

/** What a query returns (the part used here). */
export interface PgResult {
  readonly rows: readonly Record<string, unknown>[];
  readonly rowCount?: number | null;
}

/** A connection: `pg`'s `Client` or `PoolClient`. */
export interface PgClient {
  query(text: string, values?: unknown[]): Promise<PgResult>;
}

/** A pool: `pg`'s `Pool`. */
export interface PgPool {
  connect(): Promise<PgClient & { release(destroy?: boolean | Error): void }>;
}

export type IsolationLevel = 'read committed' | 'repeatable read' | 'serializable';
export const ISOLATION_LEVELS: readonly IsolationLevel[] = ['read committed', 'repeatable read', 'serializable'];

export const sqlState = (e: unknown): string | undefined => {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};
export const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Lends a connection for `use`; one that failed mid-transaction is destroyed rather than given back. */
export async function withClient<T>(pool: PgPool, use: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    return await use(client);
  } catch (e) {
    failure = e instanceof Error ? e : new Error(String(e));
    throw e;
  } finally {
    client.release(failure);
  }
}

/** Runs one attempt of a transaction on a lent connection, rolling back whatever it left open when it throws. */
export function attemptOn<T>(pool: PgPool, attempt: (client: PgClient) => Promise<T>): Promise<T> {
  return withClient(pool, async (client) => {
    try {
      return await attempt(client);
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  });
}

/**
 * Time kept back for the COMMIT and what follows it: a transaction whose
 * handler has less left rolls back instead, since a COMMIT answered after the
 * handler's deadline would be an effect of a handler the run saw time out.
 */
export const COMMIT_RESERVE_MS = 1500;
/** How long to wait between looks at an earlier execution's transaction, and how much of the handler's time to leave. */
export const POLL_MS = 200;
export const LEAVE_MS = 2000;

/** The least time a transaction gets for its statements. */
const MIN_TRANSACTION_MS = 250;
const timeoutMs = (ms: number): number => Math.max(1, Math.min(2 ** 31 - 1, Math.floor(ms)));

/**
 * BEGIN with the isolation level, and this transaction's timeouts bounded by
 * the handler's remaining time: no statement or lock wait (a hung duplicate
 * holding the operation's row) outlives the handler, and a transaction
 * whose handler was abandoned (a frozen sandbox, a States.Timeout) is ended
 * by the server once idle. One round trip (simple protocol).
 */
export async function begin(client: PgClient, ops: Operations, op: Operation, isolation: IsolationLevel | undefined): Promise<void> {
  const left = ops.port.remainingMs();
  if (left - COMMIT_RESERVE_MS < MIN_TRANSACTION_MS) {
    throw new EffectError(`node ${ops.context.node}: effect ${op.id}: the handler has ${Math.max(0, Math.floor(left))} ms left, too little to run a transaction and keep ${COMMIT_RESERVE_MS} ms for its commit`);
  }
  const ms = timeoutMs(left - COMMIT_RESERVE_MS);
  const level = isolation ? ` ISOLATION LEVEL ${isolation.toUpperCase()}` : '';
  await client.query(
    `BEGIN${level}; SET LOCAL statement_timeout = ${ms}; SET LOCAL lock_timeout = ${ms}; SET LOCAL idle_in_transaction_session_timeout = ${ms}`,
  );
}

/** Refuses the COMMIT when the handler's time is up; the caller rolls back. */
export function assertInTime(ops: Operations, op: Operation): void {
  if (ops.port.remainingMs() <= COMMIT_RESERVE_MS) {
    throw new EffectError(`node ${ops.context.node}: effect ${op.id}: the handler's time ran out before the commit (States.Timeout): the transaction was rolled back`);
  }
}

/** A misused transaction: the library's COMMIT would not commit what it claimed. */
export const misused = (ops: Operations, op: Operation, what: string): EffectError =>
  new EffectError(
    `node ${ops.context.node}: effect ${op.id}: ${what}; the callback of transaction() must not commit or roll back (the library does; use SAVEPOINT / ROLLBACK TO SAVEPOINT inside it)`,
  );

/**
 * The code of `sql` with comments, strings, quoted identifiers and
 * dollar-quoted bodies blanked, so that what remains are the statements'
 * own words.
 */
function codeOf(sql: string): string {
  let out = '';
  let i = 0;
  const word = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_$]/.test(c);
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < sql.length && depth > 0) {
        const pair = sql.slice(i, i + 2);
        depth += pair === '/*' ? 1 : pair === '*/' ? -1 : 0;
        i += pair === '/*' || pair === '*/' ? 2 : 1;
      }
      out += ' ';
    } else if (c === "'" || c === '"') {
      const escapes = c === "'" && /[eE]/.test(sql[i - 1] ?? '') && !word(sql[i - 2]);
      i++;
      while (i < sql.length) {
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === c && sql[i + 1] === c) i += 2;
        else if (sql[i] === c) break;
        else i++;
      }
      i++;
      out += ' ';
    } else if (c === '$' && !word(sql[i - 1]) && /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.test(sql.slice(i))) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))![0];
      const end = sql.indexOf(tag, i + tag.length);
      i = end < 0 ? sql.length : end + tag.length;
      out += ' ';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The first transaction-control statement of `sql` (its leading words), or undefined. */
export function transactionControl(sql: string): string | undefined {
  for (const statement of codeOf(sql).split(';')) {
    const words = (statement.match(/[A-Za-z_]+/g) ?? []).slice(0, 3).map((w) => w.toUpperCase());
    const [first, second, third] = words;
    const toSavepoint = second === 'TO' || ((second === 'WORK' || second === 'TRANSACTION') && third === 'TO');
    const control =
      ['BEGIN', 'COMMIT', 'END', 'ABORT'].includes(first) ||
      (first === 'START' && second === 'TRANSACTION') ||
      (first === 'PREPARE' && second === 'TRANSACTION') ||
      (first === 'ROLLBACK' && !toSavepoint);
    if (control) return words.join(' ');
  }
  return undefined;
}

/** The client `fn` gets: `client`'s queries, refusing transaction control, and refusing any query once the transaction is over. */
export function guardedClient(client: PgClient, ops: Operations, op: Operation): { client: PgClient; close(): void } {
  let open = true;
  const query = (text: unknown, ...rest: unknown[]): Promise<PgResult> => {
    if (!open) return Promise.reject(new EffectError(`node ${ops.context.node}: effect ${op.id}: a query after its transaction ended (keep the client inside the callback)`));
    const sql = typeof text === 'string' ? text : (text as { text?: unknown } | null)?.text;
    if (typeof sql !== 'string') return Promise.reject(new EffectError(`node ${ops.context.node}: effect ${op.id}: a query needs its SQL text (a string, or an object with a string text)`));
    const control = transactionControl(sql);
    if (control) return Promise.reject(misused(ops, op, `the callback ran ${control}`));
    return (client.query as (...args: unknown[]) => Promise<PgResult>)(text, ...rest);
  };
  return { client: { query } as PgClient, close: () => (open = false) };
}

/** Runs `fn` on a guarded `client` and returns its value as recorded (checked to fit an effect record). */
export async function runGuarded<T>(client: PgClient, ops: Operations, op: Operation, fn: (client: PgClient) => Promise<T>): Promise<string | undefined> {
  const guarded = guardedClient(client, ops, op);
  let json: string | undefined;
  try {
    json = toJson(await fn(guarded.client));
  } finally {
    guarded.close();
  }
  assertRecordable(ops, op, json);
  return json;
}
