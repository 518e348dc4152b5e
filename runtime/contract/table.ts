/**
 * The workflow table's layout (docs/architecture.md "Table"; history format in
 * docs/client.md "Run history"): key builders, attribute names, the records
 * and their DynamoDB encoding. The only module that names an attribute or a
 * key prefix (eslint.config.mjs keeps it so): the runtime writes through it
 * (runtime/aws/dynamodb-store.ts), and the client, the local engine's checker and the
 * tools read through it. The runtime bundle keeps only what the runtime uses:
 * the lenient readers below are the client's.
 *
 * Values are JSON strings, not DynamoDB maps: no marshalling in the runtime,
 * and the stored value is byte-identical to what was committed.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { boundedError } from './errors';

/** An item, a key, or the values of an expression, as DynamoDB carries them. */
export type Item = Record<string, AttributeValue>;

const PK = 'pk';
const TTL = 'ttl';
/** Partition key of the runs index: the run's workflow name. Only run records carry it. */
const RUNS = 'runs';
/** Sort key of the runs index: `<startedAt>#<workflowId>`, so a workflow's runs sort by start time, ids breaking ties. */
const RUNS_SK = 'runsSk';
/**
 * The key and TTL attributes the table is created with (construct, local
 * engine), and its one index: `runs`, sparse (only run records carry its
 * keys) and KEYS_ONLY, so that listing the runs of a workflow is a Query, not
 * a Scan, and a run's final write never writes the index (docs/architecture.md
 * "The runs index").
 */
export const TABLE = {
  partitionKey: PK,
  ttlAttribute: TTL,
  runsIndex: { name: 'runs', partitionKey: RUNS, sortKey: RUNS_SK },
} as const;

const S = (s: string): AttributeValue => ({ S: s });
const N = (n: number): AttributeValue => ({ N: String(n) });
const str = (item: Item, name: string): string | undefined => item[name]?.S;
function num(item: Item, name: string): number | undefined {
  const n = item[name]?.N;
  return n === undefined ? undefined : Number(n);
}

// ---------------------------------------------------------------- keys

/**
 * A run: its workflow and its id there. Every key of a run's items carries
 * both (invocation names hash them), so workflows sharing a table never read
 * or write each other's items, even for runs of the same id.
 */
export interface RunRef {
  readonly workflow: string;
  readonly workflowId: string;
}

export const checkpointKey = (invocation: string): string => `ckpt#${invocation}`;

export const shardKey = (joinInvocation: string, level: number, shard: number): string =>
  `fanin#${joinInvocation}#${level}#${shard}`;

export const runKey = (run: RunRef): string => `run#${run.workflow}#${run.workflowId}`;

/** The failure of one attempt of a Parallel/Map state: keyed by the join's invocation name for that attempt. */
export const stateFailureKey = (joinInvocation: string): string => `sfail#${joinInvocation}`;

/** The run's history counter (no `seq`) or its entry `seq`. */
export const historyKey = (run: RunRef, seq?: number): string => `hist#${run.workflow}#${run.workflowId}${seq === undefined ? '' : `#${seq}`}`;

/** A callback Task's waiting record (docs/architecture.md "Callbacks"). */
export const taskWaitKey = (invocation: string): string => `task#${invocation}`;

/** An effect record of an invocation (`unum-cdk/effects`): `operation` is the effect's kind, name and occurrence. */
export const effectKey = (invocation: string, operation: string): string => `effect#${invocation}#${operation}`;

/** An invocation of a FAILED run parked for a redrive (docs/architecture.md "Redrive"). */
export const parkKey = (run: RunRef, invocation: string): string => `park#${run.workflow}#${run.workflowId}#${invocation}`;

/** An invocation name (runtime/contract/naming.ts): 43 base64url characters, the SHA-256 digest. */
export const isInvocationName = (name: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(name);

export const isCheckpointKey = (key: string): boolean => key.startsWith('ckpt#') && isInvocationName(key.slice(5));

/** What a key names. Invocation names, workflow names and workflow ids hold no `#`, so the parts split cleanly. */
export type TableKey =
  | { readonly kind: 'checkpoint'; readonly invocation: string }
  | { readonly kind: 'shard'; readonly join: string; readonly level: number; readonly shard: number }
  | { readonly kind: 'stateFailure'; readonly join: string }
  | ({ readonly kind: 'run' } & RunRef)
  | ({ readonly kind: 'history'; readonly seq?: number } & RunRef)
  | { readonly kind: 'effect'; readonly invocation: string; readonly operation: string }
  | { readonly kind: 'taskWait'; readonly invocation: string }
  | ({ readonly kind: 'park'; readonly invocation: string } & RunRef);

/** The key's parts; undefined for a key of no item of this layout. */
export function parseKey(key: string): TableKey | undefined {
  const hash = key.indexOf('#');
  const rest = key.slice(hash + 1);
  switch (hash < 0 ? '' : key.slice(0, hash)) {
    case 'ckpt':
      return { kind: 'checkpoint', invocation: rest };
    case 'run': {
      const [workflow, workflowId] = rest.split('#');
      return workflowId === undefined ? undefined : { kind: 'run', workflow, workflowId };
    }
    case 'fanin': {
      const [join, level, shard] = rest.split('#');
      return { kind: 'shard', join, level: Number(level), shard: Number(shard) };
    }
    case 'sfail':
      return { kind: 'stateFailure', join: rest };
    case 'task':
      return { kind: 'taskWait', invocation: rest };
    case 'effect': {
      const cut = rest.indexOf('#');
      return cut < 0 ? undefined : { kind: 'effect', invocation: rest.slice(0, cut), operation: rest.slice(cut + 1) };
    }
    case 'park': {
      const [workflow, workflowId, invocation] = rest.split('#');
      return invocation === undefined ? undefined : { kind: 'park', workflow, workflowId, invocation };
    }
    case 'hist': {
      const [workflow, workflowId, seq] = rest.split('#');
      if (workflowId === undefined) return undefined;
      return { kind: 'history', workflow, workflowId, ...(seq === undefined ? {} : { seq: Number(seq) }) };
    }
    default:
      return undefined;
  }
}

export const keyItem = (key: string): Item => ({ [PK]: S(key) });

export const keyOf = (item: Item | undefined): string | undefined => item?.[PK]?.S;

/** Epoch seconds after which DynamoDB's TTL may delete the item; every item the runtime writes has one. */
export const ttlOf = (item: Item): number | undefined => num(item, TTL);

/** A new item's key and TTL: every item the runtime creates expires. */
const newItem = (key: string, ttl: number): Item => ({ ...keyItem(key), [TTL]: N(ttl) });

// ---------------------------------------------------------------- expressions

/** Condition: the item does not exist. */
const ABSENT = 'attribute_not_exists(#pk)';
/** Condition: the item exists. */
const PRESENT = 'attribute_exists(#pk)';

/**
 * What the `#placeholders` in the expressions below stand for: attribute names
 * and DynamoDB reserved words. DynamoDB rejects unused names, so a request
 * gets exactly those its expressions mention.
 */
const NAMES: Record<string, string> = { '#pk': PK, '#ttl': TTL, '#ri': RUNS, '#rk': RUNS_SK, '#s': 'status', '#e': 'error', '#r': 'result', '#st': 'st', '#res': 'res', '#xid': 'xid' };
function namesIn(...expressions: (string | undefined)[]): Record<string, string> | undefined {
  const used = expressions.join(' ').match(/#\w+/g);
  return used ? Object.fromEntries(used.map((n) => [n, NAMES[n]])) : undefined;
}

/** A PutItem as the layout makes it; the store adds the table and what it wants returned. */
export interface PutRequest {
  readonly Item: Item;
  readonly ConditionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
}

/** An UpdateItem as the layout makes it; the store adds the table and what it wants returned. */
export interface UpdateRequest {
  readonly Key: Item;
  readonly UpdateExpression: string;
  readonly ConditionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
  readonly ExpressionAttributeValues: Item;
}

const put = (item: Item, condition?: string): PutRequest => ({ Item: item, ConditionExpression: condition, ExpressionAttributeNames: namesIn(condition) });

const update = (key: string, expression: string, values: Item, condition?: string): UpdateRequest => ({
  Key: keyItem(key),
  UpdateExpression: expression,
  ConditionExpression: condition,
  ExpressionAttributeNames: namesIn(expression, condition),
  ExpressionAttributeValues: values,
});

/** Condition of a TTL renewal: the item exists and expires before `:t` (a renewal never shortens a TTL nor creates an item). */
const EXPIRES_BEFORE = `${PRESENT} AND #ttl < :t`;

/** Raise an item's TTL: what a run still needs (docs/architecture.md "Retention"), a result the run record references. */
export const ttlExtension = (key: string, ttl: number): UpdateRequest => update(key, 'SET #ttl = :t', { ':t': N(ttl) }, EXPIRES_BEFORE);

// ---------------------------------------------------------------- checkpoint `ckpt#<invocation>`

/**
 * A checkpoint as read: the committed value (`v`, or `z` deflated), `c` when
 * a catch rule produced it, its TTL.
 */
export interface Checkpoint {
  readonly json: string;
  readonly catchIndex?: number;
  readonly ttl?: number;
}

/**
 * Values longer than this many bytes are stored deflated (`z`, binary) when
 * that is smaller: writes are billed per 1 KB of item, so a 1-4 KB JSON value
 * (text compresses 2-3x) costs half the write units or less. Smaller values
 * stay plain: compression would not cross a 1 KB boundary.
 */
const DEFLATE_ABOVE_BYTES = 700;

/** The value attribute of a checkpoint holding `json`: plain `v`, or `z` when deflating saves bytes. */
function valueAttribute(json: string): Item {
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes <= DEFLATE_ABOVE_BYTES) return { v: S(json) };
  const deflated = deflateRawSync(json);
  return deflated.length < bytes ? { z: { B: deflated } } : { v: S(json) };
}

/** A binary attribute's bytes: a Uint8Array from the SDK, base64 in DynamoDB JSON on the wire (the fault checker reads requests). */
const bytesOf = (b: Uint8Array | string): Uint8Array => (typeof b === 'string' ? Buffer.from(b, 'base64') : b);

/** The commit: only the first writer's put succeeds. */
export function checkpointPut(key: string, json: string, catchIndex: number | undefined, ttl: number): PutRequest {
  const item: Item = { ...newItem(key, ttl), ...valueAttribute(json) };
  if (catchIndex !== undefined) item.c = N(catchIndex);
  return put(item, ABSENT);
}

/**
 * The catch index (`c`) of a Parallel/Map join's checkpoint that decided to
 * run its state again (a Retry rule matched the failure): its value is the
 * state input, and its successor is the state's fan-out, one iteration later.
 */
export const RETRY_STATE = -1;

/**
 * The catch index of a callback Task's checkpoint whose completion was a
 * failure (sent, or a timeout) that no Retry or Catch rule took: the value
 * is `{Error, Cause, input}` (the state input, for a redrive's next
 * attempt), and the task fails its run or enclosing state. Committed like
 * any result, so that a success and a failure racing have one winner.
 */
export const TASK_FAILED = -2;

/**
 * The catch index of a callback Task's checkpoint whose completion was a
 * failure that a Retry rule retries: the value is a `TaskRetry`
 * (runtime/callbacks/callback-retry.ts), and the successor is the Task's next attempt
 * (its own node, one iteration later, reading this checkpoint by reference):
 * a new invocation with a new token.
 */
export const TASK_RETRY = -3;

/**
 * The catch index of a Parallel/Map join's checkpoint that runs its state
 * again on a redrive (no rule handled the failure): as RETRY_STATE, and the
 * fan-out's frames name the failed attempt (`FanOutFrame.replaces`), whose
 * committed steps the new attempt reuses.
 */
export const REDRIVE_STATE = -4;

/** A checkpoint item's value; undefined for no item, or an item that holds no committed value. */
export function decodeCheckpoint(item: Item | undefined): Checkpoint | undefined {
  const deflated = item?.z?.B as Uint8Array | string | undefined;
  const json = deflated === undefined ? item && str(item, 'v') : inflateRawSync(bytesOf(deflated)).toString('utf8');
  if (json === undefined) return undefined;
  const c = (item as Item).c?.N;
  const ttl = ttlOf(item as Item);
  return { json, ...(c === undefined ? {} : { catchIndex: Number(c) }), ...(ttl === undefined ? {} : { ttl }) };
}

// ---------------------------------------------------------------- fan-in shard `fanin#<join>#<level>#<shard>`

/** A fan-in shard: the arrival codes recorded so far (`a`, a number set), how many it expects (`n`), its TTL. */
export interface FanInShard {
  readonly arrivals: readonly number[];
  readonly expected: number;
  readonly ttl?: number;
}

/** Who claims a fan-in's renewal (an invocation's checkpoint key), and before when the root must expire for it to be due. */
export interface RenewalClaim {
  readonly by: string;
  readonly due: number;
}

/**
 * Renewing a shard's TTL to `:t`. With a claim, the renewal of the whole
 * fan-in is claimed on its root shard: due when the root expires before
 * `:due`, or claimed before by the same invocation (`rb`: a retry finishes what it began).
 */
export function shardRenewal(key: string, ttl: number, claim?: RenewalClaim): UpdateRequest {
  if (!claim) return ttlExtension(key, ttl);
  // A root no arrival has reached yet is created by the claim: the fan-in is renewed all the same.
  return update(key, 'SET #ttl = :t, rb = :by', { ':t': N(ttl), ':due': N(claim.due), ':by': S(claim.by) }, `${ABSENT} OR #ttl < :due OR rb = :by`);
}

/**
 * Recording an arrival: an upsert that creates the shard with the first
 * arrival (nobody creates shards up front) and keeps the TTL of an existing
 * shard (a renewal may have raised it). Adding to a set is idempotent, so a
 * retried or duplicate arrival never counts twice.
 */
export const shardArrival = (key: string, code: number, expected: number, ttl: number): UpdateRequest =>
  update(key, 'ADD a :x SET n = :n, #ttl = if_not_exists(#ttl, :t)', { ':x': { NS: [String(code)] }, ':n': N(expected), ':t': N(ttl) });

/** True for a recorded UpdateExpression that records an arrival (`shardArrival`). */
export const isShardArrival = (updateExpression: unknown): boolean => typeof updateExpression === 'string' && updateExpression.startsWith('ADD a ');

/** `text` with the join names in shard keys replaced by `<join>`, so that texts of different runs compare. */
export const maskShardJoins = (text: string): string => text.replace(/fanin#[A-Za-z0-9_-]+#/g, 'fanin#<join>#');

export const decodeShard = (item: Item): FanInShard => ({ arrivals: (item.a?.NS ?? []).map(Number), expected: Number(item.n?.N ?? 0), ttl: ttlOf(item) });

// ---------------------------------------------------------------- state failure `sfail#<join>`

/**
 * Why one attempt of a Parallel/Map state failed: the first branch error
 * recorded (`e`, `ca`, bounded like every stored error), the invocation that
 * failed (`b`: its later executions owe the join's notice), and, once its
 * join decided to retry, the retries used per Retry rule so far (`r`, JSON).
 */
export interface StateFailure {
  readonly error: string;
  readonly cause: string;
  readonly by?: string;
  readonly retries?: readonly number[];
}

/** The first failing branch's put wins: the state fails once, with its error. */
export function stateFailurePut(join: string, failure: { error: string; cause: string; by: string }, ttl: number): PutRequest {
  const { error, cause } = boundedError({ error: failure.error, cause: failure.cause });
  return put({ ...newItem(stateFailureKey(join), ttl), e: S(error), ca: S(cause), b: S(failure.by) }, ABSENT);
}

/** The join records the retries used when it decides to retry (a value it computes the same way every time). */
export const stateRetries = (join: string, retries: readonly number[]): UpdateRequest =>
  update(stateFailureKey(join), 'SET r = :r', { ':r': S(JSON.stringify(retries)) }, PRESENT);

export function decodeStateFailure(item: Item | undefined): StateFailure | undefined {
  if (!item) return undefined;
  const retries = str(item, 'r');
  const by = str(item, 'b');
  return {
    error: str(item, 'e') ?? 'Error',
    cause: str(item, 'ca') ?? '',
    ...(by === undefined ? {} : { by }),
    ...(retries === undefined ? {} : { retries: JSON.parse(retries) as number[] }),
  };
}

// ---------------------------------------------------------------- callback wait `task#<invocationName>`

/**
 * A callback Task that waits for its token: the token's secret, the state
 * input (a completion's ResultPath merges into it), the invocation's
 * envelope context (JSON: iteration, frames, lease; the completion invokes
 * the successors from it), when the handler started and the last heartbeat
 * (epoch ms). Never a decision: the task's checkpoint is (first completion wins).
 */
export interface TaskWait {
  readonly secret: string;
  readonly input: string;
  readonly context: string;
  readonly startedAt: number;
  /** Heartbeats received so far. */
  readonly beats: number;
}

/** Recorded before the handler runs, once: a later execution of the invocation hands out the same token. */
export const taskWaitPut = (invocation: string, wait: TaskWait, ttl: number): PutRequest =>
  put({ ...newItem(taskWaitKey(invocation), ttl), sec: S(wait.secret), in: S(wait.input), cx: S(wait.context), at: N(wait.startedAt) }, ABSENT);

/** A heartbeat: counted on a record that exists (`UPDATED_NEW` gives the count). */
export const taskHeartbeat = (invocation: string): UpdateRequest => update(taskWaitKey(invocation), 'ADD hb :one', { ':one': N(1) }, PRESENT);

export const decodeHeartbeats = (item: Item | undefined): number => (item && num(item, 'hb')) ?? 0;

export function decodeTaskWait(item: Item | undefined): TaskWait | undefined {
  const secret = item && str(item, 'sec');
  if (!item || secret === undefined) return undefined;
  return { secret, input: str(item, 'in') ?? 'null', context: str(item, 'cx') ?? '{}', startedAt: num(item, 'at') ?? 0, beats: decodeHeartbeats(item) };
}

// ---------------------------------------------------------------- run record `run#<workflow>#<workflowId>`

/**
 * RUNNING, then exactly one final status: SUCCEEDED or FAILED by the run
 * itself, ABORTED by a stop request, TIMED_OUT at the run's deadline.
 */
export type RunRecordStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT';

/** Every status a run record may have. */
export const RUN_STATUSES: readonly string[] = ['RUNNING', 'SUCCEEDED', 'FAILED', 'ABORTED', 'TIMED_OUT'] satisfies RunRecordStatus[];

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
}

/** How a run past its deadline ends (Step Functions: an execution TIMED_OUT with `States.Timeout`). */
export const runTimedOut = (timeoutSeconds: number): RunInterruption => ({
  status: 'TIMED_OUT',
  error: { node: '', error: 'States.Timeout', cause: `the run did not finish within its timeout of ${timeoutSeconds} s` },
});

/** The TIMED_OUT end of a run started at `startedAt` (ISO-8601) with `deadline` (epoch ms): its timeout is the difference. */
export const runTimedOutAt = (deadline: number, startedAt: string | undefined): RunInterruption =>
  runTimedOut(Math.round((deadline - Date.parse(startedAt ?? '')) / 1000));

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
}

/**
 * The runs index keys of a run record: written with every record that creates
 * a run record and never changed, so the record stays at its place in the
 * index when its status changes, and (the index projecting keys only) a write
 * that changes its status writes no index entry. No other item carries them:
 * the index holds run records only.
 */
export const runIndexAttributes = (run: RunRef, startedAt: string): Item => ({ [RUNS]: S(run.workflow), [RUNS_SK]: S(`${startedAt}#${run.workflowId}`) });

/** The run's deadline (epoch ms), on the record of a workflow with a `timeout`. */
const DEADLINE = 'dl';
/** A FAILED run's parked invocations (string set), which its next redrive resumes. */
const REDO = 'rd';
/** The invocations the last redrive resumes (moved from `rd` by it; removed once it invoked them all). */
const REDOING = 'rdg';
/** How many times the run was redriven, and when last. */
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

/** The entry's RUNNING record, with the run's deadline when the workflow has a timeout: the first start wins. */
export const runStart = (run: RunRef, startedAt: string, ttl: number, deadline?: number): PutRequest =>
  put({
    ...newItem(runKey(run), ttl),
    ...runIndexAttributes(run, startedAt),
    status: S('RUNNING'),
    startedAt: S(startedAt),
    ...(deadline === undefined ? {} : { [DEADLINE]: N(deadline) }),
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
  sets.push('#ri = if_not_exists(#ri, :ri)', '#rk = if_not_exists(#rk, :rk)');
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
  return runTimedOutAt(deadline, str(item, 'startedAt'));
}

/**
 * Ends a run from outside it (a stop request: ABORTED; its deadline:
 * TIMED_OUT): only a RUNNING record, so a finished run stays finished and a
 * run id that names no run creates nothing. The TTL stays: the record already
 * lives for the run retention and the run's lease.
 */
export function runInterruption(run: RunRef, end: RunInterruption, finishedAt: string): UpdateRequest {
  const values: Item = { ':running': S('RUNNING'), ':s': S(end.status), ':f': S(finishedAt), ':e': errorAttribute(end.error) };
  return update(runKey(run), 'SET #s = :s, finishedAt = :f, #e = :e', values, '#s = :running');
}

/**
 * Parks `invocation` in a FAILED run, for its next redrive: unless the run
 * cannot be redriven (`nr`). A run that is no longer FAILED (redriven, so
 * RUNNING again) fails the condition: the invocation goes on instead.
 */
export const runPark = (run: RunRef, invocation: string): UpdateRequest =>
  update(runKey(run), `ADD ${REDO} :i`, { ':i': { SS: [invocation] }, ':failed': S('FAILED') }, `#s = :failed AND attribute_not_exists(${NEVER})`);

/**
 * A redrive (lib/client/redrive.ts): the FAILED run that was redriven
 * `redrives` times so far, with the `parked` invocations the redrive read
 * (the set only grows while the run is FAILED: the same size is the same
 * set), is RUNNING again, its parked invocations move to `rdg` in the same
 * write (a park after it finds the run RUNNING), its final-status attributes
 * go. The TTL stays: the record lives at least as long as the run's lease,
 * which the resumed invocations renew.
 */
export function runRedrive(run: RunRef, redrives: number, parked: number, at: string): UpdateRequest {
  const values: Item = { ':failed': S('FAILED'), ':running': S('RUNNING'), ':next': N(redrives + 1), ':at': S(at), ':k': N(parked) };
  const count = redriveCountIs(redrives, values);
  return update(
    runKey(run),
    `SET #s = :running, ${REDRIVES} = :next, ${REDRIVEN_AT} = :at, ${REDOING} = ${REDO} REMOVE ${REDO}, finishedAt, #e`,
    values,
    `#s = :failed AND ${count} AND size(${REDO}) = :k AND attribute_not_exists(${NEVER})`,
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
  const never = str(item, NEVER);
  return { redo: item[REDO]?.SS ?? [], redoing: item[REDOING]?.SS ?? [], redrives: num(item, REDRIVES) ?? 0, ...(never === undefined ? {} : { never }) };
}

// ---------------------------------------------------------------- parked invocation `park#<workflow>#<workflowId>#<invocation>`

/** An invocation parked for a redrive: the function to invoke, its event (JSON), and until when (epoch s) its inputs are kept. */
export interface Parked {
  readonly functionName: string;
  readonly event: string;
  readonly until: number;
  /** The latest redrive that re-sent it (its generation, `parkResent`); absent: none did. */
  readonly resentBy?: number;
}

/** The redrive generation that last re-sent a parked invocation. */
const RESENT_BY = 'rb';

/**
 * Unconditional: every execution of one invocation parks the same event (a
 * later one's lease may be later: either is fine). An update, not a put: the
 * generation that re-sent it (`rb`) stays.
 */
export const parkedUpdate = (run: RunRef, invocation: string, p: Parked, ttl: number): UpdateRequest =>
  update(parkKey(run, invocation), 'SET fn = :fn, ev = :ev, ru = :ru, #ttl = :ttl', { ':fn': S(p.functionName), ':ev': S(p.event), ':ru': N(p.until), ':ttl': N(ttl) });

/**
 * Redrive `generation` re-sends the parked invocation: recorded on its item
 * before the invoke, never lowered (a slower, older redrive loses), never on
 * an item that is gone. A failure of an event of an older generation is then
 * stale (runtime/records/redrive-park.ts `failParked`).
 */
export const parkResent = (run: RunRef, invocation: string, generation: number): UpdateRequest =>
  update(parkKey(run, invocation), `SET ${RESENT_BY} = :g`, { ':g': N(generation) }, `${PRESENT} AND (attribute_not_exists(${RESENT_BY}) OR ${RESENT_BY} < :g)`);

export function decodeParked(item: Item | undefined): Parked | undefined {
  const functionName = item && str(item, 'fn');
  const event = item && str(item, 'ev');
  if (!item || functionName === undefined || event === undefined) return undefined;
  const resentBy = num(item, RESENT_BY);
  return { functionName, event, until: num(item, 'ru') ?? 0, ...(resentBy === undefined ? {} : { resentBy }) };
}

/** Whether an UpdateItem of a run record sets the run's status (a final one, or RUNNING again by a redrive): not a park, not a TTL renewal. */
export const runStatusWritten = (request: { readonly UpdateExpression?: unknown }): boolean => String(request.UpdateExpression ?? '').includes('#s = ');

/** The result JSON a `runFinish` request writes inline (a terminal transition's commit), if it writes one. */
export const runResultWritten = (request: { readonly ExpressionAttributeValues?: Item }): string | undefined => request.ExpressionAttributeValues?.[RESULT]?.S;

/**
 * A timestamp as ISO-8601. The runtime stores ISO strings; epoch numbers are
 * read too: below 1e11 as seconds (1e11 s is year 5138), others as milliseconds.
 */
function timestamp(item: Item, name: string): string | undefined {
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

/** The run record `item` is FAILED: an invocation that reads it parks for a redrive. */
export const runFailed = (item: Item | undefined): boolean => item !== undefined && runStatusOf(item) === 'FAILED';

/** The run's deadline (epoch ms) on its record `item`, if the workflow has a timeout. */
export const runDeadline = (item: Item | undefined): number | undefined => (item ? num(item, DEADLINE) : undefined);

/** Reads a run record item; throws on a status the layout does not have. */
export function decodeRunRecord(item: Item): RunRecord {
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
  };
}

// ---------------------------------------------------------------- runs index `runs` (run records only)

/** A Query of the runs index as the layout makes it; the reader adds the table, the limit and where to start. */
export interface RunsQuery {
  readonly IndexName: string;
  readonly KeyConditionExpression: string;
  readonly ExpressionAttributeNames: Record<string, string>;
  readonly ExpressionAttributeValues: Item;
  /** Newest first. */
  readonly ScanIndexForward: false;
}

/** Which runs of a workflow a listing wants: start times as ISO-8601 (`toISOString`), both bounds exclusive. */
export interface RunsFilter {
  readonly startedAfter?: string;
  readonly startedBefore?: string;
}

/**
 * The runs of `workflow`, newest first. The time bounds are key conditions
 * (only the runs within them are read); the index holds keys only, so a
 * status is read from the run records (`RUN_SUMMARY_ATTRIBUTES`). `<after>$` sorts after every
 * `<after>#<id>` and before any later time, `<before>` before every
 * `<before>#<id>` and after any earlier time: both bounds exclude runs started
 * at exactly that time.
 */
export function runsQuery(workflow: string, filter: RunsFilter): RunsQuery {
  const values: Item = { ':w': S(workflow) };
  const after = filter.startedAfter === undefined ? undefined : `${filter.startedAfter}$`;
  const before = filter.startedBefore;
  if (after !== undefined) values[':a'] = S(after);
  if (before !== undefined) values[':b'] = S(before);
  const range = after !== undefined && before !== undefined ? ' AND #rk BETWEEN :a AND :b' : after !== undefined ? ' AND #rk > :a' : before !== undefined ? ' AND #rk < :b' : '';
  const condition = `#ri = :w${range}`;
  return {
    IndexName: TABLE.runsIndex.name,
    KeyConditionExpression: condition,
    ExpressionAttributeNames: namesIn(condition) as Record<string, string>,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
}

/** What a run listing reads of each run record: its key, status, times and error (not its result). */
export const RUN_SUMMARY_ATTRIBUTES: readonly string[] = [PK, 'status', 'startedAt', 'finishedAt', 'error'];

/** Where a listing that ended at index item `item` goes on: its table and index keys (what DynamoDB's LastEvaluatedKey holds). */
export const runsPageKey = (item: Item): Item => ({ [PK]: item[PK], [RUNS]: item[RUNS], [RUNS_SK]: item[RUNS_SK] });

/** True when `key` is a runs index position of a run of `workflow`: its three keys, naming the same run, and nothing else. */
export function isRunsPageKey(key: unknown, workflow: string): key is Item {
  if (typeof key !== 'object' || key === null || Array.isArray(key)) return false;
  const item = key as Record<string, unknown>;
  const text = (name: string): string | undefined => {
    const v = item[name] as { S?: unknown } | undefined;
    return typeof v === 'object' && v !== null && Object.keys(v).length === 1 && typeof v.S === 'string' ? v.S : undefined;
  };
  const sk = text(RUNS_SK) ?? '';
  const workflowId = sk.slice(sk.lastIndexOf('#') + 1);
  return Object.keys(item).length === 3 && text(RUNS) === workflow && sk.includes('#') && text(PK) === runKey({ workflow, workflowId });
}

// ---------------------------------------------------------------- run history `hist#<workflow>#<workflowId>` and `hist#<workflow>#<workflowId>#<seq>`

/*
 * Why a counter: the table has a partition key only, so items of one run can be
 * listed without a Scan only if their keys are predictable. A per-run counter
 * (`n`, the last sequence number handed out) hands out dense sequence numbers,
 * and a reader fetches entries `1..n` by key.
 */

/** The counter's update: `n` + 1 (returned), TTL set when the counter is new. */
export const historyCount = (run: RunRef, ttl: number): UpdateRequest =>
  update(historyKey(run), 'ADD n :n SET #ttl = if_not_exists(#ttl, :t)', { ':n': N(1), ':t': N(ttl) });

/** The counter's `n`: the number of sequence numbers handed out (0 without a counter). */
export const decodeHistoryCount = (item: Item | undefined): number => Number(item?.n?.N ?? 0);

/** What the logged invocation did. */
export type HistoryOutcome =
  /** The handler's value was committed (its checkpoint put succeeded). */
  | 'committed'
  /** The handler's error was caught by a catch rule and `{Error, Cause}` committed. */
  | 'caught'
  /** The invocation ended the run FAILED (fail instruction, no choice match, or the failure recorder). */
  | 'failed';

const OUTCOMES: readonly string[] = ['committed', 'caught', 'failed'] satisfies HistoryOutcome[];

/** One item of the transition log. */
export interface HistoryEntry {
  readonly seq: number;
  readonly node: string;
  /** The state the node runs (`NodeIR.state`): the node's name unless the definition names it otherwise. */
  readonly state: string;
  /** Invocation name (the checkpoint key without its prefix). */
  readonly invocation: string;
  readonly iteration: number;
  /** Fan-out indexes of the invocation, outermost first (`[]` outside any map or parallel). */
  readonly indexes: readonly number[];
  /** ISO-8601 time of the commit. */
  readonly at: string;
  readonly outcome: HistoryOutcome;
  readonly durationMs?: number;
  /** Attempts of the handler in this execution, when its retry rules retried it (2 or more). */
  readonly attempts?: number;
  /** With `attempts`: the error names of the attempts that were retried, in order (the last `HISTORY_RETRIED_KEPT`). */
  readonly retried?: readonly string[];
  /** Nodes this invocation invoked. */
  readonly next?: readonly string[];
  /** For a fan-out origin: the join's invocation name and the number of branches. */
  readonly fanIn?: { readonly join: string; readonly size: number };
  /** For a join (or a fold's first step): the invocation name of the fan-in it received, that is, a fan-out origin's `fanIn.join`. */
  readonly joined?: string;
  /** For `caught` and `failed`; `state` names where a run failed (a Fail or Choice state, or the node's state). */
  readonly error?: { readonly state?: string; readonly error: string; readonly cause?: string };
}

/** How many retried error names an entry keeps: a rule may retry thousands of times, an item holds 400 KB. */
export const HISTORY_RETRIED_KEPT = 20;

/**
 * The names of the retried errors among `attempts` attempts: every attempt but
 * the last (which succeeded, or whose error went on to a catch rule or to
 * Lambda), the last `HISTORY_RETRIED_KEPT`, each within `ERROR_BOUNDS`.
 */
export const retriedErrors = (attemptErrors: readonly string[], attempts: number): string[] =>
  attemptErrors.slice(0, Math.max(0, attempts - 1)).slice(-HISTORY_RETRIED_KEPT).map((e) => boundedError({ error: e }).error);

/** An entry's attributes besides key and TTL, as plain values; undefined ones are not written. */
export interface HistoryItem {
  readonly node: string;
  /** Only when it differs from `node`. */
  readonly state?: string;
  readonly inv: string;
  readonly iteration: number;
  readonly indexes: string;
  readonly at: string;
  readonly outcome: HistoryOutcome;
  readonly durationMs?: number;
  readonly attempts?: number;
  readonly retried?: string;
  readonly next?: string;
  readonly fanInJoin?: string;
  readonly fanInSize?: number;
  readonly joined?: string;
  readonly error?: string;
}

/** What an entry tells besides the invocation's identity. */
export interface Transition {
  /** Nodes the invocation invokes (a branch tail: its join). */
  readonly next?: readonly string[];
  /** A fan-out origin: the join's invocation name and the number of branches. */
  readonly join?: string;
  /** With `join`. */
  readonly size?: number;
  readonly error?: { readonly state?: string; readonly error: string; readonly cause?: string };
}

/** What the execution that appends an entry knows of itself. */
export interface ExecutionFacts {
  /** The node's state, when it differs from the node's name. */
  readonly state?: string;
  /** User-code time, when user code ran in this execution. */
  readonly durationMs?: number;
  /** The errors of the handler's attempts in this execution, in order. */
  readonly attemptErrors?: readonly string[];
  readonly attempts?: number;
  /** The fan-in this execution received. */
  readonly joined?: string;
}

/**
 * An entry's attributes; `inv` is the invocation name, `frames` the fan-out
 * frames (outermost first); an error is cut to `ERROR_BOUNDS`, the retried
 * errors to the last `HISTORY_RETRIED_KEPT` names within it.
 */
export function historyItem(
  node: string,
  inv: string,
  iteration: number,
  frames: readonly { readonly index: number }[],
  outcome: HistoryOutcome,
  t: Transition,
  facts: ExecutionFacts = {},
): HistoryItem {
  const attempts = facts.attempts ?? 0;
  // Undefined attributes are not written; JSON.stringify drops an undefined `cause`.
  return {
    node,
    state: facts.state,
    inv,
    iteration,
    indexes: JSON.stringify(frames.map((f) => f.index)),
    at: new Date().toISOString(),
    outcome,
    durationMs: facts.durationMs,
    attempts: attempts > 1 ? attempts : undefined,
    retried: attempts > 1 ? JSON.stringify(retriedErrors(facts.attemptErrors ?? [], attempts)) : undefined,
    next: t.next && JSON.stringify(t.next),
    fanInJoin: t.join,
    fanInSize: t.size,
    joined: facts.joined,
    error: t.error && JSON.stringify(boundedError(t.error)),
  };
}

/** Entry `seq` of a run; put without a condition: the key is new. */
export function historyEntryPut(run: RunRef, seq: number, entry: HistoryItem, ttl: number): PutRequest {
  const item = newItem(historyKey(run, seq), ttl);
  for (const [k, v] of Object.entries(entry)) if (v !== undefined) item[k] = typeof v === 'number' ? N(v) : S(v);
  return put(item);
}

function json(item: Item, name: string): unknown {
  const s = str(item, name);
  return s === undefined ? undefined : JSON.parse(s);
}

/** Reads one entry item; undefined if it does not have the required attributes (a foreign or torn write). */
export function decodeHistoryEntry(seq: number, item: Item): HistoryEntry | undefined {
  const node = str(item, 'node');
  const invocation = str(item, 'inv');
  const at = timestamp(item, 'at');
  const outcome = str(item, 'outcome');
  if (node === undefined || invocation === undefined || at === undefined || outcome === undefined || !OUTCOMES.includes(outcome)) {
    return undefined;
  }
  const durationMs = num(item, 'durationMs');
  const attempts = num(item, 'attempts');
  const retried = json(item, 'retried');
  const next = json(item, 'next');
  const join = str(item, 'fanInJoin');
  const size = num(item, 'fanInSize');
  const joined = str(item, 'joined');
  const error = json(item, 'error') as { state?: unknown; error?: unknown; cause?: unknown } | undefined;
  return {
    seq,
    node,
    state: str(item, 'state') ?? node,
    invocation,
    iteration: num(item, 'iteration') ?? 0,
    indexes: (json(item, 'indexes') as number[] | undefined) ?? [],
    at,
    outcome: outcome as HistoryOutcome,
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(attempts !== undefined ? { attempts } : {}),
    ...(Array.isArray(retried) ? { retried: retried.map(String) } : {}),
    ...(Array.isArray(next) ? { next: next.map(String) } : {}),
    ...(join !== undefined && size !== undefined ? { fanIn: { join, size } } : {}),
    ...(joined !== undefined ? { joined } : {}),
    ...(error && typeof error === 'object'
      ? {
          error: {
            ...(error.state != null ? { state: String(error.state) } : {}),
            error: String(error.error ?? 'Error'),
            ...(error.cause !== undefined ? { cause: String(error.cause) } : {}),
          },
        }
      : {}),
  };
}

// ---------------------------------------------------------------- effect record `effect#<invocation>#<operation>`

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

/** A PostgreSQL transaction's identity, logged before its statements: a new record, or over one whose transaction `replaces` aborted. */
export function effectClaim(key: string, xid: string, replaces: string | undefined, ttl: number): UpdateRequest {
  const values: Item = { ':p': PENDING, ':x': S(xid), ':t': N(ttl) };
  if (replaces !== undefined) values[':old'] = S(replaces);
  return update(key, 'SET #st = :p, #xid = :x, #ttl = :t', values, replaces === undefined ? ABSENT : '#st = :p AND #xid = :old');
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

// ---------------------------------------------------------------- operations logged in the user's items (Beldi)

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

// ---------------------------------------------------------------- scans

/** The attributes that tell an item's kind and state (a table summary projects on them). */
export const SUMMARY_ATTRIBUTES: readonly string[] = [PK, 'a', 'n', 'status'];
