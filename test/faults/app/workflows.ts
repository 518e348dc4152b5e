/**
 * The small workflows of the crash-point enumeration: a 3-step chain, a
 * 3-way parallel with fan-in, a map of 5 with fan-in, a nested map, a choice
 * and a loop; and a run that fails (Lambda's retries, then the failure recorder).
 */
import * as path from 'path';
import { Choice, Condition, Definition, Map, Parallel, Task } from '../../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');
const task = (id: string, handler: string): Task => new Task(id, { entry, handler });

export function chain3(): Definition {
  return Definition.from(task('A', 'chainA').next(task('B', 'chainB')).next(task('C', 'chainC')));
}

export function parallel3(): Definition {
  const fan = new Parallel('Fan').branch(task('Times1', 'times1'), task('Times2', 'times2'), task('Times3', 'times3'));
  return Definition.from(task('Start', 'start').next(fan).next(task('Sum', 'sum')));
}

export function map5(): Definition {
  const map = new Map('Squares', { itemsPath: '$.items' }).itemProcessor(task('Square', 'square'));
  return Definition.from(task('Items', 'items').next(map).next(task('Total', 'total')));
}

export function nestedMap(): Definition {
  const inner = new Map('Inner', { itemsPath: '$.items' }).itemProcessor(task('Inc', 'inc'));
  const outer = new Map('Outer', { itemsPath: '$.groups' }).itemProcessor(inner.next(task('GroupSum', 'groupSum')));
  return Definition.from(task('Groups', 'groups').next(outer).next(task('GrandTotal', 'grandTotal')));
}

export function choice(): Definition {
  const pick = new Choice('Size').when(Condition.numberGreaterThan('$.size', 10), task('Big', 'big')).otherwise(task('Small', 'small'));
  return Definition.from(task('Classify', 'classify').next(pick));
}

export function loop(): Definition {
  const step = task('Step', 'step');
  const again = new Choice('Again').when(Condition.numberGreaterThan('$.n', 0), step).otherwise(task('Done', 'done'));
  return Definition.from(step.next(again));
}

export function fails(): Definition {
  return Definition.from(task('Prepare', 'start').next(task('Boom', 'boom')));
}
