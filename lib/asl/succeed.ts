import { Succeed } from '../definition';
import type { StateReader } from './context';
import { withPathsBefore } from './io-pass';

/** Succeed: ends the run (or, inside a Parallel branch or Map item, that branch) with its input (after InputPath / OutputPath). */
export const succeedReader: StateReader = {
  create(ctx, name, state) {
    return withPathsBefore(ctx, name, state, (id) => new Succeed(id));
  },
};
