import { type CallbackSpec, MAX_WAIT_SECONDS } from '../../runtime/contract/ir';
import { IntegrationPattern, type Task } from '../definition';
import { durationSeconds } from '../definition/wait';
import type { Problem } from './checks';

const PATTERNS: readonly string[] = Object.values(IntegrationPattern);

/** Does the Task wait for its task token? */
export const isCallback = (task: Task): boolean => task.props.integrationPattern === IntegrationPattern.WAIT_FOR_TASK_TOKEN;

/** The IR of a callback Task's timeout and heartbeat (validated by `callbackProblems`). */
export function callbackSpec(task: Task): CallbackSpec {
  const { timeout, heartbeat } = task.props;
  return { timeoutSeconds: timeout === undefined ? MAX_WAIT_SECONDS : durationSeconds(timeout), ...(heartbeat === undefined ? {} : { heartbeatSeconds: durationSeconds(heartbeat) }) };
}

const seconds = (value: number): string | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_WAIT_SECONDS ? undefined : `${String(value)} is not a whole number of seconds from 1 to ${MAX_WAIT_SECONDS} (one year)`;

/** A Task's integration pattern, and a timeout and heartbeat only where it waits for its token: 1 s to 1 year, the heartbeat shorter. */
export function callbackProblems(task: Task): Problem[] {
  const { integrationPattern, timeout } = task.props;
  if (integrationPattern !== undefined && !PATTERNS.includes(integrationPattern)) {
    return [{ field: 'integrationPattern', message: `'${String(integrationPattern)}' is not one of ${PATTERNS.join(', ')}` }];
  }
  if (!isCallback(task)) {
    const set = (['timeout', 'heartbeat'] as const).filter((f) => task.props[f] !== undefined);
    return set.map((field) => ({ field, message: `${field} applies to a Task with integrationPattern WAIT_FOR_TASK_TOKEN only (use timeoutSeconds for the handler's timeout)` }));
  }
  const spec = callbackSpec(task);
  const out: Problem[] = [];
  const timeoutProblem = timeout === undefined ? undefined : seconds(spec.timeoutSeconds);
  if (timeoutProblem) out.push({ field: 'timeout', message: timeoutProblem });
  if (spec.heartbeatSeconds !== undefined) {
    const message = seconds(spec.heartbeatSeconds) ?? (spec.heartbeatSeconds < spec.timeoutSeconds ? undefined : `${spec.heartbeatSeconds} s is not shorter than the timeout (${spec.timeoutSeconds} s)`);
    if (message) out.push({ field: 'heartbeat', message });
  }
  return out;
}
