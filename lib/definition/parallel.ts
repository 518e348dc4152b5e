import { type IoProps, type JsonataProps, QueryLanguage } from './io';
import { ErrorRulesState } from './error-rules';
import type { IChainable, State } from './state';
import type { Untyped } from './types';

/** Properties of a `Parallel`. */
export type ParallelProps = IoProps;

/**
 * Runs every branch on the same input, then continues with the array of the
 * branch outputs, in branch order (the next state is the fan-in join), placed
 * by the output processing (`resultSelector`, `resultPath`, `outputPath`) as
 * in Step Functions. `R` is the branch outputs' array type, e.g.
 * `Parallel<In, [A, B]>`; `O` the state's output, when the output processing
 * makes another, e.g. `Parallel<In, [A, B], { a: A; b: B }>` with a
 * `resultSelector` building that object. `addRetry` / `addCatch` apply to
 * the whole state: a branch error no rule inside handles fails it once, and
 * a Retry runs every branch again.
 */
export class Parallel<I = Untyped, R extends readonly unknown[] = Untyped[], O = R> extends ErrorRulesState<I, O> {
  readonly kind = 'parallel' as const;
  /** Start state of each branch (undefined for an empty chain). */
  readonly branches: (State | undefined)[] = [];

  constructor(id: string, readonly props: ParallelProps = {}) {
    super(id);
  }

  /** A Parallel in JSONata mode (aws-cdk-lib's `Parallel.jsonata`): `arguments` (the branches' input) and `outputs` (over `$states.result`, the branch outputs). */
  static jsonata<I = Untyped, R extends readonly unknown[] = Untyped[], O = R>(id: string, props: JsonataProps<ParallelProps> = {}): Parallel<I, R, O> {
    return new Parallel<I, R, O>(id, { ...props, queryLanguage: QueryLanguage.JSONATA });
  }

  /** Adds branches; each accepts this state's input. */
  branch(...branches: IChainable<I, R[number]>[]): this {
    for (const b of branches) {
      this.branches.push(b.startState);
      b.startState?.addIncoming(this);
    }
    return this;
  }
}
