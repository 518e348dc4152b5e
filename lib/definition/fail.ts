import { type IoProps, QueryLanguage } from './io';
import { State } from './state';
import type { Untyped } from './types';

/** Properties of a `Fail`. */
export interface FailProps {
  /** Error name recorded on the run. Not with `errorPath`. @default the state's name */
  readonly error?: string;
  /**
   * The error name read from the state's input (ASL `ErrorPath`): a path
   * (`$.reason.code`, `$$.Execution.Id`) or an intrinsic function call
   * (`States.Format('Declined: {}', $.code)`) that gives a string; any other
   * value fails the run with States.Runtime. Not with `error`. @default none
   */
  readonly errorPath?: string;
  /** Human-readable cause. Not with `causePath`. @default none */
  readonly cause?: string;
  /** The cause read from the state's input (ASL `CausePath`), as `errorPath`. Not with `cause`. @default none */
  readonly causePath?: string;
  /** JSONata: `error` and `cause` may be `{% %}` expressions over `$states.input` that give strings; no paths. @default QueryLanguage.JSONPATH */
  readonly queryLanguage?: IoProps['queryLanguage'];
}

/** Fails the whole run. Not a function: the compiler folds it into its predecessor. */
export class Fail extends State<Untyped, never> {
  readonly kind = 'fail' as const;

  constructor(id: string, readonly props: FailProps = {}) {
    super(id);
  }

  /** A Fail state in JSONata mode (aws-cdk-lib's `Fail.jsonata`): `error` and `cause` are strings or `{% %}` expressions. */
  static jsonata(id: string, props: Pick<FailProps, 'error' | 'cause'> = {}): Fail {
    return new Fail(id, { ...props, queryLanguage: QueryLanguage.JSONATA });
  }

  get endStates(): readonly State[] {
    return [];
  }
}
