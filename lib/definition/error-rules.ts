import type { CatchProps, RetryProps } from './function-props';
import { NextableState } from './nextable';
import type { IChainable, State } from './state';
import type { Untyped } from './types';

/** A catch rule as recorded on a state: the handler's start state plus the options. */
export interface CatchEntry {
  readonly handler: State | undefined;
  readonly props: CatchProps;
}

/**
 * A state with Retry and Catch rules, as in Step Functions: a Task or Fold
 * (the rules apply to its handler) and a Parallel or Map (they apply to the
 * state as a whole: a branch error no rule inside handles fails it).
 */
export abstract class ErrorRulesState<I = Untyped, O = Untyped> extends NextableState<I, O> {
  readonly retries: RetryProps[] = [];
  readonly catches: CatchEntry[] = [];

  /** Retries on the given errors (rules are tried in order; each counts its own attempts). */
  addRetry(props: RetryProps = {}): this {
    this.retries.push(props);
    return this;
  }

  /** Routes the given errors to `handler` with `{ Error, Cause }` (first matching rule wins; retries run first). */
  addCatch(handler: IChainable, props: CatchProps = {}): this {
    const start = handler.startState;
    start?.addIncoming(this);
    this.catches.push({ handler: start, props });
    return this;
  }
}
