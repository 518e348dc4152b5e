import { Succeed } from '../../definition';
import type { StateReader } from './context';

/** Succeed: ends the run (or, inside a Parallel branch or Map item, that branch) with its input. */
export const succeedReader: StateReader = {
  create(ctx, name) {
    return new Succeed(ctx.names.node(name));
  },
};
