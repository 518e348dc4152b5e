import * as path from 'path';
import { Choice, Condition, Definition, Task } from '../../lib/definition';
import type * as h from './handlers';

const entry = path.join(__dirname, 'handlers.ts');

/** step -> choice (n > 1: back to step; otherwise finish): a loop, one invocation per iteration. */
export function collatz(): Definition<h.CollatzState, h.CollatzResult> {
  const step = new Task<h.CollatzState, Required<h.CollatzState>>('Step', { entry, handler: 'step' });
  const finish = new Task<Required<h.CollatzState>, h.CollatzResult>('Finish', { entry, handler: 'finish' });
  const again = new Choice<Required<h.CollatzState>>('Again').when(Condition.numberGreaterThan('$.n', 1), step).otherwise(finish);
  return Definition.from(step.next(again));
}
