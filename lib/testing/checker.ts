/**
 * The oracle of the fault tests: checks one finished run against the
 * invariants of docs/architecture.md, from the calls the fault proxy recorded
 * and the table's final state.
 *
 * 1. Exactly one final status per run: the run record was created once and
 *    given its final status (SUCCEEDED, FAILED, or ABORTED/TIMED_OUT from
 *    outside the run: a stop request, the deadline) by exactly one
 *    successful write, the run's own or a stop request's (`externalEnds`); a park
 *    for a redrive, which adds to a FAILED record, gives it no status; each
 *    redrive that resumed the run (`redrives`) allows one final write more.
 * 2. Every invocation's successors got identical inputs from all its
 *    executions (and so a fan-in target is never invoked with two inputs),
 *    whether invoked or scheduled after a Wait (the schedule's target input).
 *    The envelope's `lease` is no input: each execution sends the lease it
 *    holds, and a retry may have renewed it (docs/architecture.md "Retention").
 * 3. The result equals the expected one: a fault-free run's, or, when user
 *    code is non-deterministic, what the committed (first-writer) checkpoint
 *    values imply.
 * 4. No coordination state is left but TTL-bound records: the run deleted
 *    nothing of the layout (garbage collection is by TTL alone), every
 *    remaining item it wrote has a TTL, and so has every item of the
 *    workflow's table, scanned after the run:
 *    writes the traffic does not attribute to the run (a failure recorder
 *    without a valid run id, another run's) are checked too.
 * 5. A late duplicate produced no second result (checked by the caller
 *    comparing the record before and after, plus check 1 again).
 * 6. Never more than N item processors of one Map with `maxConcurrency` N
 *    ran at once, measured from the engine's timeline and traffic
 *    (map-concurrency.ts).
 * 7. Every effect applied exactly once: the counters of the stores a
 *    workflow's effects write (a DynamoDB table, a PostgreSQL table), read
 *    after the run, equal what its committed path implies: each counter's
 *    amount per invocation times the committed invocations of the node whose
 *    handler applies it (`EffectCheck`, given by the target).
 * 8. The run stays on the deployment it started on: its record names the
 *    deployment `live` named at its start, and every execution ran on that
 *    deployment's alias (pinning.ts); with deploys during the run, invariant
 *    3 expects what that deployment defines (`byDeployment`).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { isDeepStrictEqual } from 'util';
import type { Json } from '../../runtime/contract/ir';
import { decodeCheckpoint, deploymentKey, type Item, keyOf, parseKey, runResultWritten, runStatusWritten, TABLE, ttlOf } from '../../runtime/contract/table';
import type { RunStatusWithResult } from '../runs/run-status';
import { TableReader } from '../runs/table-reader';
import { mapConcurrencyViolations, type BoundedMap } from './map-concurrency';
import { pinningViolations, type Pinning } from './pinning';
import type { TimelineEntry } from '../local/timeline';
import type { CallRecord } from '../local/call-records';

/** Committed checkpoint values of a run, by invocation identity (the winning conditional put). */
export type Committed = ReadonlyMap<string, Json>;

export type Expectation =
  | { readonly kind: 'result'; readonly result: Json }
  | { readonly kind: 'failed'; readonly error?: string }
  /** Non-deterministic user code: derive the expected result from the committed values. */
  | { readonly kind: 'derived'; readonly expected: (committed: Committed) => Json }
  /** Ended from outside the run: stopped (ABORTED) or past its deadline (TIMED_OUT). */
  | { readonly kind: 'ended'; readonly status: 'ABORTED' | 'TIMED_OUT'; readonly error?: string }
  /** A race (a stop against the run's end): any one of these. */
  | { readonly kind: 'oneOf'; readonly expectations: readonly Expectation[] }
  /** Deploys during the run (`redeploySchedules`): what the deployment its record names defines; a deployment not listed is a violation. */
  | { readonly kind: 'byDeployment'; readonly expectations: ReadonlyMap<string, Expectation> };

function parseBody(body: string): Record<string, unknown> {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** What a single-item request (PutItem, UpdateItem) writes to: its item's key. */
const keyWritten = (body: Record<string, unknown>): string | undefined => keyOf((body.Item ?? body.Key) as Item | undefined);
const kindOf = (key: string | undefined) => (key === undefined ? undefined : parseKey(key)?.kind);

/** Invariant 7's view of a workflow's effects: what one committed invocation of `node` applies, and what the stores hold. */
export interface EffectCheck {
  /** The node whose handler applies the effects. */
  readonly node: string;
  /** Each counter's amount per committed invocation of the node, e.g. `{ charges: 1, orderRows: 1 }`. */
  readonly perInvocation: Readonly<Record<string, number>>;
  /** Each counter for the run as the stores hold it now (a counter never written is 0). */
  applied(workflowId: string): Promise<Readonly<Record<string, number>>>;
  /**
   * The cause of the one failure the node may end the run with when its
   * effects cannot know whether they were applied (a PostgreSQL transaction
   * whose status is lost, under the `introspection` strategy): a run FAILED
   * at the node with an EffectError whose cause matches has each counter at 0
   * or at its one amount. @default no such failure: the committed path rules
   */
  readonly undeterminable?: RegExp;
}

/** What invariant 7 compares, for one run. */
export interface EffectsApplied {
  readonly check: EffectCheck;
  /** The function of `check.node`: committed invocations are the ones named `<function>@...`. */
  readonly functionName: string;
  readonly applied: Readonly<Record<string, number>>;
}

/** Invariant 7: every counter equals its amount times the node's committed invocations; after an undeterminable failure, 0 or its amount. */
export function effectViolations(effects: EffectsApplied, committed: Committed, record?: RunStatusWithResult): string[] {
  const { check, functionName, applied } = effects;
  const failure = record?.status === 'FAILED' ? record.error : undefined;
  if (check.undeterminable && failure?.error === 'EffectError') {
    if (!check.undeterminable.test(failure.cause ?? '')) return [`invariant 7: ${check.node} failed with an EffectError that is not the undeterminable one: ${JSON.stringify(failure.cause ?? null)}`];
    return Object.entries(check.perInvocation).flatMap(([counter, amount]) => {
      const got = applied[counter] ?? 0;
      return got === 0 || got === amount ? [] : [`invariant 7: effect counter ${counter} of ${check.node} is ${got} after an undeterminable failure, which allows 0 or one application (${amount})`];
    });
  }
  const invocations = [...committed.keys()].filter((identity) => identity.startsWith(`${functionName}@`)).length;
  return Object.entries(check.perInvocation).flatMap(([counter, amount]) => {
    const expected = amount * invocations;
    const got = applied[counter] ?? 0;
    return got === expected ? [] : [`invariant 7: effect counter ${counter} of ${check.node} is ${got}, its committed path implies ${expected} (${invocations} committed invocation(s) x ${amount})`];
  });
}

/** Which successful writes the run made to its run record: creations and final updates (not parks for a redrive, not TTL renewals). */
export function runRecordWrites(calls: readonly CallRecord[]): { created: number; finished: number } {
  let created = 0;
  let finished = 0;
  for (const c of calls) {
    const body = parseBody(c.request);
    if (c.call.service !== 'dynamodb' || c.status !== 200 || kindOf(keyWritten(body)) !== 'run') continue;
    if (c.call.operation === 'PutItem') created++;
    if (c.call.operation === 'UpdateItem' && runStatusWritten(body)) finished++;
  }
  return { created, finished };
}

/**
 * The first-writer value of every checkpoint the run committed, by the
 * identity of the invocation that won; the terminal transition's value is the
 * result its commit wrote into the run record.
 */
export function committedValues(calls: readonly CallRecord[]): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const c of calls) {
    if (c.status !== 200) continue;
    const body = parseBody(c.request);
    let json: string | undefined;
    if (c.call.operation === 'PutItem' && kindOf(keyOf(body.Item as Item | undefined)) === 'checkpoint') json = decodeCheckpoint(body.Item as Item)?.json;
    if (c.call.operation === 'UpdateItem' && kindOf(keyWritten(body)) === 'run') json = runResultWritten(body);
    if (json !== undefined) out.set(c.exec.identity, JSON.parse(json) as Json);
  }
  return out;
}

/** Every key the run wrote (puts, updates, batch puts), to inspect what is left. */
export function writtenKeys(calls: readonly CallRecord[]): Set<string> {
  const keys = new Set<string>();
  for (const c of calls) {
    if (c.call.service !== 'dynamodb' || c.status !== 200) continue;
    const body = parseBody(c.request);
    const single = keyWritten(body);
    if (single && ['PutItem', 'UpdateItem'].includes(c.call.operation)) keys.add(single);
    if (c.call.operation === 'BatchWriteItem') {
      for (const requests of Object.values((body.RequestItems ?? {}) as Record<string, Array<{ PutRequest?: { Item?: Item } }>>)) {
        for (const r of requests) {
          const key = keyOf(r.PutRequest?.Item);
          if (key) keys.add(key);
        }
      }
    }
  }
  return keys;
}

/** Invariant 2: group invoke payloads (and the inputs of wake-up schedules) by target invocation; more than one distinct payload is a violation. */
export function successorInputViolations(calls: readonly CallRecord[]): string[] {
  const byTarget = new Map<string, Set<string>>();
  for (const c of calls) {
    const scheduled = c.call.operation === 'CreateSchedule';
    if (c.call.service !== 'lambda' && !scheduled) continue;
    // The target's identity: a Wait's node may be invoked directly (a wake-up already due) or scheduled.
    const key = `Invoke${c.call.label.slice(c.call.label.indexOf('('))}`;
    const set = byTarget.get(key) ?? new Set<string>();
    set.add(inputOf(scheduled ? scheduleInput(c.request) : c.request));
    byTarget.set(key, set);
  }
  const out: string[] = [];
  for (const [target, payloads] of byTarget) {
    if (payloads.size > 1) out.push(`invariant 2: ${target} was invoked with ${payloads.size} different inputs: ${[...payloads].join(' | ')}`);
  }
  return out;
}

/** The event a CreateSchedule request delivers (its target's `Input`). */
function scheduleInput(text: string): string {
  try {
    return String((JSON.parse(text) as { Target?: { Input?: unknown } }).Target?.Input ?? '');
  } catch {
    return text;
  }
}

/** An invoke's payload as compared: JSON with sorted keys (key order is no difference), without the envelope's lease and its MAC. */
function inputOf(text: string): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
    return v;
  };
  try {
    const event = JSON.parse(text) as { unum?: { lease?: unknown }; mac?: unknown } | null;
    if (event?.unum) delete event.unum.lease;
    // The envelope's MAC covers its lease, which differs between executions: the input is the header without both.
    if (event?.unum) delete event.mac;
    return JSON.stringify(sort(event));
  } catch {
    return text;
  }
}

/** Reads the items at `keys` (consistent reads). */
export async function readItems(client: DynamoDBClient, tableName: string, keys: Iterable<string>): Promise<Item[]> {
  return [...(await new TableReader(client, tableName).getMany([...keys])).values()];
}

/**
 * Invariant 4 on the items left: everything left must be bound by TTL (the
 * runtime deletes nothing: checkpoints and fan-in shards expire by TTL).
 */
export function leftoverViolations(items: readonly Item[]): string[] {
  const keys = new Set(items.filter((item) => ttlOf(item) === undefined).map((item) => keyOf(item) ?? '?'));
  return [...keys].map((key) => `invariant 4: ${key} was left without a TTL`);
}

/** Invariant 4: the run deleted no item of the table layout (DeleteItem, or a BatchWriteItem's DeleteRequest). */
export function deletionViolations(calls: readonly CallRecord[]): string[] {
  const deleted = new Set<string>();
  for (const c of calls) {
    if (c.call.service !== 'dynamodb' || c.status !== 200) continue;
    const body = parseBody(c.request);
    const keys = c.call.operation === 'DeleteItem' ? [body.Key as Item | undefined] : [];
    if (c.call.operation === 'BatchWriteItem') {
      for (const requests of Object.values((body.RequestItems ?? {}) as Record<string, Array<{ DeleteRequest?: { Key?: Item } }>>)) keys.push(...requests.map((r) => r.DeleteRequest?.Key));
    }
    for (const key of keys) if (kindOf(keyOf(key)) !== undefined) deleted.add(keyOf(key) as string);
  }
  return [...deleted].map((key) => `invariant 4: ${key} was deleted (garbage collection is by TTL alone)`);
}

/**
 * The deployment records (`dep#...`): kept without a TTL on purpose while
 * their deployment may be used, and given one by the sweeper when it removes
 * the deployment (docs/architecture.md "Deployments"); no run writes them.
 */
const DEPLOYMENT_RECORDS = deploymentKey('');
const isDeploymentRecord = (item: Item): boolean => keyOf(item)?.startsWith(DEPLOYMENT_RECORDS) === true;
/** A workflow's envelope key, which never expires either: every kept deployment's envelopes are sealed with it. */
const isEnvelopeKey = (item: Item): boolean => parseKey(keyOf(item) ?? '')?.kind === 'envelopeKey';

/** Every item of the table without a TTL but the deployment records and the envelope keys (a consistent scan, projected on key and TTL). */
export async function itemsWithoutTtl(client: DynamoDBClient, tableName: string): Promise<Item[]> {
  const out: Item[] = [];
  for await (const item of new TableReader(client, tableName).scan([TABLE.partitionKey, TABLE.ttlAttribute])) {
    if (ttlOf(item) === undefined && !isDeploymentRecord(item) && !isEnvelopeKey(item)) out.push(item);
  }
  return out;
}

export interface CheckInput {
  readonly record: RunStatusWithResult;
  readonly calls: readonly CallRecord[];
  /** The items the run wrote, as they are now. */
  readonly items: readonly Item[];
  /** The items of the table without a TTL (`itemsWithoutTtl`, after the run). */
  readonly untimed: readonly Item[];
  readonly expectation: Expectation;
  /** The run's executions, and the workflow's bounded Maps (`boundedMaps`), for invariant 6. */
  readonly timeline?: readonly TimelineEntry[];
  readonly maps?: readonly BoundedMap[];
  /** The counters of the workflow's effects after the run, for invariant 7. */
  readonly effects?: EffectsApplied;
  /** Final writes made from outside the run's executions (a stop request that ended it), which the traffic does not show. @default 0 */
  readonly externalEnds?: number;
  /** Redrives that resumed the run (FAILED -> RUNNING): each is followed by one more final write. @default 0 */
  readonly redrives?: number;
  /** What invariant 8 compares the run's deployment and executions with. @default invariant 8 unchecked */
  readonly pinning?: Pinning;
}

/** Invariant 3: the record is what `expectation` says (empty: it is). */
function expectationViolations(record: RunStatusWithResult, expectation: Expectation, calls: readonly CallRecord[]): string[] {
  switch (expectation.kind) {
    case 'oneOf': {
      const each = expectation.expectations.map((e) => expectationViolations(record, e, calls));
      return each.some((v) => v.length === 0) ? [] : [`invariant 3: none of the expected ends: ${each.flat().join('; ')}`];
    }
    case 'byDeployment': {
      const own = record.deployment === undefined ? undefined : expectation.expectations.get(record.deployment);
      if (own) return expectationViolations(record, own, calls);
      return [`invariant 3: the run is on deployment ${record.deployment ?? '(none recorded)'}, which defines no result here (deployments known: ${[...expectation.expectations.keys()].join(', ')})`];
    }
    case 'failed':
    case 'ended': {
      const status = expectation.kind === 'failed' ? 'FAILED' : expectation.status;
      if (record.status !== status) return [`invariant 3: expected ${status}, got ${record.status} ${JSON.stringify(record.result ?? record.error ?? null)}`];
      return expectation.error && record.error?.error !== expectation.error ? [`invariant 3: expected error ${expectation.error}, got ${JSON.stringify(record.error)}`] : [];
    }
    default: {
      if (record.status !== 'SUCCEEDED') return [`invariant 1/3: expected SUCCEEDED, got ${record.status} ${JSON.stringify(record.error ?? null)}`];
      const expected = expectation.kind === 'result' ? expectation.result : expectation.expected(committedValues(calls));
      return isDeepStrictEqual(record.result, expected) ? [] : [`invariant 3: result ${JSON.stringify(record.result)} != expected ${JSON.stringify(expected)}`];
    }
  }
}

/** All violations of one finished run (empty: the run is correct). */
export function checkRun(input: CheckInput): string[] {
  const { record, calls, expectation } = input;
  const out: string[] = [];
  const writes = runRecordWrites(calls);
  if (writes.created !== 1) out.push(`invariant 1: run record created ${writes.created} times`);
  const finished = writes.finished + (input.externalEnds ?? 0);
  const owed = 1 + (input.redrives ?? 0);
  if (finished !== owed) out.push(`invariant 1: run record given a final status ${finished} times${owed > 1 ? ` (${owed} expected: ${owed - 1} redrives)` : ''}`);
  out.push(...successorInputViolations(calls));
  out.push(...expectationViolations(record, expectation, calls));
  out.push(...deletionViolations(calls), ...leftoverViolations([...input.items, ...input.untimed]));
  if (input.maps && input.timeline) out.push(...mapConcurrencyViolations(input.maps, input.timeline, calls));
  if (input.effects) out.push(...effectViolations(input.effects, committedValues(calls), record));
  if (input.pinning) out.push(...pinningViolations(record, input.timeline ?? [], input.pinning));
  return out;
}
