/**
 * The opt-in strategy `introspection` (PostgreSQL 13+), after Golem: the
 * transaction's id is claimed in the workflow table before the user's
 * statements and the outcome logged after the COMMIT; an execution that finds
 * a claim without an outcome asks `pg_xact_status`.
 *
 * A transaction id is not durable until WAL names it: a server that crashes
 * (an immediate stop, a SIGKILLed backend) restarts with its counter rolled
 * back and gives the claimed id to another transaction. So the claim also
 * records the server's incarnation, and after a restart a `committed` answer
 * says nothing about ours: the outcome is undeterminable (EffectError, never
 * guessed), while `in progress`, `aborted` or an id "in the future" mean ours
 * did not commit. No answer (NULL: the status was truncated) is undeterminable too.
 */
import { EffectError, fromJson, type Operation, type Operations } from './operations';
import { assertInTime, attemptOn, begin, describe, runGuarded, type IsolationLevel, LEAVE_MS, misused, type PgClient, type PgPool, POLL_MS, sqlState, withClient } from './postgres-session';
import { claimEffect, logEffectOutcome, logEffectResult, readEffect } from './records';
import { sleep } from '../ports/pool';

/**
 * The server's incarnation: its system identifier (which cluster), its
 * postmaster's start (a restart, a failover) and the shared statistics' reset
 * time, which a crash-restart without a new postmaster (a SIGKILLed backend)
 * changes too; a statistics reset by an operator reads as a restart, which
 * only makes a committed outcome undeterminable, never wrong.
 */
export const INCARNATION_SQL = `(SELECT system_identifier FROM pg_control_system())::text
  || ':' || (extract(epoch FROM pg_postmaster_start_time()) * 1000000)::bigint::text
  || ':' || coalesce(((SELECT extract(epoch FROM stats_reset) FROM pg_stat_archiver) * 1000000)::bigint::text, '-')`;

/** SQLSTATEs that mean the server lacks what introspection needs. */
const MISSING_FEATURE = new Set(['42883', '0A000', '42501']);

/** The logged value of a callback that returned undefined (JSON is never empty). */
const UNDEFINED = '';
const valueOf = <T>(logged: string | undefined): T => fromJson(logged === UNDEFINED ? undefined : logged);

/** A claim as logged: `<xid>@<incarnation>`. */
const claimOf = (xid: string, incarnation: string): string => `${xid}@${incarnation}`;
function parseClaim(claim: string): { xid: string; incarnation?: string } {
  const at = claim.indexOf('@');
  return at < 0 ? { xid: claim } : { xid: claim.slice(0, at), incarnation: claim.slice(at + 1) };
}

function unavailable(ops: Operations, e: unknown): unknown {
  return MISSING_FEATURE.has(sqlState(e) ?? '') ? new EffectError(`node ${ops.context.node}: PostgreSQL effects: introspection is not available on this server: ${describe(e)}`) : e;
}

type Status = 'committed' | 'in progress' | 'aborted' | 'future' | null;

async function statusOf(ops: Operations, pool: PgPool, xid: string): Promise<{ status: Status; incarnation?: string }> {
  try {
    const r = await withClient(pool, (c) => c.query(`SELECT pg_xact_status($1::xid8)::text AS s, ${INCARNATION_SQL} AS server`, [xid]));
    return { status: (r.rows[0]?.s ?? null) as Status, incarnation: String(r.rows[0]?.server) };
  } catch (e) {
    // An id the server never handed out durably: its transaction did not commit here.
    if (sqlState(e) === '22023' && /in the future/.test(describe(e))) return { status: 'future' };
    throw unavailable(ops, e);
  }
}

const undeterminable = (ops: Operations, op: Operation, why: string): EffectError =>
  new EffectError(`node ${ops.context.node}: effect ${op.id}: whether its transaction committed cannot be determined (${why}); not running it again`);

/** What a claim found tells: the value is logged, wait, run again replacing the claim, or an error. */
async function judge(ops: Operations, op: Operation, pool: PgPool, claim: string): Promise<'logged' | 'wait' | 'replace'> {
  const { xid, incarnation } = parseClaim(claim);
  const found = await statusOf(ops, pool, xid);
  const restarted = found.incarnation !== undefined && found.incarnation !== incarnation;
  switch (found.status) {
    case null:
      throw undeterminable(ops, op, `pg_xact_status(${xid}) is NULL: the server no longer knows that transaction`);
    case 'committed': {
      if (restarted) throw undeterminable(ops, op, `the server restarted since transaction ${xid} was claimed, and ids are reused after a crash`);
      // The value is logged before the commit, maybe after our first read: read again.
      const now = await readEffect(ops.table, op.key);
      if (now?.state !== 'committed' && now?.result === undefined) {
        throw new EffectError(
          `node ${ops.context.node}: effect ${op.id}: its transaction ${xid} was committed by the callback, not by the library, so its value is unknown; not running it again`,
        );
      }
      await logEffectOutcome(ops.table, op.key, undefined, ops.port.recordTtl());
      return 'logged';
    }
    case 'in progress':
      return restarted ? 'replace' : 'wait';
    default:
      return 'replace';
  }
}

async function attempt<T>(
  ops: Operations,
  op: Operation,
  client: PgClient,
  replaces: string | undefined,
  isolation: IsolationLevel | undefined,
  fn: (client: PgClient) => Promise<T>,
): Promise<{ json: string | undefined } | undefined> {
  await begin(client, ops, op, isolation);
  const me = await client.query(`SELECT pg_current_xact_id()::text AS x, ${INCARNATION_SQL} AS server`).catch((e: unknown) => Promise.reject(unavailable(ops, e)));
  const xid = String(me.rows[0]?.x);
  const claim = claimOf(xid, String(me.rows[0]?.server));
  if (!(await claimEffect(ops.table, op.key, claim, replaces, ops.port.recordTtl()))) {
    await client.query('ROLLBACK');
    return undefined;
  }
  const json = await runGuarded(client, ops, op, fn);
  const current = await client.query('SELECT pg_current_xact_id_if_assigned()::text AS x');
  if (current.rows[0]?.x !== xid) throw misused(ops, op, `its transaction ${xid} ended before the library committed it`);
  // The value (or UNDEFINED) is logged before the commit: an execution that finds the transaction committed returns it, or knows the library did not commit it.
  await logEffectResult(ops.table, op.key, claim, json ?? UNDEFINED);
  assertInTime(ops, op);
  await client.query('COMMIT');
  return { json };
}

export async function introspected<T>(
  ops: Operations,
  op: Operation,
  pool: PgPool,
  isolation: IsolationLevel | undefined,
  fn: (client: PgClient) => Promise<T>,
): Promise<T> {
  for (;;) {
    const recorded = await readEffect(ops.table, op.key);
    if (recorded?.state === 'committed') return valueOf(recorded.result);
    let replaces: string | undefined;
    if (recorded?.xid !== undefined) {
      const verdict = await judge(ops, op, pool, recorded.xid);
      if (verdict === 'logged') continue;
      if (verdict === 'wait') {
        if (ops.port.remainingMs() < POLL_MS + LEAVE_MS) {
          throw new EffectError(`node ${ops.context.node}: effect ${op.id}: transaction ${parseClaim(recorded.xid).xid} of another execution is still in progress; the next execution will look again`);
        }
        await sleep(POLL_MS);
        continue;
      }
      replaces = recorded.xid;
    }
    const outcome = await attemptOn(pool, (client) => attempt(ops, op, client, replaces, isolation, fn));
    // Another execution claimed it first: look at its record again.
    if (!outcome) continue;
    await logEffectOutcome(ops.table, op.key, undefined, ops.port.recordTtl());
    return valueOf(outcome.json);
  }
}
