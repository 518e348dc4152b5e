import { Pass } from '../definition';
import type { StateReader } from './context';
import { ioProps } from './io';

/** Pass: no user code; `Result` (if any) replaces the effective input, then ResultPath and OutputPath apply. */
export const passReader: StateReader = {
  create(ctx, name, state) {
    const io = ioProps(ctx.report, name, state, ['InputPath', 'Parameters', 'ResultPath', 'OutputPath']);
    return new Pass(ctx.names.node(name), { ...io, ...(state.Result !== undefined ? { result: state.Result } : {}) });
  },
};
