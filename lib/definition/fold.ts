import type { FunctionProps } from './function-props';
import { FunctionState } from './function-state';
import type { Untyped } from './types';

/** Properties of a `Fold`. */
export interface FoldProps<Acc = Untyped> extends FunctionProps {
  /** The accumulator before the first item (JSON). */
  readonly initial: Acc;
}

/**
 * Sequential aggregation over the outputs of the preceding Map or Parallel:
 * the export is called as `handler(acc, item, index)` once per item, in item
 * order, each call its own invocation. Must directly follow a Map or Parallel.
 */
export class Fold<Item = Untyped, Acc = Untyped> extends FunctionState<readonly Item[], Acc> {
  readonly kind = 'fold' as const;

  constructor(id: string, readonly props: FoldProps<Acc>) {
    super(id, props);
  }
}
