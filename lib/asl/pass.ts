import { Pass } from '../definition';
import type { StateReader } from './context';
import { ioProps } from './io';

/** Pass: no user code; `Result` (if any) replaces the effective input, then ResultPath and OutputPath apply; in JSONata, `Output` (default: the input). */
export const passReader: StateReader = {
  create(ctx, name, state) {
    if (state.QueryLanguage === 'JSONata') return Pass.jsonata(ctx.names.node(name), state.Output === undefined ? {} : { outputs: state.Output });
    const io = ioProps(ctx.report, name, state, ['InputPath', 'Parameters', 'ResultPath', 'OutputPath']);
    return new Pass(ctx.names.node(name), { ...io, ...(state.Result !== undefined ? { result: state.Result } : {}) });
  },
};
