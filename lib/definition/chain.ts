import type { IChainable, NextOf, State } from './state';
import type { TypeWitness, Untyped } from './types';

/**
 * A sequence of states. `a.next(b).next(c)` builds a chain whose start is `a`
 * and whose open ends are `c`'s. Chains are immutable views: `.next()`
 * connects the current open ends and returns a new chain.
 */
export class Chain<I = Untyped, O = Untyped> implements IChainable<I, O> {
  declare readonly __types?: TypeWitness<I, O>;

  /** A chain starting (and for now ending) at `state`. */
  static start<I, O>(state: IChainable<I, O>): Chain<I, O> {
    return new Chain<I, O>(state.startState, Chain.lastOf(state));
  }

  /** Chains the given steps in order; `Chain.sequence()` is the empty chain. */
  static sequence(...steps: IChainable[]): Chain {
    let chain: Chain = new Chain(undefined, undefined);
    for (const step of steps) chain = chain.next(step);
    return chain;
  }

  private constructor(
    readonly startState: State | undefined,
    /** The last step appended (never itself a Chain, so that chains stay flat). */
    private readonly last: IChainable | undefined,
  ) {}

  get id(): string {
    return this.startState?.id ?? '(empty chain)';
  }

  /** The open ends of the last step, read when used: a state connected since then is no longer open. */
  get endStates(): readonly State[] {
    return this.last?.endStates ?? [];
  }

  /** Continues the chain with `next`; its input type must accept this chain's output. */
  next<O2>(next: NextOf<O, O2>): Chain<I, O2> {
    const step = next as IChainable;
    if (this.startState === undefined) return Chain.start(step);
    const nextStart = step.startState;
    if (nextStart === undefined) return this as unknown as Chain<I, O2>;
    const ends = this.endStates;
    if (ends.length === 0) this.last?.startState?.rejectNext(nextStart);
    for (const end of ends) end.connect(nextStart);
    return new Chain<I, O2>(this.startState, Chain.lastOf(step));
  }

  private static lastOf(step: IChainable): IChainable | undefined {
    return step instanceof Chain ? step.last : step;
  }
}
