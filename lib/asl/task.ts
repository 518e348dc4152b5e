import { FUNCTION_TIMEOUT_MARGIN_SECONDS, TIMEOUT_SECONDS } from '../compiler/function-settings';
import { IntegrationPattern, Task } from '../definition';
import type { StateReader } from './context';
import { ioProps, jsonataIo, refuseJsonataIntegration } from './io';
import { lambdaInvokeIo } from './lambda-invoke';
import { LAMBDA_INVOKE, LAMBDA_INVOKE_CALLBACK, taskResource } from './resource';
import { addCatches, addRetries } from './retry';

/**
 * Task: one function. Its settings come from `options.tasks` /
 * `defaultTask`; the ASL supplies the io fields, Retry, Catch and
 * TimeoutSeconds (which overrides the settings' timeout; of a callback Task
 * `.waitForTaskToken`, with HeartbeatSeconds, it bounds the wait for the token).
 */
export const taskReader: StateReader = {
  create(ctx, name, state) {
    if (state.QueryLanguage === 'JSONata' && typeof state.Resource === 'string' && state.Resource.startsWith(LAMBDA_INVOKE)) refuseJsonataIntegration(ctx.report, name);
    const target = taskResource(ctx.report, name, state);
    const settings = ctx.tasks.propsFor(name, target);
    const io = state.QueryLanguage === 'JSONata' ? jsonataIo(ctx.report, name, state, target) : ioProps(ctx.report, name, state, ['InputPath', 'Parameters', 'ResultSelector', 'ResultPath', 'OutputPath'], target.callback ? 'task' : 'state');
    const timeout = state.TimeoutSeconds as number | undefined;
    const heartbeat = state.HeartbeatSeconds as number | undefined;
    if (!target.callback && timeout !== undefined && timeout > TIMEOUT_SECONDS.max) {
      // ASL allows longer task timeouts, which a function cannot honour.
      ctx.report.fail(name, 'TimeoutSeconds', `${timeout} s is longer than a handler may run (${TIMEOUT_SECONDS.max} s: Lambda's 900 s, less the ${FUNCTION_TIMEOUT_MARGIN_SECONDS} s the runtime keeps for its own work)`);
    }
    if (!target.callback && heartbeat !== undefined) {
      ctx.report.fail(name, 'HeartbeatSeconds', `heartbeats apply to callback Tasks only (Resource ${LAMBDA_INVOKE_CALLBACK})`);
    }
    // A callback's TimeoutSeconds and HeartbeatSeconds bound the wait for its token; the handler keeps its settings' timeout.
    const limits = target.callback
      ? { integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, ...(timeout !== undefined ? { timeout } : {}), ...(heartbeat !== undefined ? { heartbeat } : {}) }
      : timeout !== undefined ? { timeoutSeconds: timeout } : {};
    const task = new Task(ctx.names.node(name), {
      ...settings,
      ...(target.lambdaInvoke && state.QueryLanguage !== 'JSONata' ? lambdaInvokeIo(ctx.report, name, io, target.callback) : io),
      ...limits,
    });
    addRetries(ctx, name, state.Retry, task);
    return task;
  },

  /** Catch rules need their targets, which exist once the whole scope is created. */
  wire(ctx, name, state, created, lookup) {
    addCatches(ctx, name, state.Catch, created.entry as Task, lookup);
  },
};
