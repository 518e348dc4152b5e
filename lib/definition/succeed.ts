import { State } from './state';
import type { Untyped } from './types';

/**
 * Ends the workflow successfully with its input as the result (inside a
 * Parallel branch or a Map item: ends that branch). Not a function: the
 * compiler folds it into its predecessor.
 */
export class Succeed<I = Untyped> extends State<I, never> {
  readonly kind = 'succeed' as const;

  get endStates(): readonly State[] {
    return [];
  }
}
