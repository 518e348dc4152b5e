import type { Untyped } from './types';
import type { IChainable, State } from './state';
import type { CatchProps, FunctionProps, RetryProps } from './function-props';
import { NextableState } from './nextable';

/** A catch rule as recorded on a state: the handler's start state plus the options. */
export interface CatchEntry {
  readonly handler: State | undefined;
  readonly props: CatchProps;
}

/** A state that runs in its own Lambda function with user code (Task, Fold). */
export abstract class FunctionState<I = Untyped, O = Untyped> extends NextableState<I, O> {
  readonly retries: RetryProps[] = [];
  readonly catches: CatchEntry[] = [];

  constructor(id: string, readonly functionProps: FunctionProps) {
    super(id);
  }

  /** Retries the handler on the given errors (rules are tried in order). */
  addRetry(props: RetryProps = {}): this {
    this.retries.push(props);
    return this;
  }

  /** Routes the given errors to `handler` (first matching rule wins; retries run first). */
  addCatch(handler: IChainable, props: CatchProps = {}): this {
    const start = handler.startState;
    start?.addIncoming(this);
    this.catches.push({ handler: start, props });
    return this;
  }
}
