import { Fail } from '../definition';
import type { StateReader } from './context';

/**
 * Fail: ends the run with `Error` and `Cause`. The IR needs an error name:
 * without `Error` (Step Functions then reports none) the ASL state name is recorded.
 */
export const failReader: StateReader = {
  create(ctx, name, state) {
    const cause = state.Cause as string | undefined;
    return new Fail(ctx.names.node(name), { error: (state.Error as string | undefined) ?? name, ...(cause !== undefined ? { cause } : {}) });
  },
};
