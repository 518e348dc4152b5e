import type { FromAslOptions } from '../compiler/asl/types';
import type { State } from './state';
import type { IChainable, TypeWitness, Untyped } from './types';

/** A whole workflow: the chain that starts at the entry state. */
export class Definition<I = Untyped, O = Untyped> {
  declare readonly __types?: TypeWitness<I, O>;

  /** Wraps the chain (or single state) that starts the workflow. */
  static from<I, O>(chainable: IChainable<I, O>): Definition<I, O> {
    return new Definition<I, O>(chainable.startState);
  }

  /**
   * Translates an Amazon States Language document (JSONPath mode) into a
   * definition; see `fromAsl` in lib/compiler/asl for the supported states.
   */
  static fromAsl(asl: string | object, options?: FromAslOptions): Definition {
    // Loaded on use: the importer builds on this module, so a static import would be a cycle.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const importer = require('../compiler/asl') as typeof import('../compiler/asl');
    return importer.fromAsl(asl, options);
  }

  private constructor(
    /** The entry state; undefined for an empty workflow. */
    readonly startState: State | undefined,
  ) {}
}
