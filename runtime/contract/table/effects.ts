/** Effect records `effect#<invocation>#<operation>` and the operations logged in users' own items (exactly-once effects). */
import { ABSENT, type Item, N, type PutRequest, S, type UpdateRequest, newItem, put, str, update } from './encoding';

/*
 * What an invocation's effects left (docs/architecture.md "Effects"): a durable
 * step's result, a DynamoDB transaction's marker (written in the transaction),
 * a PostgreSQL transaction's identity and outcome. Keyed by the invocation, so
 * that every execution of it (a retry, a duplicate) finds them; they expire
 * like checkpoints.
 */

/** `pending`: a PostgreSQL transaction `xid` may have committed (ask the database); `committed`: the effect happened, `result` is its value (JSON). */
export interface EffectRecord {
  readonly state: 'pending' | 'committed';
  readonly result?: string;
  readonly xid?: string;
}

const COMMITTED = S('committed');
const PENDING = S('pending');

/** A committed effect (a step's result, a transaction's marker): only the first writer's put succeeds. */
export function effectCommit(key: string, result: string | undefined, ttl: number): PutRequest {
  const item: Item = { ...newItem(key, ttl), st: COMMITTED };
  if (result !== undefined) item.res = S(result);
  return put(item, ABSENT);
}

/** A PostgreSQL transaction's identity, logged before its statements: a new record, or over one whose transaction `replaces` aborted (whose value goes with it). */
export function effectClaim(key: string, xid: string, replaces: string | undefined, ttl: number): UpdateRequest {
  const values: Item = { ':p': PENDING, ':x': S(xid), ':t': N(ttl) };
  if (replaces !== undefined) values[':old'] = S(replaces);
  return update(key, 'SET #st = :p, #xid = :x, #ttl = :t REMOVE #res', values, replaces === undefined ? ABSENT : '#st = :p AND #xid = :old');
}

/** The value of claimed transaction `xid`, logged before it commits: a later execution that finds it committed returns it. */
export const effectResult = (key: string, xid: string, result: string): UpdateRequest => update(key, 'SET #res = :r', { ':r': S(result), ':x': S(xid) }, '#xid = :x');

/** The outcome `committed`, with the value when it was not logged before (an upsert: the record may be missing). */
export function effectOutcome(key: string, result: string | undefined, ttl: number): UpdateRequest {
  const values: Item = { ':c': COMMITTED, ':t': N(ttl) };
  if (result !== undefined) values[':r'] = S(result);
  return update(key, `SET #st = :c, #ttl = if_not_exists(#ttl, :t)${result === undefined ? '' : ', #res = :r'}`, values);
}

export function decodeEffect(item: Item | undefined): EffectRecord | undefined {
  const state = item && str(item, 'st');
  if (state !== 'pending' && state !== 'committed') return undefined;
  const result = str(item as Item, 'res');
  const xid = str(item as Item, 'xid');
  return { state, ...(result === undefined ? {} : { result }), ...(xid === undefined ? {} : { xid }) };
}

/*
 * A single-item update applied once: the operation's tag goes into the item
 * it updates, in the same UpdateItem, under the condition that the item does
 * not hold it yet. Tags live in three rotating string sets per window width
 * (`unumOps_<k>_<slot>`, window 2^k s, at least the longest time between two
 * executions of an invocation): an update adds its tag to the current
 * window's set and removes the set two windows old, so a re-execution (within
 * one window) finds the tag in the current or the previous set, and the item
 * keeps the tags of at most three windows.
 */

/** The part of an UpdateItem input that the log changes. */
export interface ItemUpdate {
  readonly UpdateExpression: string;
  readonly ConditionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
  readonly ExpressionAttributeValues?: Item;
}

/** The attribute names of the window sets of time `now` (epoch seconds): current, previous, and the one removed. */
function opWindows(now: number, windowSeconds: number): { current: string; previous: string; removed: string } {
  const k = Math.max(0, Math.ceil(Math.log2(Math.max(1, windowSeconds))));
  const bucket = Math.floor(now / 2 ** k);
  const slot = (b: number): string => `unumOps_${k}_${((b % 3) + 3) % 3}`;
  return { current: slot(bucket), previous: slot(bucket - 1), removed: slot(bucket + 1) };
}

/** `expression` with `clause` first in its `action` section (added when it has none). */
function withClause(expression: string, action: 'ADD' | 'REMOVE', clause: string): string {
  const section = new RegExp(`(^|\\s)${action}\\s+`, 'i').exec(expression);
  if (!section) return `${expression} ${action} ${clause}`;
  const at = section.index + section[0].length;
  return `${expression.slice(0, at)}${clause}, ${expression.slice(at)}`;
}

/** The user's update with operation `tag` logged in the item, applied only if the item does not hold the tag. */
export function loggedUpdate<T extends ItemUpdate>(request: T, tag: string, now: number, windowSeconds: number): T {
  const w = opWindows(now, windowSeconds);
  const expression = withClause(withClause(request.UpdateExpression, 'ADD', '#unumOpsNow :unumOp'), 'REMOVE', '#unumOpsOld');
  const absent = 'NOT contains(#unumOpsNow, :unumTag) AND NOT contains(#unumOpsPrev, :unumTag)';
  return {
    ...request,
    UpdateExpression: expression,
    ConditionExpression: request.ConditionExpression ? `(${request.ConditionExpression}) AND ${absent}` : absent,
    ExpressionAttributeNames: { ...request.ExpressionAttributeNames, '#unumOpsNow': w.current, '#unumOpsPrev': w.previous, '#unumOpsOld': w.removed },
    ExpressionAttributeValues: { ...request.ExpressionAttributeValues, ':unumOp': { SS: [tag] }, ':unumTag': S(tag) },
  };
}

/** True when `item` (as a failed condition returned it) holds operation `tag` in a set a re-execution at `now` checks. */
export function holdsOperation(item: Item | undefined, tag: string, now: number, windowSeconds: number): boolean {
  const w = opWindows(now, windowSeconds);
  return [w.current, w.previous].some((name) => item?.[name]?.SS?.includes(tag) === true);
}
