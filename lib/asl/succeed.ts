import type { Json } from '../../runtime/contract/ir';
import { Pass, Succeed } from '../definition';
import type { StateReader } from './context';
import { withPathsBefore } from './io-pass';

/**
 * Succeed: ends the run (or, inside a Parallel branch or Map item, that
 * branch) with its input (after InputPath / OutputPath); a JSONata
 * Succeed's `Output` is applied by a JSONata Pass in front of it, as the paths are.
 */
export const succeedReader: StateReader = {
  create(ctx, name, state) {
    if (state.QueryLanguage !== 'JSONata' || state.Output === undefined) return withPathsBefore(ctx, name, state, (id) => new Succeed(id));
    const exit = new Succeed(ctx.names.helper(name, 'succeed'));
    const entry = Pass.jsonata(ctx.names.node(name), { outputs: state.Output as Json });
    entry.next(exit);
    return { entry, exit };
  },
};
