/**
 * The Lambda on-failure destination of every workflow function: when Lambda
 * gives up on an invocation (retries exhausted, event too old), it sets the
 * run record FAILED, so no run hangs silently. It is also the target of a
 * run's timeout schedule (TIMED_OUT at the deadline). Optionally forwards the
 * destination record to the user's SQS queue (UNUM_FAILURE_QUEUE_URL) or SNS
 * topic (UNUM_FAILURE_TOPIC_ARN). When the recorder itself cannot write (a
 * DynamoDB outage), or the record names no run of the workflow (Lambda left
 * the failed event out of it), it throws: after its own retries Lambda sends
 * the record, with the reason, to the workflow's dead-letter queue, where
 * `unum recover` finds it. It never writes a record for a run it cannot name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModule } from '../aws/load-module';
import { DynamoDbStore } from '../aws/dynamodb-store';
import { type FailureRecord, identify, payloadDropped } from '../contract/failure-record';
import { isObject, parseStart } from '../contract/start-request';
import { appendHistory } from '../records/history';
import { DEPLOYMENT_ID_PATTERN, ENV, ENVELOPE_VERSION, type Envelope, RECORDER_FILE_NAME, type RecorderSpec, type RunTimeoutEvent, type StartRequest, WORKFLOW_ID_PATTERN, qualifiedName } from '../contract/ir';
import { boundedError } from '../contract/errors';
import type { Invoker } from '../ports/invoker';
import { LambdaInvoker } from '../aws/lambda-invoker';
import { readEnvelopeKey } from '../aws/envelope-key';
import { cachedKey, type EnvelopeKeySource, isSealed, sealingInvoker, tableOf } from './envelope-auth';
import { writeLogLine } from '../ports/log';
import { invocationName } from '../contract/naming';
import { finishedRunTtl } from '../records/run-record';
import { failParked, redriveUntil } from '../records/redrive-park';
import { failEnclosingState } from './fail-enclosing-state';
import type { CheckpointStore } from '../ports/store';
import { historyItem, runTimedOut, type Parked, type RunEnd, type RunRef } from '../contract/table';

/** Loads an SDK client the Lambda runtime provides but this package does not depend on. */
async function sdk(name: string): Promise<Record<string, new (...args: unknown[]) => { send(c: unknown): Promise<unknown> }>> {
  try {
    return await loadModule<Record<string, never>>(name);
  } catch (e) {
    throw new Error(`unum failure recorder: ${name} is not available to forward the failure record (${String(e)})`, { cause: e });
  }
}

function storeFromEnvironment(): CheckpointStore {
  const table = process.env[ENV.table];
  if (!table) throw new Error(`unum failure recorder: environment variable ${ENV.table} is not set`);
  return new DynamoDbStore(table);
}

/** What the recorder knows of the workflow without its IR (the construct sets it in the environment). */
export interface RecorderSettings {
  /** The run retention: the TTL of the records the recorder writes. */
  readonly runRetentionSeconds: number;
  /** The workflow keeps a run history: append a `failed` entry. */
  readonly history: boolean;
}

function settingsFromEnvironment(): RecorderSettings {
  const seconds = Number(process.env[ENV.runRetention]);
  if (!Number.isSafeInteger(seconds) || seconds <= 0) {
    throw new Error(`unum failure recorder: environment variable ${ENV.runRetention} must be the run retention in seconds, got '${process.env[ENV.runRetention] ?? ''}'`);
  }
  return { runRetentionSeconds: seconds, history: process.env[ENV.history] === 'true' };
}

/**
 * Appends the `failed` history entry of the invocation Lambda gave up on. The
 * recorder has no IR: the name is computed from the envelope, so a fold's
 * first step (no `fold` in its envelope, named with index 0) gets a name of
 * its own here, which only affects the reader's de-duplication.
 */
function failedInvocation(record: FailureRecord, run: RunRef, node: string): { name: string; iteration: number; frames: { iteration: number; index: number }[]; lease?: number } {
  const req = record.requestPayload;
  const u = isObject(req) && isObject(req.unum) ? req.unum : {};
  const iteration = typeof u.iteration === 'number' ? u.iteration : 0;
  const frames = (Array.isArray(u.fanOut) ? u.fanOut.filter(isObject) : []) as { iteration: number; index: number }[];
  const fold = isObject(u.fold) && typeof u.fold.index === 'number' ? u.fold.index : undefined;
  return { name: invocationName(run, node, iteration, frames, fold), iteration, frames, ...(typeof u.lease === 'number' ? { lease: u.lease } : {}) };
}

/** The redrive generation of the failed event (runtime/contract/ir/ `EnvelopeHeader.redrive`; 0: not re-sent by a redrive). */
function generationOf(event: Envelope | StartRequest): number {
  const g = 'unum' in event ? event.unum.redrive : event.redrive;
  return typeof g === 'number' ? g : 0;
}

async function appendFailed(store: CheckpointStore, record: FailureRecord, run: RunRef, node: string, error: { state: string; error: string; cause: string }, ttl: number): Promise<void> {
  const { name, iteration, frames } = failedInvocation(record, run, node);
  await appendHistory(store, run, historyItem(node, name, iteration, frames, 'failed', { error }), ttl);
}

/**
 * The function a parked event is re-sent to: the failed function (its ARN,
 * whatever qualifier Lambda reported) at the alias of the event's deployment,
 * so a redrive resumes the run on the deployment it ran on; unqualified
 * where there is none (a spec the construct did not deploy).
 */
function parkedFunction(arn: string, deployment: string): string {
  const parts = arn.split(':');
  const unqualified = (arn.startsWith('arn:') ? parts.slice(0, 7) : parts.slice(0, 1)).join(':');
  return deployment ? qualifiedName(unqualified, deployment) : unqualified;
}

/**
 * The failed invocation as parked for a redrive (runtime/records/redrive-park.ts): the event
 * (a start as a start request naming its run, which a raw start under its
 * Lambda request id would not) on the function it failed in, at the alias
 * of the event's deployment (a start's: the recorder's own, the entry's
 * on-failure destination being its deployment's recorder); or why it is not
 * parked: a callback Task's timeout check, a spec without the retention, an
 * envelope of a format no deployment of this version accepts.
 */
function parkedFailure(record: FailureRecord, run: RunRef, node: string, spec: RecorderSpec): { name: string; parked: Parked; generation: number; lease: number } | string {
  const req = record.requestPayload;
  if (isObject(req) && 'unumTask' in req) return 'a callback Task timeout check that Lambda gave up on';
  if (!spec.retention) return 'a failure recorded by a failure recorder without the retention settings';
  const unum = isObject(req) && isObject(req.unum) ? req.unum : undefined;
  if (unum && unum.v !== ENVELOPE_VERSION) return `an envelope of format ${String(unum.v ?? 1)}, from an unum-cdk before deployment pinning: no deployment of this version accepts it`;
  const failed = failedInvocation(record, run, node);
  const event = unum ? (req as unknown as Envelope) : { ...parseStart(req, record.requestContext.requestId), workflowId: run.workflowId };
  const deployment = typeof unum?.deployment === 'string' && DEPLOYMENT_ID_PATTERN.test(unum.deployment) ? unum.deployment : spec.deployment;
  const functionName = parkedFunction(record.requestContext.functionArn, deployment);
  const until = redriveUntil(failed.lease, spec.retention);
  return { name: failed.name, parked: { functionName, event: JSON.stringify(event), until }, generation: generationOf(event), lease: until + 2 * spec.retention.handoffSeconds };
}

/**
 * The recorder's failure of a run (parked for a redrive when `park` is one,
 * unless a redrive re-sent the invocation after the failed event was sent:
 * runtime/records/redrive-park.ts `failParked`); true when this call failed the run.
 */
async function failRunParked(store: CheckpointStore, run: RunRef, park: ReturnType<typeof parkedFailure>, end: Extract<RunEnd, { status: 'FAILED' }>, ttl: number): Promise<boolean> {
  const at = new Date().toISOString();
  if (typeof park === 'string') return store.finishRun(run, { ...end, redrive: { never: park } }, at, ttl);
  // As the runtime's own failure: the record lives while a redrive may resume the run, until the failed event's lease.
  const { failed, resentBy } = await failParked(store, run, park.name, park.parked, end, at, Math.max(ttl, park.lease), park.generation);
  if (resentBy !== undefined) {
    writeLogLine({ level: 'INFO', message: 'unum stale failure ignored', workflowId: run.workflowId, node: end.error.node, invocation: park.name, generation: park.generation, resentBy });
  }
  return failed;
}

async function forward(record: FailureRecord): Promise<void> {
  const body = JSON.stringify(record);
  const queueUrl = process.env[ENV.failureQueueUrl];
  const topicArn = process.env[ENV.failureTopicArn];
  if (queueUrl) {
    const m = await sdk('@aws-sdk/client-sqs');
    await new m.SQSClient({}).send(new m.SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
  }
  if (topicArn) {
    const m = await sdk('@aws-sdk/client-sns');
    await new m.SNSClient({}).send(new m.PublishCommand({ TopicArn: topicArn, Message: body }));
  }
}

/**
 * As Step Functions reports a failed Lambda task: the function's error
 * document as JSON, except for the `States.*` errors the runtime raises, whose
 * cause is their message (as when a catch rule catches them).
 */
function causeOf(payload: NonNullable<FailureRecord['responsePayload']>): string {
  // The fields are what the function's runtime reported, not necessarily strings.
  const runtimeError = typeof payload.errorType === 'string' && payload.errorType.startsWith('States.') && payload.errorMessage !== undefined;
  return runtimeError ? String(payload.errorMessage) : JSON.stringify(payload);
}

/**
 * The error name: Lambda's, except a function timeout, which is
 * `States.Timeout` as in Step Functions: the function's timeout is the
 * task's `timeoutSeconds` plus the runtime's margin, so the task ran past its
 * own deadline (a handler that blocked the runtime's timer).
 */
function errorOf(record: FailureRecord): string {
  const type = String(record.responsePayload?.errorType ?? record.requestContext.condition);
  return type === 'Sandbox.Timedout' ? 'States.Timeout' : type;
}

/** The spec the construct bundles beside the recorder; none (every failure fails the run, naming nodes) where there is no file. */
function specBesideBundle(): RecorderSpec {
  try {
    return JSON.parse(readFileSync(join(__dirname, RECORDER_FILE_NAME), 'utf8')) as RecorderSpec;
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return { deployment: process.env[ENV.deployment] ?? '', nodes: {}, functionNames: {} };
    throw e;
  }
}

/** What the recorder uses besides the table: its spec (default: the file beside the bundle), an invoker for state joins, the workflow's envelope key (default: its item in the table). */
export interface RecorderOptions {
  readonly spec?: RecorderSpec;
  readonly invoker?: Invoker;
  readonly envelopeKey?: EnvelopeKeySource;
}

/**
 * The recorder; `workflowName` defaults to UNUM_WORKFLOW, `store` to DynamoDB
 * on UNUM_TABLE, `settings` to the environment the construct sets
 * (`UNUM_RUN_RETENTION`, `UNUM_HISTORY`). A failure of a node inside a
 * Parallel/Map with rules fails that state (runtime/entry/fail-enclosing-state.ts), any
 * other the run, naming the node's state.
 */
export function createFailureRecorder(store?: CheckpointStore, workflowName?: string, settings?: RecorderSettings, options: RecorderOptions = {}): (record: FailureRecord) => Promise<void> {
  const spec = options.spec ?? specBesideBundle();
  let invoker = options.invoker;
  let keyOf: (() => Promise<Uint8Array>) | undefined;
  return async (record) => {
    const workflow = workflowName ?? process.env[ENV.workflow];
    keyOf ??= cachedKey(options.envelopeKey ?? ((w) => readEnvelopeKey(tableOf(store ??= storeFromEnvironment()), w)), workflow ?? '');
    // Lambda sends what failed, which may be an envelope no function sealed (one that failed before its MAC was checked): it names no run.
    if (isObject(record.requestPayload) && 'unum' in record.requestPayload) {
      if (!isSealed(record.requestPayload, await keyOf())) {
        writeLogLine({ level: 'WARN', message: 'unum failure of an unauthenticated envelope ignored', functionArn: record.requestContext.functionArn });
        return;
      }
    }
    const { workflowId, node } = identify(record, workflow);
    const state = spec.nodes[node]?.state ?? node;
    const payload = record.responsePayload;
    // Bounded here already (the table bounds what it stores), so the log line stays small too.
    const { error, cause } = boundedError({
      error: errorOf(record),
      cause: payload ? causeOf(payload) : `Lambda gave up after ${record.requestContext.approximateInvokeCount ?? '?'} attempts`,
    });
    if (workflowId) {
      if (!workflow) throw new Error(`unum failure recorder: environment variable ${ENV.workflow} is not set`);
      store ??= storeFromEnvironment();
      const { runRetentionSeconds, history } = settings ?? settingsFromEnvironment();
      // Like the runtime's own final write: the record (possibly created here, when the entry never wrote it) expires.
      const ttl = finishedRunTtl({ runRetentionSeconds, handoffSeconds: spec.retention?.handoffSeconds ?? 0 });
      const run = { workflow, workflowId };
      invoker ??= new LambdaInvoker();
      // The state's join gets a notice it verifies as any envelope: sealed.
      if (await failEnclosingState(store, sealingInvoker(await keyOf(), invoker), spec, run, node, record.requestPayload, { error, cause }, ttl)) {
        writeLogLine({ level: 'INFO', message: 'unum state failure recorded', workflowId, node, state, error, cause });
      } else {
        const end = { status: 'FAILED', error: { node, state, error, cause } } as const;
        const set = await failRunParked(store, run, parkedFailure(record, run, node, spec), end, ttl);
        writeLogLine({ level: 'INFO', message: 'unum failure recorded', workflowId, node, state, error, cause, recorded: set });
      }
      // After the record: a malformed envelope must not keep the run (or the state) from being marked FAILED.
      if (history) await appendFailed(store, record, run, node, { state, error, cause }, ttl);
    } else {
      const why = unnamedRun(record);
      writeLogLine({ level: 'ERROR', message: 'unum failure of no known run', node, error, cause, why });
      throw new Error(`unum failure recorder: ${why}; the failure of ${record.requestContext.functionArn} (${error}) goes to the workflow's dead-letter queue`);
    }
    await forward(record);
  };
}

/** Why a failure record names no run of the workflow. */
function unnamedRun(record: FailureRecord): string {
  if (payloadDropped(record)) return 'Lambda left the failed event out of its on-failure record (the event and the error exceeded 256 KB), so it names no run';
  return 'the failed event names no run of this workflow (a malformed start request, or an event of another workflow)';
}

/**
 * A run's timeout schedule (runtime/records/run-timeout.ts) fires at its deadline: the run, if
 * still RUNNING, becomes TIMED_OUT. Conditional, so a run that finished, was
 * stopped, or whose record expired stays as it is.
 */
export function createRunTimeoutHandler(store?: CheckpointStore, workflowName?: string): (event: RunTimeoutEvent) => Promise<void> {
  return async ({ unumRunTimeout: { workflowId, timeoutSeconds, deadline } }) => {
    const workflow = workflowName ?? process.env[ENV.workflow];
    if (!workflow) throw new Error(`unum failure recorder: environment variable ${ENV.workflow} is not set`);
    if (typeof workflowId !== 'string' || !WORKFLOW_ID_PATTERN.test(workflowId) || !Number.isSafeInteger(timeoutSeconds) || !(deadline === undefined || Number.isSafeInteger(deadline))) {
      writeLogLine({ level: 'WARN', message: 'unum run timeout with an invalid workflow id or timeout', workflowId: String(workflowId) });
      return;
    }
    store ??= storeFromEnvironment();
    // Only while the run has the deadline it was scheduled for: a redrive gave a redriven run a new one.
    const set = await store.interruptRun({ workflow, workflowId }, runTimedOut(timeoutSeconds, deadline), new Date().toISOString());
    writeLogLine({ level: 'INFO', message: 'unum run timeout', workflowId, timedOut: set });
  };
}

const isRunTimeout = (event: unknown): event is RunTimeoutEvent => isObject(event) && isObject(event.unumRunTimeout);

const recordFailure = createFailureRecorder();
const timeOutRun = createRunTimeoutHandler();

/** The recorder's function takes Lambda's failure records and the workflow's run-timeout schedules. */
export const handler = (event: FailureRecord | RunTimeoutEvent): Promise<void> => (isRunTimeout(event) ? timeOutRun(event) : recordFailure(event));
