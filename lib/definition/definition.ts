import type { IChainable, State } from './state';
import type { TypeWitness, Untyped } from './types';

/** A whole workflow: the chain that starts at the entry state. */
export class Definition<I = Untyped, O = Untyped> {
  declare readonly __types?: TypeWitness<I, O>;

  /** Wraps the chain (or single state) that starts the workflow. */
  static from<I, O>(chainable: IChainable<I, O>): Definition<I, O> {
    return new Definition<I, O>(chainable.startState);
  }

  /**
   * The ASL importer's `from`: also the name each state has in the source
   * document, by state id, where it differs from the id, and the document's
   * run timeout. A member of its own, so that stripping it from the shipped
   * declarations leaves `from` there.
   * @internal
   */
  static fromDocument<I, O>(chainable: IChainable<I, O>, stateNames: ReadonlyMap<string, string>, runTimeoutSeconds?: number): Definition<I, O> {
    return new Definition<I, O>(chainable.startState, stateNames, runTimeoutSeconds);
  }

  private constructor(
    /** The entry state; undefined for an empty workflow. */
    readonly startState: State | undefined,
    /** @internal States named otherwise in the source document (state id -> name), e.g. ASL names with spaces. */
    readonly stateNames?: ReadonlyMap<string, string>,
    /** @internal The source document's run timeout (ASL top-level `TimeoutSeconds`); the construct's `timeout` overrides it. */
    readonly runTimeoutSeconds?: number,
  ) {}
}
