import { Parallel } from '../../definition';
import type { StateReader } from './context';
import { rejectMergingResultPath } from './container-io';
import { ioProps } from './io';
import type { AslScope } from './types';

/** Parallel: every branch on the same input; the next state receives the branch outputs in branch order. */
export const parallelReader: StateReader = {
  create(ctx, name, state) {
    rejectMergingResultPath(ctx.report, name, state);
    const io = ioProps(ctx.report, name, state, ['InputPath', 'Parameters', 'ResultSelector', 'ResultPath', 'OutputPath']);
    const parallel = new Parallel(ctx.names.node(name), io);
    for (const branch of state.Branches as unknown as AslScope[]) parallel.branch(ctx.buildScope(branch));
    return parallel;
  },
};
