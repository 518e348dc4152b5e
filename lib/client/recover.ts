/**
 * Recovery after an outage (`UnumClient.recover`, `unum recover`): the
 * workflow's dead-letter queue holds the failure records the failure
 * recorder could not record (Lambda's on-failure destination record of the
 * recorder, whose `requestPayload` is the record of the invocation that
 * failed, whose `requestPayload` is that invocation's event). Each is
 * replayed once in effect: the failed event is invoked again (`Event`) on
 * the function it failed in, and the message is deleted once Lambda accepted
 * the invoke. The runtime's checkpoints make a replay idempotent, so a replay
 * that runs twice (a delete lost, two operators) changes nothing; a replayed
 * invocation that fails again goes to the recorder, which records FAILED.
 * A run that already has its terminal record is not replayed (its message is
 * deleted); a message that is not such a record is kept and reported.
 *
 * A replay goes to the deployment the failed event ran on: the alias in the
 * record's function ARN (a failed start on the entry's `live` alias goes to
 * the deployment its run record names, if the run started), never `$LATEST`.
 * A dead letter that names no deployment (an unum-cdk before deployment
 * pinning) is kept: the functions of today would refuse its event.
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { DeleteMessageCommand, type Message, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { type FailureRecord, identify } from '../../runtime/contract/failure-record';
import { LIVE_ALIAS, qualifiedName, type StartRequest } from '../../runtime/contract/ir';
import { decodeTaskToken } from '../../runtime/contract/task-token';
import { splitFunctionRef } from '../../runtime/contract/function-ref';
import type { RunStatus } from './types';

/** What recovery did with one dead letter. */
export type DeadLetterOutcome =
  /** The failed event was invoked again and the message deleted. */
  | 'replayed'
  /** The run had its terminal record already: nothing to replay; the message was deleted. */
  | 'finished'
  /** Not replayed (not a failure record, no valid run id, or the invoke failed): left in the queue. */
  | 'kept';

export interface RecoveredDeadLetter {
  readonly messageId: string;
  readonly outcome: DeadLetterOutcome;
  readonly workflowId?: string;
  readonly node?: string;
  /** The function the failed event is (or was) replayed on, qualified with the alias of its deployment. */
  readonly functionArn?: string;
  /** Why the invocation failed and why the recorder could not record it, or why the message was kept. */
  readonly detail: string;
}

export interface RecoveryReport {
  /** Every dead letter received, in the order handled. */
  readonly deadLetters: readonly RecoveredDeadLetter[];
  readonly replayed: number;
  readonly finished: number;
  readonly kept: number;
}

/** Options of `UnumClient.recover`. */
export interface RecoverOptions {
  /**
   * URL of the dead-letter queue.
   * @default the workflow's (`DeadLetterQueueUrl` stack output)
   */
  readonly deadLetterQueue?: string;
  /**
   * How long a received message stays invisible to other readers while it is
   * replayed; a kept message is seen again after this.
   * @default 300
   */
  readonly visibilityTimeoutSeconds?: number;
}

/** What `recoverDeadLetters` works with. */
export interface RecoveryDeps {
  /** The workflow's name: a dead letter of another workflow's envelope names none of its runs. */
  readonly workflow: string;
  readonly sqs: SQSClient;
  readonly lambda: LambdaClient;
  readonly queueUrl: string;
  readonly status: (workflowId: string) => Promise<RunStatus>;
  readonly visibilityTimeoutSeconds: number;
}

/** A replay: the function (unqualified ARN, and the alias of a deployment or the entry's `live` alias) and the event. */
interface Replay {
  readonly workflowId: string;
  readonly node: string;
  readonly functionArn: string;
  readonly qualifier: string;
  readonly event: unknown;
  readonly why: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFailureRecord = (v: unknown): v is FailureRecord =>
  isObject(v) && isObject(v.requestContext) && typeof v.requestContext.functionArn === 'string' && 'requestPayload' in v;
const errorType = (r: FailureRecord): string => r.responsePayload?.errorType ?? r.requestContext.condition;

/**
 * The event that starts the same run again. A start names its run, or ran
 * under the Lambda request id, which a new invoke would not keep: such a
 * start is replayed as an explicit start request naming the run. What counts
 * as naming the run is `identify`'s (the recorder's) reading, asked with an
 * unusable request id.
 */
function restartEvent(record: FailureRecord, workflow: string, workflowId: string): unknown | undefined {
  const names = (event: unknown): boolean =>
    identify({ ...record, requestPayload: event, requestContext: { ...record.requestContext, requestId: '' } }, workflow).workflowId === workflowId;
  const req = record.requestPayload;
  const named = isObject(req) ? { ...req, workflowId } : undefined;
  const request: StartRequest = { workflowId, input: req as StartRequest['input'] };
  return [req, named, request].find((event) => event !== undefined && names(event));
}

/** The replay a dead letter of `workflow` asks for, or why there is none. */
export function replayOf(body: string, workflow: string): Replay | string {
  let letter: unknown;
  try {
    letter = JSON.parse(body);
  } catch {
    return 'not JSON';
  }
  if (!isFailureRecord(letter) || !isFailureRecord(letter.requestPayload)) {
    return 'not a Lambda destination record of the failure recorder holding one of a workflow function';
  }
  const failed = letter.requestPayload;
  const { workflowId, node } = identify(failed, workflow);
  if (!workflowId) return `the failed event of ${failed.requestContext.functionArn} names no valid run id`;
  const isEnvelope = isObject(failed.requestPayload) && 'unum' in failed.requestPayload;
  const event = isEnvelope ? failed.requestPayload : restartEvent(failed, workflow, workflowId);
  if (event === undefined) return `the failed start event of run ${workflowId} cannot be rebuilt`;
  const ref = splitFunctionRef(failed.requestContext.functionArn);
  // Lambda names the qualifier the event was invoked with; an invoke on $LATEST or unqualified came from an older unum-cdk, or its event names its deployment.
  const qualifier = ref.qualifier !== undefined && ref.qualifier !== '$LATEST' ? ref.qualifier : deploymentOf(event);
  if (!qualifier) return `the failed event of run ${workflowId} on ${failed.requestContext.functionArn} names no deployment (an unum-cdk before deployment pinning): not replayed on $LATEST, whose functions would refuse it`;
  return {
    workflowId,
    node,
    functionArn: ref.function,
    qualifier,
    event,
    why: `${errorType(failed)} after ${failed.requestContext.approximateInvokeCount ?? '?'} attempts; the recorder failed with ${errorType(letter)}`,
  };
}

/** The deployment an event names: an envelope's, or a callback check's task token's. */
function deploymentOf(event: unknown): string | undefined {
  if (!isObject(event)) return undefined;
  if (isObject(event.unum) && typeof event.unum.deployment === 'string') return event.unum.deployment || undefined;
  const token = isObject(event.unumTask) ? decodeTaskToken(event.unumTask.token) : undefined;
  return token !== undefined && typeof token !== 'string' ? token.deployment || undefined : undefined;
}

/** Where a replay goes: a failed start of a run that has started goes to the run's deployment, not to where `live` points now. */
const replayQualifier = (replay: Replay, run: RunStatus): string =>
  replay.qualifier === LIVE_ALIAS && run.deployment ? run.deployment : replay.qualifier;

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

async function recoverOne(deps: RecoveryDeps, message: Message): Promise<RecoveredDeadLetter> {
  const messageId = message.MessageId ?? '?';
  const replay = replayOf(message.Body ?? '', deps.workflow);
  if (typeof replay === 'string') return { messageId, outcome: 'kept', detail: replay };
  let about: Omit<RecoveredDeadLetter, 'outcome' | 'detail'> = { messageId, workflowId: replay.workflowId, node: replay.node, functionArn: qualifiedName(replay.functionArn, replay.qualifier) };
  const remove = (): Promise<unknown> => deps.sqs.send(new DeleteMessageCommand({ QueueUrl: deps.queueUrl, ReceiptHandle: message.ReceiptHandle }));
  try {
    const run = await deps.status(replay.workflowId);
    if (run.status === 'SUCCEEDED' || run.status === 'FAILED') {
      await remove();
      return { ...about, outcome: 'finished', detail: `run already ${run.status}; ${replay.why}` };
    }
    const qualifier = replayQualifier(replay, run);
    about = { ...about, functionArn: qualifiedName(replay.functionArn, qualifier) };
    await deps.lambda.send(new InvokeCommand({
      FunctionName: replay.functionArn,
      Qualifier: qualifier,
      InvocationType: 'Event',
      Payload: Buffer.from(JSON.stringify(replay.event)),
    }));
  } catch (err) {
    return { ...about, outcome: 'kept', detail: `not replayed: ${describe(err)}` };
  }
  try {
    await remove();
  } catch (err) {
    // The invoke was accepted: a later recover replays this message again, which the checkpoints make harmless.
    return { ...about, outcome: 'replayed', detail: `${replay.why}; the message was not deleted (${describe(err)})` };
  }
  return { ...about, outcome: 'replayed', detail: replay.why };
}

/** Receives every dead letter of the queue once and recovers it (see the module comment). */
export async function recoverDeadLetters(deps: RecoveryDeps): Promise<RecoveryReport> {
  const deadLetters: RecoveredDeadLetter[] = [];
  const seen = new Set<string>();
  for (;;) {
    const { Messages: received = [] } = await deps.sqs.send(new ReceiveMessageCommand({
      QueueUrl: deps.queueUrl,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: deps.visibilityTimeoutSeconds,
      // A short long poll: SQS answers at once when it has messages, and an empty answer then means an empty queue.
      WaitTimeSeconds: 1,
    }));
    if (received.length === 0) break;
    // A message seen again (kept, and visible again during a long recovery) is not handled twice.
    const fresh = received.filter((m) => !seen.has(m.MessageId ?? ''));
    for (const m of fresh) seen.add(m.MessageId ?? '');
    deadLetters.push(...(await Promise.all(fresh.map((m) => recoverOne(deps, m)))));
  }
  const count = (outcome: DeadLetterOutcome): number => deadLetters.filter((d) => d.outcome === outcome).length;
  return { deadLetters, replayed: count('replayed'), finished: count('finished'), kept: count('kept') };
}
