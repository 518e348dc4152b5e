/**
 * `unum-cdk/effects/postgres`: PostgreSQL transactions that commit exactly
 * once however often the handler runs (docs/architecture.md "Effects"). The
 * caller brings its own pool (`pg`'s `Pool`, or anything with its
 * `connect`/`query`/`release`); nothing here imports `pg`, so neither it nor
 * this module reaches a function whose handler does not import this entry.
 *
 * - internal table (the default, postgres-marker.ts): the operation's row in a small
 *   table of the library's (`unum_effects`), inserted first in the user's
 *   transaction and marked done with the value last, commits with the
 *   user's statements; a later execution finds it or not.
 * - introspection (opt-in, postgres-introspection.ts): the transaction's id
 *   is claimed in the workflow table and a later execution asks
 *   `pg_xact_status`, fenced by the server's incarnation: after a server
 *   restart a committed outcome is undeterminable (an EffectError).
 *
 * @module unum-cdk/effects/postgres
 */
import type { UnumContext } from '../contract/handler-api';
import { sleep } from '../ports/pool';
import { EffectError, type Operations, operationsOf } from './operations';
import { introspected } from './postgres-introspection';
import { withMarker } from './postgres-marker';
import { ISOLATION_LEVELS, type IsolationLevel, LEAVE_MS, type PgClient, type PgPool, sqlState } from './postgres-session';

export type { UnumContext } from '../contract/handler-api';
export { EffectError } from './operations';
export type { IsolationLevel, PgClient, PgPool, PgResult } from './postgres-session';

export type PostgresStrategy = 'internal-table' | 'introspection';

/** How transaction() runs its transaction again after a serialization failure (40001) or a deadlock (40P01), under the same operation. */
export interface RetryPolicy {
  /** Attempts in all, the first included (1: never again). @default 8 */
  readonly maxAttempts?: number;
  /** The first delay; each next one doubles, with full jitter. @default 20 */
  readonly baseDelayMs?: number;
  /** No delay is longer. @default 1000 */
  readonly maxDelayMs?: number;
}

export interface PostgresEffectsOptions {
  /**
   * How a later execution learns whether the transaction committed:
   * `internal-table`, a marker row of the library's table written in the transaction, holds
   * across server crashes, failovers and lost statuses; `introspection`
   * (PostgreSQL 13+) asks `pg_xact_status` and needs no table, but after a
   * server restart between a commit and its logged outcome it can only fail
   * the execution (EffectError), never guess.
   * @default 'internal-table'
   */
  readonly strategy?: PostgresStrategy;
  /** The marker table (created if missing), optionally schema-qualified. @default 'unum_effects' */
  readonly internalTable?: string;
  /** The isolation level of every transaction (transaction()'s option overrides it). @default the server's default_transaction_isolation */
  readonly isolationLevel?: IsolationLevel;
  /** The retries of every transaction (transaction()'s option overrides it). */
  readonly retry?: RetryPolicy;
}

export interface TransactionOptions {
  /** Names the operation (with its occurrence under that name) instead of the default `transaction`. */
  readonly name?: string;
  /** Issued with BEGIN (the library's statements come first, so `SET TRANSACTION` in `fn` fails). */
  readonly isolationLevel?: IsolationLevel;
  readonly retry?: RetryPolicy;
}

export interface PostgresEffects {
  /**
   * Runs `fn` in a transaction on a connection of the pool and commits it,
   * unless an execution of this invocation committed this operation before:
   * then returns the value that execution's `fn` returned (as JSON keeps
   * it). `fn` must not commit or roll back (its client refuses it;
   * SAVEPOINT and ROLLBACK TO SAVEPOINT are fine); an error it throws rolls
   * the transaction back and is rethrown. Serialization failures and
   * deadlocks are retried here, under the same operation: do not wrap
   * transaction() in a retry loop of your own, since each call is a new
   * operation and a loop would apply the effect again after a crash.
   */
  transaction<T>(fn: (client: PgClient) => Promise<T>, options?: TransactionOptions): Promise<Awaited<T>>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/;
const STRATEGIES: readonly PostgresStrategy[] = ['internal-table', 'introspection'];
/** Serialization failure and deadlock: the server aborted the transaction, which may succeed when run again. */
const RETRYABLE = new Set(['40001', '40P01']);
const DEFAULT_RETRY: Required<RetryPolicy> = { maxAttempts: 8, baseDelayMs: 20, maxDelayMs: 1000 };

function retryPolicy(unum: UnumContext, ...policies: (RetryPolicy | undefined)[]): Required<RetryPolicy> {
  const policy = { ...DEFAULT_RETRY, ...Object.assign({}, ...policies.map((p) => p ?? {})) } as Required<RetryPolicy>;
  for (const [name, min] of [['maxAttempts', 1], ['baseDelayMs', 0], ['maxDelayMs', 0]] as const) {
    if (!Number.isInteger(policy[name]) || policy[name] < min) throw new EffectError(`node ${unum.node}: retry.${name} must be an integer of at least ${min}, got ${JSON.stringify(policy[name])}`);
  }
  return policy;
}

function isolationLevel(unum: UnumContext, level: unknown): IsolationLevel | undefined {
  if (level === undefined || ISOLATION_LEVELS.includes(level as IsolationLevel)) return level as IsolationLevel | undefined;
  throw new EffectError(`node ${unum.node}: isolationLevel must be one of ${ISOLATION_LEVELS.map((l) => `'${l}'`).join(', ')}, got ${JSON.stringify(level)}`);
}

/** Runs `once` until it does not fail with a retryable SQLSTATE, within the policy and the handler's time. */
async function retrying<T>(ops: Operations, policy: Required<RetryPolicy>, once: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (e) {
      const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)) * Math.random();
      if (!RETRYABLE.has(sqlState(e) ?? '') || attempt >= policy.maxAttempts || delay + LEAVE_MS > ops.port.remainingMs()) throw e;
      await sleep(delay);
    }
  }
}

/** PostgreSQL effects of the handler call whose unum context (its last argument) is `unum`, on `pool`. */
export function postgres(unum: UnumContext, pool: PgPool, options: PostgresEffectsOptions = {}): PostgresEffects {
  const ops = operationsOf(unum);
  const table = options.internalTable ?? 'unum_effects';
  if (!IDENTIFIER.test(table)) throw new EffectError(`node ${unum.node}: internalTable ${JSON.stringify(table)} is not a lower-case SQL identifier (optionally schema.table)`);
  const strategy = options.strategy ?? 'internal-table';
  if (!STRATEGIES.includes(strategy)) throw new EffectError(`node ${unum.node}: unknown PostgreSQL strategy ${JSON.stringify(strategy)} (one of ${STRATEGIES.join(', ')})`);
  isolationLevel(unum, options.isolationLevel);
  retryPolicy(unum, options.retry);
  return {
    async transaction<T>(fn: (client: PgClient) => Promise<T>, txOptions: TransactionOptions = {}): Promise<Awaited<T>> {
      if (typeof fn !== 'function') throw new EffectError(`node ${unum.node}: transaction needs a function`);
      const isolation = isolationLevel(unum, txOptions.isolationLevel ?? options.isolationLevel);
      const policy = retryPolicy(unum, options.retry, txOptions.retry);
      const op = ops.next('postgres', txOptions.name ?? 'transaction');
      const once = (): Promise<T> => (strategy === 'introspection' ? introspected(ops, op, pool, isolation, fn) : withMarker(ops, op, pool, table, isolation, fn));
      return retrying(ops, policy, once) as Promise<Awaited<T>>;
    },
  };
}
