/** The run record `run#<workflow>#<workflowId>`: status, result or error, deadline, redrives. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { boundedError } from '../errors';
import { type RunRef, runKey } from './keys';
import { ABSENT, type Item, N, type PutRequest, RUNS, RUNS_SK, S, TABLE_FORMAT, type UpdateRequest, keyOf, newItem, num, put, readable, str, update } from './encoding';

/**
 * RUNNING, then exactly one final status: SUCCEEDED or FAILED by the run
 * itself, ABORTED by a stop request, TIMED_OUT at the run's deadline.
 */
export type RunRecordStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT';

/** Every status a run record may have. */
export const RUN_STATUSES: readonly string[] = ['RUNNING', 'SUCCEEDED', 'FAILED', 'ABORTED', 'TIMED_OUT'] satisfies RunRecordStatus[];

/** The final statuses a redrive resumes, as Step Functions redrives failed, aborted and timed-out executions: every one but SUCCEEDED. */
export type RedrivableStatus = 'FAILED' | 'ABORTED' | 'TIMED_OUT';
export const REDRIVABLE_STATUSES: readonly RunRecordStatus[] = ['FAILED', 'ABORTED', 'TIMED_OUT'] satisfies RedrivableStatus[];

/** Why a run failed, as the runtime or the failure recorder wrote it. */
export interface RunError {
  /** The node whose invocation failed (the function). */
  readonly node: string;
  /**
   * The state where the run ended, as the definition names it: a Fail state,
   * a Choice state that matched nothing, or the state the node runs. Absent
   * in a record the failure recorder or an older runtime wrote.
   */
  readonly state?: string;
  /** Error name, e.g. `States.TaskFailed` or the handler's `error.name`. */
  readonly error: string;
  readonly cause?: string;
}

/** An error as the runtime writes it: always with a cause (empty when there is none). */
export type WrittenRunError = RunError & { readonly cause: string };

/** How a run ended: the final status `finishRun` sets, with the result (inline JSON or a checkpoint key) or the error. */
export type RunEnd =
  | { readonly status: 'SUCCEEDED'; readonly result?: string; readonly resultRef?: string }
  | { readonly status: 'FAILED'; readonly error: WrittenRunError; readonly redrive?: FailureRedrive }
  | RunInterruption;

/**
 * What a redrive of a FAILED run does about the failing invocation
 * (docs/architecture.md "Redrive"): `redo` names the invocation parked for
 * it (its item written first, `parkedUpdate`); `never` says why a redrive would
 * reach the same failure again (a committed value led there), and no
 * invocation is parked for this run until then. `redrives`: the redrive count
 * the failure was found not stale at (runtime/records/redrive-park.ts `failParked`): the
 * record must still have it, so no redrive came between that check and this write.
 */
export type FailureRedrive = { readonly redo: string; readonly redrives?: number } | { readonly never: string };

/** How a run ends from outside it: a stop request, or its deadline. */
export interface RunInterruption {
  readonly status: 'ABORTED' | 'TIMED_OUT';
  readonly error: WrittenRunError;
  /**
   * TIMED_OUT: the deadline (epoch ms) that passed, as the writer read or
   * scheduled it; the write ends the run only while the record has it (a
   * redrive gives the run a new one, and the old one's schedule may fire after).
   */
  readonly deadline?: number;
}

/** How a run past its `deadline` ends (Step Functions: an execution TIMED_OUT with `States.Timeout`). */
export const runTimedOut = (timeoutSeconds: number, deadline?: number): RunInterruption => ({
  status: 'TIMED_OUT',
  error: { node: '', error: 'States.Timeout', cause: `the run did not finish within its timeout of ${timeoutSeconds} s` },
  ...(deadline === undefined ? {} : { deadline }),
});

/**
 * The TIMED_OUT end of a run with `deadline` (epoch ms) whose timeout began at `since` (ISO-8601:
 * its start, or its last redrive, which gave it a new deadline): its timeout is the difference.
 */
export const runTimedOutAt = (deadline: number, since: string | undefined): RunInterruption =>
  runTimedOut(Math.round((deadline - Date.parse(since ?? '')) / 1000), deadline);

/** When the timeout of the run of `item` began: its last redrive's time, else its start. */
const timeoutSince = (item: Item): string | undefined => str(item, REDRIVEN_AT) ?? str(item, 'startedAt');

/**
 * The deadline of run `record` redriven at `at` (ISO-8601), when it has one: its timeout
 * counts from the redrive, as Step Functions resets the timeout of a redriven execution.
 */
export function redrivenDeadline(record: RunRecord, at: string): number | undefined {
  if (record.deadline === undefined) return undefined;
  return Date.parse(at) + record.deadline - Date.parse(record.redrivenAt ?? record.startedAt ?? '');
}

/** The run record as stored: `result` is the result's JSON, or `resultRef` the key of the checkpoint holding it. */
export interface RunRecord {
  readonly status: RunRecordStatus;
  /** ISO-8601 time the entry function wrote the record. */
  readonly startedAt?: string;
  /** ISO-8601 time the run reached its final status. */
  readonly finishedAt?: string;
  /** Epoch milliseconds after which the run is TIMED_OUT (the workflow's `timeout` from its start). */
  readonly deadline?: number;
  readonly result?: string;
  readonly resultRef?: string;
  readonly error?: RunError;
  /** How many times the run was redriven (`redrive`), when it was. */
  readonly redriveCount?: number;
  /** ISO-8601 time of the last redrive. */
  readonly redrivenAt?: string;
  /** The deployment the run started on (`DEPLOYMENT_ID_PATTERN`); absent in records written before deployments were pinned, or by a terminal write that found no record. */
  readonly deployment?: string;
}

/**
 * The runs index keys of a run record: written with every record that creates
 * a run record and never changed, so the record stays at its place in the
 * index when its status changes, and (the index projecting keys only) a write
 * that changes its status writes no index entry. No other item carries them:
 * the index holds run records only.
 */
export const runIndexAttributes = (run: RunRef, startedAt: string): Item => ({ [RUNS]: S(run.workflow), [RUNS_SK]: S(`${startedAt}#${run.workflowId}`) });

/** The run's deadline (epoch ms), on the record of a workflow with a `timeout`; a redrive sets a new one. */
const DEADLINE = 'dl';
/** The deployment the run started on, and on which its invocations run. */
export const RUN_DEPLOYMENT = 'dep';
/** A FAILED, ABORTED or TIMED_OUT run's parked invocations (string set), which its next redrive resumes. */
const REDO = 'rd';
/** The invocations the last redrive resumes (moved from `rd` by it; removed once it invoked them all). */
const REDOING = 'rdg';
/** How many times the run was redriven, and when last (where its timeout counts from). */
const REDRIVES = 'rc';
const REDRIVEN_AT = 'rda';
/** Why a redrive of this FAILED run would fail it again (`FailureRedrive` `never`). */
const NEVER = 'nr';

/** The condition that a run record was redriven `redrives` times (its value `:rc` added to `values` when it needs one). */
function redriveCountIs(redrives: number, values: Item): string {
  if (redrives === 0) return `attribute_not_exists(${REDRIVES})`;
  values[':rc'] = N(redrives);
  return `${REDRIVES} = :rc`;
}

/**
 * The entry's RUNNING record, with the run's deadline when the workflow has a
 * timeout and the deployment it starts on (absent: an IR the construct did
 * not deploy, as in unit tests): the first start wins.
 */
export const runStart = (run: RunRef, startedAt: string, ttl: number, deadline?: number, deployment?: string): PutRequest =>
  put({
    ...newItem(runKey(run), ttl),
    ...runIndexAttributes(run, startedAt),
    status: S('RUNNING'),
    startedAt: S(startedAt),
    ...(deadline === undefined ? {} : { [DEADLINE]: N(deadline) }),
    ...(deployment ? { [RUN_DEPLOYMENT]: S(deployment) } : {}),
  }, ABSENT);

/** A run record's error, cut to `ERROR_BOUNDS` so that the record always fits in an item. */
function errorAttribute(e: WrittenRunError): AttributeValue {
  const { node, state, error, cause } = boundedError(e);
  return { M: { node: S(node), ...(state === undefined ? {} : { state: S(state) }), error: S(error), cause: S(cause) } };
}

/**
 * A rejected start request's FAILED record (its error cut to `ERROR_BOUNDS`), only where the run has no record:
 * a start request can name any run id, and must not end another caller's run.
 */
export const runRejection = (run: RunRef, error: WrittenRunError, at: string, ttl: number): PutRequest =>
  put({ ...newItem(runKey(run), ttl), ...runIndexAttributes(run, at), status: S('FAILED'), startedAt: S(at), finishedAt: S(at), error: errorAttribute(error) }, ABSENT);

/** When the run of a record began, as the entry wrote it (a record a terminal write created has none). */
export const runStartedAt = (item: Item | undefined): string | undefined => (item ? str(item, 'startedAt') : undefined);

/**
 * The final status, set once: unless the record has one already. A run whose
 * record is missing (the entry's write lost to TTL or never made) may still
 * finish once; the TTL is set either way, so that record expires too, and
 * the runs index keys only where the record has none (a record this creates
 * is listed at its finish time; an existing one keeps its place).
 * `if_not_exists` leaves an existing record's keys as they are, and the index
 * projects keys only, so on the record the entry wrote this changes no
 * attribute of the index and DynamoDB writes no index entry: an index is
 * written only when a table write adds, changes or deletes an item's indexed
 * key attributes or projected attributes (Amazon DynamoDB Developer Guide,
 * "Using Global Secondary Indexes in DynamoDB", write capacity consumption:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Writes).
 * The error is cut to `ERROR_BOUNDS`, so the update always fits in an item.
 */
/** The placeholder of an inline result in `runFinish`, which `runResultWritten` reads back. */
const RESULT = ':result';

export function runFinish(run: RunRef, end: RunEnd, finishedAt: string, ttl: number): UpdateRequest {
  const sets: string[] = [];
  const values: Item = { ':running': S('RUNNING') };
  const set = (name: string, value: AttributeValue): void => {
    const placeholder = `:v${sets.length}`;
    sets.push(`${name} = ${placeholder}`);
    values[placeholder] = value;
  };
  set('#s', S(end.status));
  set('finishedAt', S(finishedAt));
  set('#ttl', N(ttl));
  let add = '';
  let running = '#s = :running';
  if (end.status === 'FAILED' && end.redrive) {
    if ('never' in end.redrive) set(NEVER, S(end.redrive.never));
    else {
      add = ` ADD ${REDO} :redo`;
      values[':redo'] = { SS: [end.redrive.redo] };
      if (end.redrive.redrives !== undefined) running = `(${running} AND ${redriveCountIs(end.redrive.redrives, values)})`;
    }
  }
  if (end.status !== 'SUCCEEDED') set('#e', errorAttribute(end.error));
  else if (end.result !== undefined) {
    sets.push(`#r = ${RESULT}`);
    values[RESULT] = S(end.result);
  }
  else if (end.resultRef !== undefined) set('resultRef', S(end.resultRef));
  const index = runIndexAttributes(run, finishedAt);
  values[':ri'] = index[RUNS];
  values[':rk'] = index[RUNS_SK];
  values[':fv'] = N(TABLE_FORMAT);
  // A record this creates is of this format; one an older runtime created keeps its format (the attributes it lacks stay absent).
  sets.push('#ri = if_not_exists(#ri, :ri)', '#rk = if_not_exists(#rk, :rk)', '#fv = if_not_exists(#fv, :fv)');
  // Past its deadline (by the writer's clock) a run can only time out, whatever its last state did:
  // the timeout's own schedule may fire late or fail, and an execution's read of the deadline may be stale.
  values[':now'] = N(Date.now());
  return update(runKey(run), `SET ${sets.join(', ')}${add}`, values, `${ABSENT} OR (${running} AND (attribute_not_exists(${DEADLINE}) OR ${DEADLINE} > :now))`);
}

/**
 * A run `runFinish` found RUNNING past its deadline (its record `item`, returned by the failed
 * condition): how it ends instead. The timeout is the record's own, its deadline less its start.
 */
export function timedOutInstead(item: Item | undefined): RunInterruption | undefined {
  const deadline = runDeadline(item);
  if (!item || runStatusOf(item) !== 'RUNNING' || deadline === undefined || deadline > Date.now()) return undefined;
  return runTimedOutAt(deadline, timeoutSince(item));
}

/**
 * Ends a run from outside it (a stop request: ABORTED; its deadline:
 * TIMED_OUT): only a RUNNING record, so a finished run stays finished and a
 * run id that names no run creates nothing. TIMED_OUT for a deadline only
 * while the record has that deadline: a redrive gives the run a new one, and
 * the old one's schedule (or a stale read of it) may come after. Not by
 * comparing clocks: the local engine's schedules run on a scaled clock. The
 * TTL stays: the record already lives for the run retention and the run's lease.
 */
export function runInterruption(run: RunRef, end: RunInterruption, finishedAt: string): UpdateRequest {
  const values: Item = { ':running': S('RUNNING'), ':s': S(end.status), ':f': S(finishedAt), ':e': errorAttribute(end.error) };
  if (end.deadline === undefined) return update(runKey(run), 'SET #s = :s, finishedAt = :f, #e = :e', values, '#s = :running');
  values[':dl'] = N(end.deadline);
  return update(runKey(run), 'SET #s = :s, finishedAt = :f, #e = :e', values, `#s = :running AND ${DEADLINE} = :dl`);
}

/** The redrivable statuses as values of a condition (`#s IN (...)`), added to `values`. */
function redrivableStatuses(values: Item): string {
  const names = REDRIVABLE_STATUSES.map((status, i) => {
    values[`:rs${i}`] = S(status);
    return `:rs${i}`;
  });
  return `#s IN (${names.join(', ')})`;
}

/**
 * Parks `invocation` in a FAILED, ABORTED or TIMED_OUT run, for its next
 * redrive: unless the run cannot be redriven (`nr`). A run that has none of
 * those statuses (redriven, so RUNNING again; SUCCEEDED) fails the
 * condition: a RUNNING one's invocation goes on instead.
 */
export function runPark(run: RunRef, invocation: string): UpdateRequest {
  const values: Item = { ':i': { SS: [invocation] } };
  return update(runKey(run), `ADD ${REDO} :i`, values, `${redrivableStatuses(values)} AND attribute_not_exists(${NEVER})`);
}

/** What a redrive read of the run record and writes back (`runRedrive`). */
export interface RedriveWrite {
  /** The final status it read: the record must still have it. */
  readonly status: RedrivableStatus;
  /** The redrive count it read. */
  readonly redrives: number;
  /** How many invocations it read parked. */
  readonly parked: number;
  /** ISO-8601 time of the redrive. */
  readonly at: string;
  /** The run's new deadline (epoch ms, `redrivenDeadline`), when it has a timeout. */
  readonly deadline?: number;
  /** A redrive onto the latest deployment: the run's deployment before and after. */
  readonly move?: { readonly from: string; readonly to: string };
}

/**
 * A redrive (runtime/control/redrive.ts): the run with the final status
 * `status`, redriven `redrives` times so far, with the `parked` invocations
 * the redrive read (the set only grows while the run has that status: the
 * same size is the same set), is RUNNING again, its parked invocations move
 * to `rdg` in the same write (a park after it finds the run RUNNING), its
 * final-status attributes go, and its deadline is the new one (its timeout
 * counting from the redrive). The TTL stays: the record lives at least as
 * long as the run's lease, which the resumed invocations renew. With `move`
 * (a redrive onto the latest deployment), the run's deployment changes from
 * `move.from` to `move.to` in the same write, only on a record still of
 * `move.from`.
 */
export function runRedrive(run: RunRef, w: RedriveWrite): UpdateRequest {
  const { move, deadline } = w;
  const values: Item = { ':status': S(w.status), ':running': S('RUNNING'), ':next': N(w.redrives + 1), ':at': S(w.at), ':k': N(w.parked) };
  const count = redriveCountIs(w.redrives, values);
  if (move) {
    values[':depFrom'] = S(move.from);
    values[':depTo'] = S(move.to);
  }
  if (deadline !== undefined) values[':dl'] = N(deadline);
  const sets = [`#s = :running`, `${REDRIVES} = :next`, `${REDRIVEN_AT} = :at`, `${REDOING} = ${REDO}`, ...(deadline === undefined ? [] : [`${DEADLINE} = :dl`]), ...(move ? [`${RUN_DEPLOYMENT} = :depTo`] : [])];
  return update(
    runKey(run),
    `SET ${sets.join(', ')} REMOVE ${REDO}, finishedAt, #e`,
    values,
    `#s = :status AND ${count} AND size(${REDO}) = :k AND attribute_not_exists(${NEVER})${move ? ` AND ${RUN_DEPLOYMENT} = :depFrom` : ''}`,
  );
}

/** The redrive `redrives` invoked every invocation it resumes. */
export const runRedriveDone = (run: RunRef, redrives: number): UpdateRequest =>
  update(runKey(run), `REMOVE ${REDOING}`, { ':rc': N(redrives) }, `${REDRIVES} = :rc`);

/** What a redrive reads on a run record: the parked invocations, those of a redrive under way, the count, why it cannot be redriven. */
export interface RedriveState {
  readonly redo: readonly string[];
  readonly redoing: readonly string[];
  readonly redrives: number;
  readonly never?: string;
}

export function decodeRedriveState(item: Item): RedriveState {
  readable(item);
  const never = str(item, NEVER);
  return { redo: item[REDO]?.SS ?? [], redoing: item[REDOING]?.SS ?? [], redrives: num(item, REDRIVES) ?? 0, ...(never === undefined ? {} : { never }) };
}

export const runStatusWritten = (request: { readonly UpdateExpression?: unknown }): boolean => String(request.UpdateExpression ?? '').includes('#s = ');

/** The result JSON a `runFinish` request writes inline (a terminal transition's commit), if it writes one. */
export const runResultWritten = (request: { readonly ExpressionAttributeValues?: Item }): string | undefined => request.ExpressionAttributeValues?.[RESULT]?.S;

/**
 * A timestamp as ISO-8601. The runtime stores ISO strings; epoch numbers are
 * read too: below 1e11 as seconds (1e11 s is year 5138), others as milliseconds.
 */
export function timestamp(item: Item, name: string): string | undefined {
  const s = str(item, name);
  if (s !== undefined) return s;
  const n = num(item, name);
  if (n === undefined) return undefined;
  return new Date(n < 1e11 ? n * 1000 : n).toISOString();
}

/** `error` is `{node, state, error, cause}`: a map, or a JSON string like every stored value. */
function runError(item: Item): RunError | undefined {
  const attr = item.error;
  let e: Partial<Record<keyof RunError, unknown>>;
  if (attr?.S !== undefined) e = JSON.parse(attr.S) as typeof e;
  else if (attr?.M) e = Object.fromEntries(['node', 'state', 'error', 'cause'].map((k) => [k, str(attr.M as Item, k)]));
  else return undefined;
  return {
    node: String(e.node ?? '?'),
    ...(e.state != null ? { state: String(e.state) } : {}),
    error: String(e.error ?? 'Error'),
    ...(e.cause != null ? { cause: String(e.cause) } : {}),
  };
}

/** The record's status as stored, which `decodeRunRecord` checks. */
export const runStatusOf = (item: Item): string | undefined => str(item, 'status');

/** The run record `item` (absent: undefined) holds a final status. */
export const runEnded = (item: Item | undefined): boolean => {
  const status = item && runStatusOf(item);
  return status !== undefined && status !== 'RUNNING';
};

/** The run record `item` has a status a redrive resumes (FAILED, ABORTED, TIMED_OUT): an invocation that reads it parks for that redrive. */
export const runRedrivable = (item: Item | undefined): boolean => item !== undefined && (REDRIVABLE_STATUSES as readonly (string | undefined)[]).includes(runStatusOf(item));

/** The run's deadline (epoch ms) on its record `item`, if the workflow has a timeout. */
export const runDeadline = (item: Item | undefined): number | undefined => (item ? num(item, DEADLINE) : undefined);

/** Reads a run record item; throws on a status the layout does not have, or a newer format (`UnumFormatError`). */
export function decodeRunRecord(item: Item): RunRecord {
  readable(item);
  const status = runStatusOf(item);
  if (status === undefined || !RUN_STATUSES.includes(status)) {
    throw new Error(`run record ${keyOf(item)} has an unknown status '${status}'`);
  }
  const startedAt = timestamp(item, 'startedAt');
  const finishedAt = timestamp(item, 'finishedAt');
  const result = str(item, 'result');
  const resultRef = str(item, 'resultRef');
  const error = runError(item);
  const deadline = runDeadline(item);
  const redriveCount = num(item, REDRIVES);
  const redrivenAt = str(item, REDRIVEN_AT);
  const deployment = str(item, RUN_DEPLOYMENT);
  return {
    status: status as RunRecordStatus,
    ...(redriveCount !== undefined ? { redriveCount } : {}),
    ...(redrivenAt !== undefined ? { redrivenAt } : {}),
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(finishedAt !== undefined ? { finishedAt } : {}),
    ...(deadline !== undefined ? { deadline } : {}),
    ...(result !== undefined ? { result } : {}),
    ...(resultRef !== undefined ? { resultRef } : {}),
    ...(error ? { error } : {}),
    ...(deployment !== undefined ? { deployment } : {}),
  };
}
