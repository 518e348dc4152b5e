import type { Json } from '../../runtime/ir';
import { FUNCTION_TIMEOUT_MARGIN_SECONDS, TIMEOUT_SECONDS } from '../compiler/function-settings';
import { Task } from '../definition';
import type { StateReader } from './context';
import { checkKeys } from './fields';
import { ioProps } from './io';
import { lambdaInvokeIo } from './lambda-invoke';
import { taskResource } from './resource';
import { retryProps } from './retry';

type AslCatcher = { readonly ErrorEquals: string[]; readonly Next: string; readonly ResultPath?: string | null };

/**
 * Task: one function. Its settings come from `options.tasks` /
 * `defaultTask`; the ASL supplies the io fields, Retry, Catch and
 * TimeoutSeconds (which overrides the settings' timeout).
 */
export const taskReader: StateReader = {
  create(ctx, name, state) {
    const target = taskResource(ctx.report, name, state);
    const settings = ctx.tasks.propsFor(name, target);
    const io = ioProps(ctx.report, name, state, ['InputPath', 'Parameters', 'ResultSelector', 'ResultPath', 'OutputPath']);
    const timeout = state.TimeoutSeconds as number | undefined;
    if (timeout !== undefined && timeout > TIMEOUT_SECONDS.max) {
      // ASL allows longer task timeouts, which a function cannot honour.
      ctx.report.fail(name, 'TimeoutSeconds', `${timeout} s is longer than a handler may run (${TIMEOUT_SECONDS.max} s: Lambda's 900 s, less the ${FUNCTION_TIMEOUT_MARGIN_SECONDS} s the runtime keeps for its own work)`);
    }
    const task = new Task(ctx.names.node(name), {
      ...settings,
      ...(target.lambdaInvoke ? lambdaInvokeIo(ctx.report, name, io) : io),
      ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}),
    });
    for (const retry of retryProps(ctx.report, name, state.Retry)) task.addRetry(retry);
    return task;
  },

  /** Catch rules need their targets, which exist once the whole scope is created. */
  wire(ctx, name, state, created, lookup) {
    for (const [i, c] of ((state.Catch ?? []) as Json[] as AslCatcher[]).entries()) {
      checkKeys(ctx.report, name, `Catch[${i}]`, c, ['ErrorEquals', 'Next', 'ResultPath', 'Comment']);
      (created.entry as Task).addCatch(lookup(c.Next), { errors: c.ErrorEquals, ...(c.ResultPath !== undefined ? { resultPath: c.ResultPath } : {}) });
    }
  },
};
