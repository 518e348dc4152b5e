/**
 * A callback Task's function receiving a response to one of its tokens
 * (docs/architecture.md "Callbacks"): a completion (success, failure, a
 * timeout) runs the task's exactly-once step with the completion as its
 * output, so the first one commits and the successors are invoked as after
 * any commit; a heartbeat counts and schedules the next heartbeat check.
 * A token is valid only while a waiting record with its secret exists:
 * anything else is answered `invalid` and writes nothing.
 */
import { cancelChecks, scheduleCheck, type WaitContext } from './callback';
import { execute } from '../step/execute';
import type { Json, TaskOutcome, TaskResponseAnswer } from '../contract/ir';
import { invocationName } from '../contract/naming';
import { checkpointKey } from '../contract/table';
import { decodeTaskToken, otherDeployment, sameSecret, type TaskToken } from '../contract/task-token';
import { taskWaits } from './task-waits';
import type { Runtime, TaskCompletion } from '../ports/execution';
import type { LambdaContext } from '../contract/handler-api';

const NO_TASK = 'no task waits for this token: it was never issued, is forged, or expired';
const ALREADY: TaskResponseAnswer = { task: 'alreadyCompleted', reason: 'the task was completed already (by a completion or its timeout)' };
const invalid = (reason: string): TaskResponseAnswer => ({ task: 'invalid', reason });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The outcome a response carries, or why it is malformed: exactly one kind, with the fields it needs. */
function outcomeOf(r: Record<string, unknown>): TaskOutcome | string {
  const kinds = ['success', 'failure', 'heartbeat', 'timeout'].filter((k) => k in r);
  if (kinds.length !== 1) return 'a task response has exactly one of success, failure, heartbeat, timeout';
  const f = r.failure;
  if (kinds[0] === 'success') return { success: r.success as Json };
  if (kinds[0] === 'heartbeat') return r.heartbeat === true ? { heartbeat: true } : 'heartbeat must be true';
  if (kinds[0] === 'failure') return isObject(f) && typeof f.error === 'string' && typeof f.cause === 'string' ? { failure: { error: f.error, cause: f.cause } } : 'failure must be { error, cause } (strings)';
  if (r.timeout === 'States.Timeout') return { timeout: r.timeout };
  return r.timeout === 'States.HeartbeatTimeout' && Number.isSafeInteger(r.beats) ? { timeout: r.timeout, beats: r.beats as number } : 'timeout is States.Timeout or States.HeartbeatTimeout with beats';
}

/** What a completion makes of the outcome: the result, or the error (a sent failure, a timeout). */
function resultOf(outcome: Exclude<TaskOutcome, { heartbeat: true }>, rt: Runtime): TaskCompletion['result'] {
  const spec = rt.ir.callback!;
  if ('success' in outcome) return { value: outcome.success };
  if ('failure' in outcome) return outcome.failure;
  return outcome.timeout === 'States.Timeout'
    ? { error: outcome.timeout, cause: `the task did not complete within its timeout of ${spec.timeoutSeconds} s` }
    : { error: outcome.timeout, cause: `the task sent no heartbeat within ${spec.heartbeatSeconds} s` };
}

export async function respondToTask(rt: Runtime, event: { unumTask: unknown }, ctx: LambdaContext): Promise<TaskResponseAnswer> {
  const { ir } = rt;
  const r = event.unumTask;
  if (!isObject(r)) return invalid('unumTask must be an object');
  const outcome = outcomeOf(r);
  if (typeof outcome === 'string') return invalid(outcome);
  const token = decodeTaskToken(r.token);
  if (typeof token === 'string') return invalid(token);
  if (token.workflow !== ir.workflow || token.node !== ir.node) return invalid(NO_TASK);
  if (token.deployment !== ir.deployment) return invalid(otherDeployment(token.deployment, ir.deployment));
  const waits = taskWaits(rt);
  const wait = await waits.get(token.invocation);
  if (!wait || !sameSecret(wait.secret, token.secret)) return invalid(NO_TASK);
  const context = JSON.parse(wait.context) as WaitContext;
  const run = { workflow: ir.workflow, workflowId: token.workflowId };
  // The record is keyed by the token's invocation; its context must name the same one (and so the token's run).
  if (invocationName(run, ir.node, context.iteration, context.fanOut) !== token.invocation) return invalid(NO_TASK);
  const done = (): Promise<boolean> => rt.store.getCheckpoint(checkpointKey(token.invocation)).then((c) => c !== undefined);
  if ('heartbeat' in outcome) return heartbeat(rt, ctx, token, r.token as string, done);
  // A check made before a later heartbeat: that heartbeat scheduled the next one.
  if ('beats' in outcome && outcome.beats < wait.beats) return { task: 'heartbeat' };
  const invocation = { workflowId: token.workflowId, iteration: context.iteration, frames: context.fanOut, input: { value: null }, start: false, lease: context.lease, ...(context.parent ? { parent: context.parent } : {}) };
  const end = await execute(rt, invocation, ctx, { stateInput: JSON.parse(wait.input) as Json, result: resultOf(outcome, rt), retries: context.retries ?? [] });
  if (end.duplicate || end.outcome === 'duplicate' || end.outcome === 'stopped' || end.outcome === 'ended') return ALREADY;
  // The timeout's own delivery: its schedule deletes itself.
  if (!('timeout' in outcome && outcome.timeout === 'States.Timeout')) await cancelChecks(rt, token.invocation, wait);
  return { task: 'completed' };
}

/** Counts the heartbeat and schedules the check one heartbeat interval from now, unless the task completed. */
async function heartbeat(rt: Runtime, ctx: LambdaContext, token: TaskToken, raw: string, done: () => Promise<boolean>): Promise<TaskResponseAnswer> {
  if (await done()) return ALREADY;
  const beats = await taskWaits(rt).beat(token.invocation);
  if (beats === undefined) return invalid(NO_TASK);
  const seconds = rt.ir.callback!.heartbeatSeconds;
  if (seconds !== undefined) await scheduleCheck(rt, ctx, token.invocation, raw, { timeout: 'States.HeartbeatTimeout', beats }, Date.now() + seconds * 1000);
  return { task: 'heartbeat' };
}
