/**
 * What the engine can tell about an event from its payload alone: the run it
 * belongs to and a name for the invocation that does not depend on the
 * workflowId. The name is what fault schedules and the checker key on, so the
 * same schedule means the same faults in every run of a workflow.
 */
import type { EnvelopeHeader } from '../../runtime/contract/ir';
import { invocationName } from '../../runtime/contract/naming';
import { decodeTaskToken, type TaskToken } from '../../runtime/contract/task-token';
import { parseFunctionRef } from './assembly';

export interface EventInfo {
  /** The run, when the payload names one (a start without a workflowId is named by its request id). */
  readonly workflowId?: string;
  /**
   * `<function>@<iteration>[<frame iteration>.<index>,...]/<fold index>`, a launcher of a Map's items
   * `<first item's>/launch:<end of its range>`, a response to a task token `<function>@task:<kind>` (`:<iteration>` added
   * for a Task outside any Map: its retries are invocations of later iterations, each with its own token), a run's timeout
   * `<function>@run-timeout`, or `<function>@start`.
   */
  readonly identity: string;
  readonly node?: string;
  /** A run's timeout (runtime/records/run-timeout.ts): it fires at the deadline whether or not the run still runs, so a pending one keeps no run busy. */
  readonly runTimeout?: true;
}

function parse(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

/** Marks a launcher's identity (docs/architecture.md "Launch tree"): it runs no item. */
const LAUNCHER_MARK = '/launch:';

export const isLauncher = (identity: string): boolean => identity.includes(LAUNCHER_MARK);

/** Iterations tried when naming a token's invocation: a Task's retries and a loop's passes. */
const TOKEN_ITERATIONS = 64;

/**
 * `:<iteration>` of the invocation that handed out `token`, for a Task outside
 * any Map (the only names computable without the frames); '' otherwise. The
 * token names its invocation by a hash that includes the workflowId, which
 * an identity must not.
 */
function tokenIteration(token: TaskToken): string {
  const run = { workflow: token.workflow, workflowId: token.workflowId };
  for (let i = 0; i < TOKEN_ITERATIONS; i++) if (invocationName(run, token.node, i, []) === token.invocation) return `:${i}`;
  return '';
}

export function describeEvent(functionName: string, payload: string, requestId: string): EventInfo {
  return describeValue(functionName, parse(payload), requestId);
}

function describeValue(functionName: string, event: unknown, requestId: string): EventInfo {
  const o = (event && typeof event === 'object' ? event : {}) as Record<string, unknown>;
  const unum = o.unum as EnvelopeHeader | undefined;
  if (unum && typeof unum === 'object' && Array.isArray(unum.fanOut)) {
    const frames = unum.fanOut.map((f) => `${f.iteration}.${f.index}`).join(',');
    const fold = unum.fold ? `/${unum.fold.index}` : '';
    const input = Array.isArray(unum.inputs) ? (unum.inputs[0] as Partial<Record<'launch', { to?: unknown }>> | undefined) : undefined;
    const launch = input?.launch ? `${LAUNCHER_MARK}${String(input.launch.to)}` : '';
    return { workflowId: unum.workflowId, node: unum.node, identity: `${functionName}@${unum.iteration}[${frames}]${fold}${launch}` };
  }
  // A response to a callback Task's token (runtime/callbacks/task-completion.ts): the token names the run.
  const task = o.unumTask as Record<string, unknown> | undefined;
  if (task && typeof task === 'object') {
    const token = decodeTaskToken(task.token);
    const kind = ['success', 'failure', 'heartbeat', 'timeout'].find((k) => k in task) ?? 'unknown';
    if (typeof token === 'string') return { identity: `${functionName}@task:${kind}` };
    return { workflowId: token.workflowId, node: token.node, identity: `${functionName}@task:${kind}${tokenIteration(token)}` };
  }
  const timeout = o.unumRunTimeout as Record<string, unknown> | undefined;
  if (timeout && typeof timeout === 'object') {
    return { ...(typeof timeout.workflowId === 'string' ? { workflowId: timeout.workflowId } : {}), identity: `${functionName}@run-timeout`, runTimeout: true };
  }
  // A Lambda on-failure destination record: describe the failed event.
  const ctx = o.requestContext as { requestId?: string; functionArn?: string } | undefined;
  if (o.version === '1.0' && ctx?.functionArn && 'requestPayload' in o) {
    const failed = describeValue(parseFunctionRef(ctx.functionArn).name, o.requestPayload, ctx.requestId ?? requestId);
    return { ...(failed.workflowId ? { workflowId: failed.workflowId } : {}), identity: `${functionName}<-${failed.identity}` };
  }
  const keys = Object.keys(o);
  const explicit = 'input' in o && keys.every((k) => k === 'input' || k === 'workflowId') && typeof o.workflowId === 'string';
  return { workflowId: explicit ? (o.workflowId as string) : requestId, identity: `${functionName}@start` };
}
