import type { IChainable, State } from './state';
import type { TypeWitness, Untyped } from './types';

/** A whole workflow: the chain that starts at the entry state. */
export class Definition<I = Untyped, O = Untyped> {
  declare readonly __types?: TypeWitness<I, O>;

  /** Wraps the chain (or single state) that starts the workflow. */
  static from<I, O>(chainable: IChainable<I, O>): Definition<I, O> {
    return new Definition<I, O>(chainable.startState);
  }

  private constructor(
    /** The entry state; undefined for an empty workflow. */
    readonly startState: State | undefined,
  ) {}
}
