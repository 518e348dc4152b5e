import type { CompiledWorkflow, FunctionSpec } from '../compiler/compiled';

/** Lambda's defaults, used when neither the node nor the workflow sets a value. */
export const DEFAULT_RETRY_ATTEMPTS = 2;
export const DEFAULT_MAX_EVENT_AGE_SECONDS = 6 * 60 * 60;
const MIN_MAX_EVENT_AGE_SECONDS = 60;

/** Effective Lambda async-invoke settings of one node. */
export interface AsyncSettings {
  readonly retryAttempts: number;
  readonly maxEventAgeSeconds: number;
}

/** Workflow-level defaults from the construct props (already in seconds). */
export interface AsyncDefaults {
  readonly retryAttempts?: number;
  readonly maxEventAgeSeconds?: number;
}

/** A node's own value wins over the workflow's, which wins over Lambda's default. */
export function resolveAsyncSettings(fn: FunctionSpec, defaults: AsyncDefaults): AsyncSettings {
  return {
    retryAttempts: fn.retryAttempts ?? defaults.retryAttempts ?? DEFAULT_RETRY_ATTEMPTS,
    maxEventAgeSeconds: fn.maxEventAgeSeconds ?? defaults.maxEventAgeSeconds ?? DEFAULT_MAX_EVENT_AGE_SECONDS,
  };
}

/** Problems with async settings, or `undefined` when they are valid. */
export function asyncSettingsProblem(settings: AsyncSettings): string | undefined {
  const { retryAttempts, maxEventAgeSeconds } = settings;
  if (!Number.isInteger(retryAttempts) || retryAttempts < 0 || retryAttempts > 2) {
    return `retryAttempts must be an integer from 0 to 2 (Lambda's async retry limit), got ${retryAttempts}`;
  }
  if (
    !Number.isInteger(maxEventAgeSeconds) ||
    maxEventAgeSeconds < MIN_MAX_EVENT_AGE_SECONDS ||
    maxEventAgeSeconds > DEFAULT_MAX_EVENT_AGE_SECONDS
  ) {
    return `maxEventAge must be a whole number of seconds from ${MIN_MAX_EVENT_AGE_SECONDS} to ${DEFAULT_MAX_EVENT_AGE_SECONDS}, got ${maxEventAgeSeconds}`;
  }
  return undefined;
}

/**
 * A tombstone must outlive every late duplicate delivery of its invocation:
 * Lambda may deliver an event up to maxEventAge after it was sent, and that
 * execution may run for the whole timeout. A shorter TTL would let a late
 * duplicate find no tombstone and run the node again.
 */
export function retentionProblem(checkpointTtlSeconds: number, settings: AsyncSettings, timeoutSeconds: number): string | undefined {
  const needed = settings.maxEventAgeSeconds + timeoutSeconds;
  if (checkpointTtlSeconds >= needed) return undefined;
  return (
    `checkpointRetention ${checkpointTtlSeconds}s is shorter than maxEventAge ${settings.maxEventAgeSeconds}s` +
    ` + timeout ${timeoutSeconds}s = ${needed}s; late duplicate deliveries would find no tombstone`
  );
}

/** True when some node can reach itself (a Choice loop, or a fold invoking its next step). */
export function hasCycle(workflow: CompiledWorkflow): boolean {
  const state = new Map<string, 'open' | 'done'>();
  for (const start of Object.keys(workflow.nodes)) {
    if (state.has(start)) continue;
    // Iterative DFS: workflows may have thousands of nodes in a chain.
    const stack: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const successors = workflow.nodes[top.node]?.successors ?? [];
      if (top.next >= successors.length) {
        state.set(top.node, 'done');
        stack.pop();
        continue;
      }
      const succ = successors[top.next++];
      const seen = state.get(succ);
      if (seen === 'open') return true;
      if (seen === undefined) {
        state.set(succ, 'open');
        stack.push({ node: succ, next: 0 });
      }
    }
  }
  return false;
}
