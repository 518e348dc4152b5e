import { State } from './state';
import type { Untyped } from './types';

/** Properties of a `Fail`. */
export interface FailProps {
  /** Error name recorded on the run. @default the state's name */
  readonly error?: string;
  /** Human-readable cause. @default none */
  readonly cause?: string;
}

/** Fails the whole run. Not a function: the compiler folds it into its predecessor. */
export class Fail extends State<Untyped, never> {
  readonly kind = 'fail' as const;

  constructor(id: string, readonly props: FailProps = {}) {
    super(id);
  }

  get endStates(): readonly State[] {
    return [];
  }
}
