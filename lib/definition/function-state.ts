import type { Untyped } from './types';
import type { FunctionProps } from './function-props';
import { ErrorRulesState } from './error-rules';

export type { CatchEntry } from './error-rules';

/** A state that runs in its own Lambda function with user code (Task, Fold); its Retry and Catch rules apply to the handler. */
export abstract class FunctionState<I = Untyped, O = Untyped> extends ErrorRulesState<I, O> {
  constructor(
    id: string,
    readonly functionProps: FunctionProps,
  ) {
    super(id);
  }
}
