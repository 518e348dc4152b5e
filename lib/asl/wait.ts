import type { StateReader } from './context';

/**
 * Wait is rejected: with no orchestrator nothing holds a run while it waits,
 * and a function that sleeps is billed for the wait and cannot exceed 15
 * minutes. A clean translation needs a delayed invocation (e.g. EventBridge
 * Scheduler) in the runtime and the construct.
 */
export const waitReader: StateReader = {
  create(ctx, name) {
    return ctx.report.fail(name, 'Type', 'Wait states are not supported: unum has no orchestrator to hold the run while it waits, and a sleeping function would be billed for the wait (and stops after 15 minutes). Split the workflow at the Wait and start the second part on a schedule (e.g. EventBridge Scheduler)');
  },
};
