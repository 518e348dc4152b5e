import type { FunctionProps } from './function-props';
import { FunctionState } from './function-state';
import type { IoProps } from './io';
import type { Untyped } from './types';

/** Properties of a `Task`. */
export interface TaskProps<O = Untyped> extends FunctionProps, IoProps {
  /**
   * An example of the handler's output, used only at compile time, e.g. to
   * check that a following Map's `itemsPath` selects an array.
   * @default no example; such checks are skipped
   */
  readonly outputExample?: O;
}

/**
 * One Lambda function running the export `handler` of `entry`.
 * `new Task<{ url: string }, { bytes: number }>('Fetch', { entry, handler: 'fetch' })`.
 */
export class Task<I = Untyped, O = Untyped> extends FunctionState<I, O> {
  readonly kind = 'task' as const;

  constructor(id: string, readonly props: TaskProps<O>) {
    super(id, props);
  }
}
