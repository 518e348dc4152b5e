import { Parallel } from '../definition';
import type { StateReader } from './context';
import { checkKeys } from './fields';
import { ioProps } from './io';
import { placeResult } from './merge-result';
import type { AslScope } from './types';

/** Parallel: every branch on the same input; the result is the branch outputs in branch order (placed by ResultPath, see merge-result.ts). */
export const parallelReader: StateReader = {
  create(ctx, name, state) {
    const io = ioProps(ctx.report, name, state, ['InputPath', 'Parameters', 'ResultSelector', 'ResultPath', 'OutputPath']);
    return placeResult(ctx, name, state, io, (id, props) => {
      const parallel = new Parallel(id, props);
      (state.Branches as unknown as AslScope[]).forEach((branch, i) => {
        checkKeys(ctx.report, name, `Branches[${i}]`, branch, ['StartAt', 'States', 'Comment']);
        parallel.branch(ctx.buildScope(branch));
      });
      return parallel;
    });
  },
};
