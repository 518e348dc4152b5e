import { Chain } from './chain';
import type { Condition } from './condition';
import { type IoProps, QueryLanguage } from './io';
import { State, type IChainable } from './state';
import type { Untyped } from './types';

/** One `when` arm of a Choice. */
export interface ChoiceArm {
  readonly condition: Condition;
  /** Start of the arm; undefined if an empty chain was given. */
  readonly next: State | undefined;
  readonly chainable: IChainable;
}

/** Options of `Choice.afterwards`. */
export interface AfterwardsOptions {
  /** Also continue from the Choice itself when no otherwise is set (the continuation becomes the otherwise). @default false */
  readonly includeOtherwise?: boolean;
}

/** Properties of a `Choice`. */
export interface ChoiceProps {
  /**
   * The language of its conditions: a JSONata Choice's rules are
   * `Condition.jsonata('{% ... %}')`, a JSONPath Choice's the other `Condition`s.
   * @default QueryLanguage.JSONPATH
   */
  readonly queryLanguage?: IoProps['queryLanguage'];
}

/**
 * Branches on conditions over its input (first match wins). Not a function:
 * the compiler folds it into its predecessor. A `when` target that is an
 * earlier state makes a loop; each iteration is a new invocation.
 */
export class Choice<I = Untyped> extends State<I, I> {
  readonly kind = 'choice' as const;
  readonly arms: ChoiceArm[] = [];
  private otherwiseValue?: { readonly next: State | undefined; readonly chainable: IChainable };
  private continueFromSelf = false;

  constructor(id: string, readonly props: ChoiceProps = {}) {
    super(id);
  }

  /** A Choice in JSONata mode (aws-cdk-lib's `Choice.jsonata`): its rules are `Condition.jsonata(...)`, over `$states.input`. */
  static jsonata<I = Untyped>(id: string): Choice<I> {
    return new Choice<I>(id, { queryLanguage: QueryLanguage.JSONATA });
  }

  /** The `otherwise` target, if set. */
  get otherwiseState(): State | undefined {
    return this.otherwiseValue?.next;
  }

  /** True when `.otherwise()` was called (even with an empty chain). */
  get hasOtherwise(): boolean {
    return this.otherwiseValue !== undefined;
  }

  get endStates(): readonly State[] {
    return [];
  }

  /** Goes to `next` when `condition` holds (arms are tried in order). */
  when(condition: Condition, next: IChainable<I, Untyped>): this {
    const start = next.startState;
    start?.addIncoming(this);
    this.arms.push({ condition, next: start, chainable: next });
    return this;
  }

  /** Goes to `next` when no arm matches. */
  otherwise(next: IChainable<I, Untyped>): this {
    if (this.otherwiseValue !== undefined) {
      this.misuses.push({ field: 'otherwise', message: `otherwise is already '${this.otherwiseValue.next?.id}'; cannot also be '${next.id}'` });
      return this;
    }
    const start = next.startState;
    start?.addIncoming(this);
    this.otherwiseValue = { next: start, chainable: next };
    return this;
  }

  /** A chain whose open ends are the open ends of every arm, to continue after the Choice. */
  afterwards<O = Untyped>(options: AfterwardsOptions = {}): Chain<I, O> {
    if (options.includeOtherwise === true && !this.hasOtherwise) this.continueFromSelf = true;
    return Chain.start<I, O>(new AfterwardsView<I, O>(this));
  }

  /** Open ends of all arms (and of the Choice itself when `afterwards({ includeOtherwise })` applies), read when used. */
  armEnds(): State[] {
    const ends = new Set<State>();
    const chainables = this.arms.map((a) => a.chainable);
    if (this.otherwiseValue) chainables.push(this.otherwiseValue.chainable);
    for (const c of chainables) for (const end of c.endStates) ends.add(end);
    if (this.continueFromSelf && !this.hasOtherwise) ends.add(this);
    return [...ends];
  }

  override connect(next: State): void {
    if (this.continueFromSelf && !this.hasOtherwise) {
      this.otherwise(next);
      return;
    }
    this.rejectNext(next);
  }

  override rejectNext(next: State): void {
    this.misuses.push({ field: 'next', message: `a Choice has no single next state (tried to continue with '${next.id}'); use .when()/.otherwise() or .afterwards().next()` });
  }
}

/**
 * `choice.next(x)` from JavaScript, where nothing stops the call (TypeScript
 * has no `next` on a Choice): without this it is a bare TypeError. It is a
 * `.next()` after the Choice, recorded like `a.next(choice).next(x)`, so the
 * compiler rejects it naming the workflow and the Choice, and saying to use
 * `.when()`/`.otherwise()` or `.afterwards().next()`.
 */
Object.defineProperty(Choice.prototype, 'next', {
  value: function next(this: Choice, following: IChainable): Chain {
    return Chain.start(this).next(following);
  },
});

/** The chainable `afterwards()` returns: starts at the Choice, ends at its arms' ends. */
class AfterwardsView<I, O> implements IChainable<I, O> {
  constructor(private readonly choice: Choice<I>) {}

  get id(): string {
    return this.choice.id;
  }

  get startState(): State {
    return this.choice;
  }

  get endStates(): readonly State[] {
    return this.choice.armEnds();
  }
}
