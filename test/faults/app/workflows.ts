/**
 * The small workflows of the crash-point enumeration: a 3-step chain, a
 * 3-way parallel with fan-in, a map of 5 with fan-in, a nested map, a choice
 * and a loop; and a run that fails (Lambda's retries, then the failure recorder).
 */
import * as path from 'path';
import { Duration } from 'aws-cdk-lib';
import { Choice, Condition, Definition, type EffectsTable, Fold, IntegrationPattern, Map, Parallel, Pass, Task, Wait, WaitTime } from '../../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');
const task = (id: string, handler: string): Task => new Task(id, { entry, handler });

export function chain3(): Definition {
  return Definition.from(task('A', 'chainA').next(task('B', 'chainB')).next(task('C', 'chainC')));
}

export function parallel3(): Definition {
  const fan = new Parallel('Fan').branch(task('Times1', 'times1'), task('Times2', 'times2'), task('Times3', 'times3'));
  return Definition.from(task('Start', 'start').next(fan).next(task('Sum', 'sum')));
}

/** A bounded Map: at most 2 of its 5 items run at once (the checker's invariant 6). */
export function map5(): Definition {
  const map = new Map('Squares', { itemsPath: '$.items', maxConcurrency: 2 }).itemProcessor(task('Square', 'square'));
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

/**
 * The shapes the adversarial trial of issue 14 added: a Map inside a Parallel
 * branch, a loop around a Parallel, a Fold after a nested Map, a catch inside
 * a Map's items, Maps of 0 and 1 item, a Parallel of 1 branch, a workflow
 * ending in a Map.
 */
export function mapInParallel(): Definition {
  const incs = new Map('IncEach', { itemsPath: '$.items' }).itemProcessor(task('IncItem', 'inc'));
  const both = new Parallel('Both').branch(incs, task('Double', 'double'));
  return Definition.from(task('Split', 'same').next(both).next(task('Combine', 'combine')));
}

export function parallelLoop(): Definition {
  const round = new Parallel('Round').branch(task('Dec', 'dec'), task('Add', 'add'));
  const again = new Choice('More').when(Condition.numberGreaterThan('$.n', 0), round).otherwise(task('Finish', 'done'));
  return Definition.from(task('Init', 'init').next(round).next(task('Merge', 'merge')).next(again));
}

export function foldAfterNestedMap(): Definition {
  const inner = new Map('Inner', { itemsPath: '$.items' }).itemProcessor(task('Inc', 'inc'));
  const outer = new Map('Outer', { itemsPath: '$.groups' }).itemProcessor(inner.next(task('GroupSum', 'groupSum')));
  const fold = new Fold('AddUp', { entry, handler: 'addUp', initial: { total: 0, order: [] } });
  return Definition.from(task('Groups', 'groups').next(outer).next(fold));
}

export function catchInMap(): Definition {
  const risky = task('Risky', 'risky').addCatch(task('Recover', 'recover'), { errors: ['OddItem'], resultPath: '$.error' });
  const each = new Map('Each', { itemsPath: '$.items' }).itemProcessor(risky);
  return Definition.from(task('Numbered', 'numbered').next(each).next(task('Tally', 'tally')));
}

export function edgeMaps(): Definition {
  const none = new Map('None', { itemsPath: '$.none' }).itemProcessor(task('IncNone', 'inc'));
  const one = new Map('One', { itemsPath: '$.one', itemSelector: { 'value.$': '$$.Map.Item.Value', 'none.$': '$.none' } }).itemProcessor(task('IncOne', 'incWith'));
  return Definition.from(task('Empty', 'empty').next(none).next(task('OneMore', 'oneMore')).next(one).next(task('Same', 'same')));
}

/**
 * Retry and Catch on a Map (issue 15): odd items fail, the Map runs again
 * once, then its Catch routes the error; even items' second steps stop once
 * the state failed, and a crash Lambda gives up on inside fails the state.
 */
export function stateRules(): Definition {
  const checks = new Map('Checks', { itemsPath: '$.items' })
    .itemProcessor(task('Risky', 'risky').next(task('After', 'same')))
    .addRetry({ errors: ['OddItem'], maxAttempts: 1, intervalSeconds: 1 })
    .addCatch(task('Report', 'report'), { resultPath: '$.failure' });
  return Definition.from(task('Numbered', 'numbered').next(checks));
}

export function parallel1(): Definition {
  const only = new Parallel('Only').branch(task('Twice', 'times2'));
  return Definition.from(task('Start', 'start').next(only).next(task('Sum', 'sum')));
}

export function endsInMap(): Definition {
  return Definition.from(task('Items', 'items').next(new Map('IncAll', { itemsPath: '$.items' }).itemProcessor(task('Inc', 'inc'))));
}

/**
 * Two Maps above the launch width (the app sets `mapLaunchWidth: 2`): 9
 * items through a launch tree three launchers deep, then a bounded Map whose
 * first 3 items go through launchers and whose tails launch the rest.
 */
export function launchTree(): Definition {
  const all = new Map('IncAll', { itemsPath: '$.items' }).itemProcessor(task('IncA', 'inc'));
  const bounded = new Map('IncBounded', { maxConcurrency: 3 }).itemProcessor(task('IncB', 'inc'));
  return Definition.from(task('Items', 'items').next(all).next(bounded).next(task('Sum', 'groupSum')));
}

/**
 * Waits (issue 18): an hour's wait between two steps, then a Map whose items
 * each start with a minute's wait, so the node before a Wait (Items, and
 * each item's `.Enter`) schedules its successor's invocation.
 */
export function waits(): Definition {
  const each = new Map('EachWaits', { itemsPath: '$.items' }).itemProcessor(new Wait('ItemWait', { time: WaitTime.duration(60) }).next(task('IncWaited', 'inc')));
  return Definition.from(task('Items', 'items').next(new Wait('Hour', { time: WaitTime.duration(3600) })).next(each).next(task('SumWaited', 'groupSum')));
}

/** The Orders example (examples/orders) with plain writes in PlaceOrder (plain-orders.ts): invariant 7's negative control. */
export function plainOrders(ledger: EffectsTable): Definition {
  const plain = path.join(__dirname, 'plain-orders.ts');
  const place = new Task('PlaceOrder', { entry: plain, handler: 'placeOrder', environment: { LEDGER_TABLE: ledger.tableName }, effects: { tables: [ledger] } });
  return Definition.from(new Task('Price', { entry: plain, handler: 'price' }).next(place).next(new Task('Confirm', { entry: plain, handler: 'confirm' })));
}

/**
 * Run control (issue 18): a stop request races this run to its end
 * (`RUN_CONTROL_TARGETS`): a parallel between two chain steps, so the stop
 * may land before, inside or after the fan-out.
 */
export function stopRace(): Definition {
  const fan = new Parallel('RaceFan').branch(task('RaceTimes1', 'times1'), task('RaceTimes2', 'times2'), task('RaceTimes3', 'times3'));
  return Definition.from(task('RaceStart', 'start').next(fan).next(task('RaceSum', 'sum')));
}

/**
 * Run control (issue 18): a six hours' wait in a run whose timeout is ten
 * minutes (set in app.ts): it ends TIMED_OUT. The engine scales waits and
 * Lambda's retry delays (0.0005 here) but not the functions' clocks, so its
 * run ends TIMED_OUT only through the recorder's schedule, and the Wait must
 * outlast the recorder's retry after a crash, a cold start on a loaded
 * machine included: an hour (1.8 s here) did not at a load average of 26
 * (seed 1035 of the extended campaign ended SUCCEEDED). On Lambda, where the
 * clocks run, the wake-up would find the deadline passed itself.
 */
export function timesOut(): Definition {
  return Definition.from(task('Early', 'start').next(new Wait('LongWait', { time: WaitTime.duration(6 * 3600) })).next(task('Late', 'start')));
}

/**
 * Run control (issue 18): a callback Task whose token is completed twice at
 * once and once late, racing its one-minute timeout, which a Catch turns into
 * the run's result (`RUN_CONTROL_TARGETS`).
 */
export function callbackRace(): Definition {
  const ask = new Task('AskRace', { entry, handler: 'ask', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, timeout: Duration.minutes(1), resultPath: '$.approval' });
  return Definition.from(ask.addCatch(new Pass('NoAnswer', { result: { timedOut: true } }), { errors: ['States.Timeout'] }).next(task('AfterAsk', 'start')));
}

/**
 * A callback Task whose sent failure `Declined` its Retry rule retries once (the Task runs again with a new
 * token); a timeout of either attempt is caught (issue 18: callback retries, in the campaign by `CallbackRetry`).
 */
export function callbackRetry(): Definition {
  const ask = new Task('AskTwice', { entry, handler: 'ask', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, timeout: Duration.minutes(1), resultPath: '$.approval' });
  const rules = ask.addRetry({ errors: ['Declined'], maxAttempts: 1, intervalSeconds: 1 }).addCatch(new Pass('NoSecondAnswer', { result: { timedOut: true } }), { errors: ['States.Timeout'] });
  return Definition.from(rules.next(task('AfterRetry', 'start')));
}

/** Run control (issue 18): Flaky fails the run until its fix exists; the campaign then redrives it (`RUN_CONTROL_TARGETS`). */
export function redriveAfterFailure(): Definition {
  return Definition.from(task('BeforeFlaky', 'chainB').next(task('Flaky', 'flaky')).next(task('AfterFlaky', 'start')));
}

/**
 * Run control (issue 18): a Parallel whose Catch rule does not match its FlakyBranch's error fails the run until
 * the fix exists; the campaign then redrives it, and the state runs again as its next attempt (`RUN_CONTROL_TARGETS`).
 */
export function redriveStateFailure(): Definition {
  const state = new Parallel('FlakyState').branch(task('SteadyBranch', 'start'), task('FlakyBranch', 'flaky')).addCatch(new Pass('NeverCaught'), { errors: ['NotThrown'] });
  return Definition.from(task('BeforeState', 'start').next(state).next(task('AfterState', 'same')));
}
