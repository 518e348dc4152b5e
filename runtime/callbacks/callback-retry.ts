/**
 * Retry rules on a callback Task's failures (docs/architecture.md
 * "Callbacks"): a sent failure or a timeout that a Retry rule retries
 * commits the attempt's checkpoint with catch index TASK_RETRY, the one
 * decision for its token (first completion wins), and its successor is the
 * next attempt: the Task's own node one iteration later, a new invocation
 * whose handler hands out a new token. The retries used per rule travel in
 * the decision and the next attempt's waiting record.
 */
import { runtimeError } from '../contract/errors';
import { appendCommit } from '../records/history';
import { unlessCommitted } from '../step/interpreter';
import { ENVELOPE_BOUNDS, ENVELOPE_VERSION, type Envelope, type Json } from '../contract/ir';
import { invocationName, ownFunctionName } from '../contract/naming';
import { redriveUntil } from '../records/redrive-park';
import { sleep } from '../ports/pool';
import { matchesError, RESERVE_MS, retryDelay } from '../states/retry';
import { send } from '../step/send';
import { checkpointKey, TASK_FAILED, TASK_RETRY } from '../contract/table';
import { taskWaits } from './task-waits';
import type { Committed, Exec, Redo, TaskCompletion } from '../ports/execution';
import { remainingMs } from '../step/user-code';

/** A `TASK_RETRY` checkpoint's value: what the next attempt needs, decided once with the old token's completion. */
export interface TaskRetry {
  /** The Task's state input. */
  readonly input: Json;
  /** Retries used per Retry rule, this one counted. */
  readonly retries: readonly number[];
  /** When the next attempt starts (epoch ms): the backoff, its jitter drawn once, so every execution of the decision agrees. */
  readonly due: number;
  /** The failure retried. */
  readonly error: string;
  readonly cause: string;
}

/**
 * A wait up to this long is slept by the execution that decided the retry
 * (within its time left), then the next attempt is invoked; a longer one is
 * a one-time schedule. Short because a response's execution answers a
 * caller who waits for it (the task-response function), and because
 * Scheduler rounds to the minute: a backoff of seconds would take minutes.
 */
const SLEEP_MS = 10_000;

/** The retry of the completion's error (sent, or a timeout) when the first Retry rule it matches has attempts left. */
export function taskRetry(x: Exec, c: TaskCompletion, error: string, cause: string): { value: Json; catchIndex: number } | undefined {
  const rules = x.rt.ir.retry ?? [];
  const i = rules.findIndex((r) => matchesError(r.errors, error));
  const n = c.retries[i] ?? 0;
  if (i < 0 || n >= rules[i].maxAttempts) return undefined;
  const retries = rules.map((_, k) => (k === i ? n + 1 : (c.retries[k] ?? 0)));
  const decision: TaskRetry = { input: c.stateInput, retries, due: Date.now() + retryDelay(rules[i], n), error, cause };
  return { value: decision as unknown as Json, catchIndex: TASK_RETRY };
}

/**
 * This attempt's state input and the retries used before it: a retry's
 * input is the previous attempt's decision; a redriven attempt's, the
 * previous attempt's uncaught failure (`{Error, Cause, input}`), and its
 * retries start over, as in Step Functions.
 */
export function attemptOf(x: Exec, input: Json): { input: Json; retries: readonly number[] } {
  const sent = x.invocation.input;
  const previous = 'ref' in sent ? x.read?.checkpoints.get(sent.ref)?.catchIndex : undefined;
  if (previous !== TASK_RETRY && previous !== TASK_FAILED) return { input, retries: [] };
  const decision = input as unknown as Pick<TaskRetry, 'input' | 'retries'>;
  return { input: decision.input, retries: previous === TASK_RETRY ? decision.retries : [] };
}

/**
 * After a `TASK_RETRY` commit: invokes the next attempt at its due time. A
 * duplicate (a redelivered completion, the old token's timeout or heartbeat
 * check) invokes nothing once the next attempt committed or put its waiting
 * record: that attempt's own event owes it, and its handler is not run again.
 */
export async function nextAttempt(x: Exec, ck: Committed): Promise<void> {
  const { node } = x.rt.ir;
  const { iteration, frames } = x.invocation;
  if (iteration >= ENVELOPE_BOUNDS.iteration) throw runtimeError(`node ${node}: the Task's retries reached the limit of ${ENVELOPE_BOUNDS.iteration} iterations`);
  const next = invocationName(x.run, node, iteration + 1, frames);
  if (!(await unlessCommitted(x, [checkpointKey(next)])) || (x.metrics.duplicates && (await taskWaits(x.rt).get(next)))) return;
  const { due, error, cause } = ck.value as unknown as TaskRetry;
  await appendCommit(x, ck, { next: [node], error: { error, cause } });
  const wait = due - Date.now();
  if (wait > 0 && wait <= SLEEP_MS && wait + RESERVE_MS <= remainingMs(x)) await sleep(wait);
  await send(x, node, { iteration: iteration + 1, fanOut: frames, inputs: [{ ref: ck.key }] }, { at: due, ck });
}

/**
 * What a redrive re-sends for a Task whose uncaught failure failed the run:
 * its next attempt, reading the failure's checkpoint, with the lease the
 * failed attempt was sent (the checkpoint lives at least until then, and the
 * redrive window follows from it). Undefined for another checkpoint, and at
 * the iteration bound (then the failure is not redrivable).
 */
export function redriveAttempt(x: Exec, catchIndex: number | undefined): Redo | undefined {
  const { node } = x.rt.ir;
  const { iteration, frames, lease, redrive } = x.invocation;
  if (catchIndex !== TASK_FAILED || iteration >= ENVELOPE_BOUNDS.iteration) return undefined;
  const event: Envelope = { unum: { v: ENVELOPE_VERSION, ...x.run, deployment: x.rt.ir.deployment, node, iteration: iteration + 1, fanOut: frames, inputs: [{ ref: x.key }], ...(lease === undefined ? {} : { lease }) } };
  const functionName = ownFunctionName(x.rt.ir, x.ctx) ?? '';
  return { invocation: invocationName(x.run, node, iteration + 1, frames), parked: { functionName, event: JSON.stringify(event), until: redriveUntil(lease, x.rt.ir.settings) }, generation: redrive ?? 0 };
}
