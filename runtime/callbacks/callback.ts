/**
 * Callback Tasks (`WAIT_FOR_TASK_TOKEN`, docs/architecture.md "Callbacks"):
 * the handler hands out a task token and the run pauses with no function
 * running; a completion later commits the task's checkpoint, the one
 * decision (first completion wins), and goes on like any committed step.
 */
import { createHash } from 'node:crypto';
import { contextObject } from '../language/context';
import { boundedError, runtimeError, StateFailedError, TERMINAL_ERRORS } from '../contract/errors';
import type { FanOutFrame, Json, TaskOutcome, TaskResponseEvent } from '../contract/ir';
import { applyResultPath, processInput, processOutput } from '../language/io';
import { itemTtl, leaseThroughWait } from '../records/retention';
import { assertStorable } from '../records/payload';
import { attemptOf, taskRetry } from './callback-retry';
import { errorCause, errorMessage, errorName, findCatch } from '../states/retry';
import { writeLogLine } from '../ports/log';
import { TASK_FAILED, type TaskWait } from '../contract/table';
import { encodeTaskToken, newTaskSecret } from '../contract/task-token';
import { ownFunctionName } from '../contract/naming';
import { taskWaits } from './task-waits';
import type { Exec, Runtime, TaskCompletion } from '../ports/execution';
import type { LambdaContext } from '../contract/handler-api';
import { callUser } from '../step/user-code';

/** What a completion needs of the waiting invocation's envelope, kept in its waiting record. */
export interface WaitContext {
  readonly iteration: number;
  readonly fanOut: readonly FanOutFrame[];
  readonly lease: number;
  readonly parent?: string;
  /** Retries used per Retry rule by the attempts before this one (none: the first attempt). */
  readonly retries?: readonly number[];
}

/** A one-time schedule's name: per invocation, kind and time, so creating it again is harmless. */
const scheduleName = (invocation: string, kind: string, at: number): string => createHash('sha256').update(JSON.stringify([invocation, kind, at])).digest('base64url');
/** A timeout or heartbeat check of a callback Task. */
type Check = Extract<TaskOutcome, { timeout: unknown }>;
const checkKind = (outcome: Check): string => ('beats' in outcome ? `${outcome.timeout}:${outcome.beats}` : outcome.timeout);

/** The checks the handler's execution schedules (the timeout, the first heartbeat check), timed from the waiting record's start. */
function firstChecks(rt: Runtime, wait: TaskWait): { outcome: Check; at: number }[] {
  const spec = rt.ir.callback!;
  const timeout = { outcome: { timeout: 'States.Timeout' } as const, at: wait.startedAt + spec.timeoutSeconds * 1000 };
  if (spec.heartbeatSeconds === undefined) return [timeout];
  return [timeout, { outcome: { timeout: 'States.HeartbeatTimeout', beats: 0 }, at: wait.startedAt + spec.heartbeatSeconds * 1000 }];
}

/**
 * After a completion committed: deletes the timeout's schedule (up to a
 * year away) and the first heartbeat check, which would otherwise fire, be
 * billed and find the task completed. A later heartbeat's check is not
 * named from the record and fires within a heartbeat interval. A failed
 * delete loses nothing (the check finds the task completed): it is logged.
 */
export async function cancelChecks(rt: Runtime, invocation: string, wait: TaskWait): Promise<void> {
  const { scheduler } = rt;
  if (!scheduler) return;
  const results = await Promise.allSettled(firstChecks(rt, wait).map((c) => scheduler.unschedule(scheduleName(invocation, checkKind(c.outcome), c.at))));
  for (const r of results) {
    if (r.status === 'rejected') writeLogLine({ timestamp: new Date().toISOString(), level: 'WARN', message: 'unum: a completed task\'s check could not be unscheduled; it will fire and find the task completed', invocation, error: errorMessage(r.reason) });
  }
}

/**
 * Delivers `outcome` (a timeout or a heartbeat check) of `token` to this
 * function at `at` (epoch ms) by a one-time schedule (one due already fires
 * at once). Scheduler never delivers early, so the receiver compares no times.
 */
export async function scheduleCheck(rt: Runtime, ctx: LambdaContext, invocation: string, token: string, outcome: Check, at: number): Promise<void> {
  const functionName = ownFunctionName(rt.ir, ctx);
  if (!functionName) throw runtimeError(`node ${rt.ir.node}: a callback Task needs its own function name`);
  const event: TaskResponseEvent = { unumTask: { token, ...outcome } };
  if (!rt.scheduler) throw runtimeError(`node ${rt.ir.node}: a callback Task with a timeout needs a scheduler, and this runtime has none`);
  await rt.scheduler.schedule({ name: scheduleName(invocation, checkKind(outcome), at), functionName, event, at, maxDeliverySeconds: rt.ir.settings.handoffSeconds });
}

/**
 * The handler's part of a callback Task. Before the handler runs, the run's
 * items are kept past the timeout (nothing runs while the task waits) and
 * the waiting record is put once: a completion may arrive before the handler
 * returns, and a later execution of this invocation (a Lambda retry) hands
 * out the same token on the recorded input. A retried or redriven attempt
 * takes its input (and retry counts) from the previous attempt's checkpoint.
 * A handler error is one of the Task's failures (`handlerFailure`); after a
 * return the task waits: nothing is committed, and its timeout and first
 * heartbeat check are scheduled.
 */
export async function handOutToken(x: Exec, received: Json): Promise<{ value: Json; catchIndex?: number } | 'waiting'> {
  const { ir } = x.rt;
  const spec = ir.callback!;
  const { input, retries } = attemptOf(x, received);
  const now = Date.now();
  await leaseThroughWait(x, Math.ceil(now / 1000) + spec.timeoutSeconds);
  const context: WaitContext = {
    iteration: x.invocation.iteration,
    fanOut: x.invocation.frames,
    lease: x.lease,
    ...(x.invocation.parent ? { parent: x.invocation.parent } : {}),
    ...(retries.length > 0 ? { retries } : {}),
  };
  const fresh: TaskWait = { secret: newTaskSecret(), input: JSON.stringify(input), context: JSON.stringify(context), startedAt: now, beats: 0 };
  assertStorable(x, fresh.input + fresh.context);
  const wait = (await taskWaits(x.rt).put(x.name, fresh, itemTtl(x))) ?? fresh;
  const token = encodeTaskToken({ ...x.run, node: ir.node, invocation: x.name, secret: wait.secret, deployment: ir.deployment });
  x.taskToken = token;
  const templates = contextObject(x, { Task: { Token: token } });
  // The recorded input: a later execution may have none of its own (a response's event, parked and redriven).
  const recorded = JSON.parse(wait.input) as Json;
  x.attempts = 1;
  try {
    await callUser(x, [processInput(ir.io, recorded, templates)], x.ctx);
  } catch (e) {
    return handlerFailure(x, e, recorded, retries);
  }
  for (const check of firstChecks(x.rt, wait)) await scheduleCheck(x.rt, x.ctx, x.name, token, check.outcome, check.at);
  return 'waiting';
}

/**
 * The handler's own error is one of the Task's failures, as in Step
 * Functions: the Retry rules count it together with the token's failures
 * (a retry is the next attempt, which hands out a new token), then the
 * Catch rules take it. An error no rule handles goes back to Lambda (its
 * retries, then the failure recorder), as a Task's does, or fails the
 * Parallel/Map with rules around the Task; so does a terminal error.
 */
function handlerFailure(x: Exec, e: unknown, stateInput: Json, retries: readonly number[]): { value: Json; catchIndex: number } {
  const name = errorName(e);
  x.attemptErrors.push(name);
  if (TERMINAL_ERRORS.has(name)) throw e;
  const decided = completionOutput(x, { stateInput, result: { error: name, cause: errorCause(e) }, retries });
  if (decided.catchIndex !== TASK_FAILED) return decided as { value: Json; catchIndex: number };
  if (x.rt.ir.stateErrors) throw new StateFailedError(name, errorCause(e));
  throw e;
}

/**
 * The task's output from a completion, as a Task's from its handler: a
 * result through ResultSelector, ResultPath and OutputPath; an error to the
 * first Retry rule that matches it and has attempts left (the Task runs
 * again: `TASK_RETRY`), else the first Catch rule that matches it, else
 * `TASK_FAILED`.
 */
export function completionOutput(x: Exec, c: TaskCompletion): { value: Json; catchIndex?: number } {
  const { ir } = x.rt;
  if ('value' in c.result) return { value: processOutput(ir.io, c.stateInput, c.result.value, contextObject(x)) };
  const { error, cause } = boundedError(c.result);
  const retry = taskRetry(x, c, error, cause);
  if (retry) return retry;
  const index = findCatch(ir.catch, error);
  // With the state input: a redrive's next attempt reads it from here (runtime/callbacks/callback-retry.ts `attemptOf`).
  if (index < 0) return { value: { Error: error, Cause: cause, input: c.stateInput }, catchIndex: TASK_FAILED };
  return { value: applyResultPath(ir.catch![index].resultPath, c.stateInput, { Error: error, Cause: cause }), catchIndex: index };
}
