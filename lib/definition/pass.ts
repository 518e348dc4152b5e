import { type IoProps, type JsonataProps, QueryLanguage } from './io';
import { NextableState } from './nextable';
import type { Untyped } from './types';

/** Properties of a `Pass`. */
export interface PassProps<O = Untyped> extends IoProps {
  /** A fixed result (JSON). @default the (processed) input */
  readonly result?: O;
}

/** Transforms its input with the io fields and/or a fixed result; runs no user code. */
export class Pass<I = Untyped, O = I> extends NextableState<I, O> {
  readonly kind = 'pass' as const;

  constructor(id: string, readonly props: PassProps<O> = {}) {
    super(id);
  }

  /** A Pass state in JSONata mode (aws-cdk-lib's `Pass.jsonata`): its output is `outputs`, `{% %}` strings evaluated over `$states.input`. */
  static jsonata<I = Untyped, O = I>(id: string, props: Omit<JsonataProps<PassProps<O>>, 'result' | 'arguments'> = {}): Pass<I, O> {
    return new Pass<I, O>(id, { ...props, queryLanguage: QueryLanguage.JSONATA });
  }
}
