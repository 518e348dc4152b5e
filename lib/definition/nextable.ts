import { Chain } from './chain';
import { State, type NextOf } from './state';
import type { Untyped } from './types';

/** A state with at most one next state (Task, Pass, Fold, Parallel, Map). */
export abstract class NextableState<I = Untyped, O = Untyped> extends State<I, O> {
  private nextStateValue?: State;

  /** The state that follows, if any; none means the end of the workflow or branch. */
  get nextState(): State | undefined {
    return this.nextStateValue;
  }

  /** Open while no next state is set (so a Choice arm that loops back adds no open end to `afterwards()`). */
  get endStates(): readonly State[] {
    return this.nextStateValue === undefined ? [this] : [];
  }

  override connect(next: State): void {
    if (this.nextStateValue !== undefined) {
      this.rejectNext(next);
      return;
    }
    this.nextStateValue = next;
    next.addIncoming(this);
  }

  override rejectNext(next: State): void {
    if (this.nextStateValue === undefined) super.rejectNext(next);
    else this.misuses.push({ field: 'next', message: `already continues with '${this.nextStateValue.id}'; cannot also continue with '${next.id}'` });
  }

  /** Continues with `next`, whose input type must accept this state's output. */
  next<O2>(next: NextOf<O, O2>): Chain<I, O2> {
    return Chain.start<I, O>(this).next(next);
  }
}
