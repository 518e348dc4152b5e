import type { TypeWitness, StateKind, Untyped } from './types';

/**
 * Anything that can be chained: a single state or a `Chain` of states.
 * `I` is the input the first state accepts, `O` the output of the last.
 */
export interface IChainable<I = Untyped, O = Untyped> {
  /** Descriptive id (the state name for a state, the first state's name for a chain). */
  readonly id: string;
  /** The state that runs first; undefined only for an empty chain. */
  readonly startState: State | undefined;
  /** States whose `next` is still open: `.next()` connects these. */
  readonly endStates: readonly State[];
  /** Phantom type carrier; never present at run time. */
  readonly __types?: TypeWitness<I, O>;
}

/** The parameter type of `.next()`: a terminal chain (output `never`) accepts nothing. */
export type NextOf<O, O2> = [O] extends [never] ? never : IChainable<O, O2>;

/** A definition problem found while building the graph, reported by the compiler with the workflow name. */
export interface Misuse {
  readonly field: string;
  readonly message: string;
}

/**
 * Base of every state. States are plain objects named by `id` (no construct
 * scope): the compiler walks them to build the graph. Structural mistakes made
 * through the fluent API (a second `.next()`, `.next()` after a terminal state)
 * are recorded in `misuses` rather than thrown, so that the compiler can report
 * them naming the workflow, the node and the field.
 */
export abstract class State<I = Untyped, O = Untyped> implements IChainable<I, O> {
  declare readonly __types?: TypeWitness<I, O>;
  abstract readonly kind: StateKind;
  /** States that transition to this one (used to find unreachable states). */
  readonly incoming: State[] = [];
  readonly misuses: Misuse[] = [];

  constructor(readonly id: string) {}

  get startState(): State {
    return this;
  }

  abstract get endStates(): readonly State[];

  /** Connects this state's open `next` to `next`; called by `Chain.next` on the chain's open ends. */
  connect(next: State): void {
    this.rejectNext(next);
  }

  /** Records a `.next()` that cannot apply because this state ends its chain (Succeed, Fail, Choice). */
  rejectNext(next: State): void {
    this.misuses.push({ field: 'next', message: `a ${this.kind} state has no next state (tried to continue with '${next.id}')` });
  }

  /** Records that `from` transitions to this state. */
  addIncoming(from: State): void {
    this.incoming.push(from);
  }
}
