import { Parallel } from '../definition';
import type { StateReader } from './context';
import { checkKeys } from './fields';
import { ioProps, jsonataFields } from './io';
import { addCatches, addRetries } from './retry';
import type { AslScope } from './types';

/**
 * Parallel: every branch on the same input; the result is the branch outputs
 * in branch order, processed by its join (ResultSelector, ResultPath,
 * OutputPath; a JSONata Parallel's Arguments and Output).
 */
export const parallelReader: StateReader = {
  create(ctx, name, state) {
    const parallel = state.QueryLanguage === 'JSONata'
      ? Parallel.jsonata(ctx.names.node(name), jsonataFields(state, { Arguments: 'arguments', Output: 'outputs' }))
      : new Parallel(ctx.names.node(name), ioProps(ctx.report, name, state, ['InputPath', 'Parameters', 'ResultSelector', 'ResultPath', 'OutputPath']));
    (state.Branches as unknown as AslScope[]).forEach((branch, i) => {
      checkKeys(ctx.report, name, `Branches[${i}]`, branch, ['StartAt', 'States', 'Comment']);
      parallel.branch(ctx.buildScope(branch));
    });
    addRetries(ctx, name, state.Retry, parallel);
    return parallel;
  },

  /** Catch rules need their targets, which exist once the whole scope is created. */
  wire(ctx, name, state, created, lookup) {
    addCatches(ctx, name, state.Catch, created.entry as Parallel, lookup);
  },
};
