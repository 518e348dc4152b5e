/**
 * Redrive (issue 18 part 4) on DynamoDB Local: a FAILED run goes on from the
 * invocations parked in it, with their committed inputs, reusing every
 * committed step; in-flight branches that found the run FAILED park too; a
 * run that is not FAILED, or failed where a redrive would fail again, is
 * refused; a failure of an event a redrive re-sent since is stale.
 */
import { type CompileOptions, compileWorkflow } from '../../lib/compiler';
import { RedriveRefusal, redriveRun, type RedriveDeps } from '../../runtime/control/redrive';
import { redrivenTimeoutSchedule } from '../../runtime/control/redriven-timeout';
import type { Scheduler } from '../../runtime/ports/scheduler';
import { ControlTable } from '../../runtime/control/control-table';
import { Definition, Fail, type IChainable, Map, Parallel, Task, Wait, WaitTime } from '../../lib/definition';
import { invocationName } from '../../runtime/contract/naming';
import type { CheckpointStore } from '../../runtime/ports/store';
import { checkpointKey, decodeParked, decodeRunRecord, keyItem, parkKey, type RunRef } from '../../runtime/contract/table';
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { useTestDb } from '../support/dynamodb';
import { Driver, fromCompiled, RECORDER_FUNCTION } from '../support/harness';

const db = useTestDb();

const ENTRY = '/project/redrive.ts';
const task = (name: string, handler: string): Task => new Task(name, { entry: ENTRY, handler });

/** An error no retry changes: the run is FAILED at once, by the execution itself. */
const terminal = (): Error => Object.assign(new Error('bad data'), { name: 'States.Runtime' });

/** Handlers counting their calls; `failing[name]` makes that many calls of `name` throw `error()`. */
function handlers(fns: Record<string, (x: never) => unknown>, failing: Record<string, number>, error: () => Error) {
  const calls: Record<string, number> = {};
  const module = Object.fromEntries(
    Object.entries(fns).map(([k, fn]) => [
      k,
      (x: never) => {
        calls[k] = (calls[k] ?? 0) + 1;
        if ((failing[k] ?? 0) > 0) {
          failing[k]--;
          throw error();
        }
        return fn(x);
      },
    ]),
  );
  return { calls, module };
}

async function setUp(workflow: string, definition: IChainable, module: Record<string, unknown>, wrap = (store: CheckpointStore) => store, options: CompileOptions = {}) {
  const { name, store } = await db.table();
  const d = new Driver(wrap(store), fromCompiled(compileWorkflow(workflow, Definition.from(definition), options), module));
  // The run-control function's redrive, invoking through the driver's queue (its functions by name; the recorder parks ARNs, which Lambda takes too).
  const invoke = async (fn: string, event: string): Promise<void> => d.invoker.invoke(fn.split(':')[6] ?? fn, JSON.parse(event));
  // No deployment records: every run redrives on its own deployment (the tests of redrive to the latest one are test/client/redrive-deployment.int.test.ts).
  const deployments = { latest: async () => undefined, graphOf: async () => undefined };
  const scheduleTimeout: RedriveDeps['scheduleTimeout'] = async (r, t) => (d.scheduler as Scheduler).schedule(redrivenTimeoutSchedule(r, t, RECORDER_FUNCTION));
  const deps: RedriveDeps = { table: new ControlTable(name, db.client), invoke, deployments, scheduleTimeout };
  const run: RunRef = { workflow, workflowId: 'r' };
  const record = async () => decodeRunRecord((await db.run(name, 'r'))!);
  return { d, deps, run, record, name };
}

/** Start, then a Parallel of Fast -> Fast2 and Bad (which fails with a terminal error once), then Join. */
async function parallelWithFailingBranch(workflow: string) {
  const h = handlers({ fast: (x: number) => x + 1, fast2: (x: number) => x * 2, bad: (x: number) => -x, a: (x: number) => x, join: (x: number[]) => x }, { bad: 1 }, terminal);
  const p = new Parallel('P').branch(task('Fast', 'fast').next(task('Fast2', 'fast2')), task('Bad', 'bad'));
  return { h, ...(await setUp(workflow, task('Start', 'a').next(p).next(task('Join', 'join')), h.module)) };
}

/**
 * Runs the Parallel until Fast has sent Fast2 (held in flight), then lets Bad
 * fail the run: Bad is held until then, since a Fast that ran after the run
 * FAILED would park itself instead of sending Fast2.
 */
async function failWithFast2InFlight(d: Driver, options: { deliveries?: number } = {}): Promise<void> {
  await d.run({ workflowId: 'r', input: 5 }, { ...options, hold: (x) => x.functionName === 'fn-Fast2' || x.functionName === 'fn-Bad' });
  const bad = d.held.filter((x) => x.functionName === 'fn-Bad');
  d.held.splice(0, d.held.length, ...d.held.filter((x) => x.functionName !== 'fn-Bad'));
  d.invoker.queue.push(...bad);
  await d.drain({ ...options, hold: (x) => x.functionName === 'fn-Fast2' });
}

const chain = () => task('A', 'a').next(task('B', 'b')).next(task('C', 'c'));
const chainFns = { a: (x: number) => x + 1, b: (x: number) => x * 10, c: (x: number) => ({ out: x }) };

test('a chain whose middle step failed goes on from it: the committed step is reused, the run succeeds, a second redrive is refused', async () => {
  const h = handlers(chainFns, { b: 1 }, terminal);
  const { d, deps, run, record } = await setUp('redrive-chain', chain(), h.module);
  await d.run({ workflowId: 'r', input: 1 });
  expect(await record()).toMatchObject({ status: 'FAILED', error: { node: 'B', error: 'States.Runtime' } });
  expect(await redriveRun(deps, run, { workflowId: 'r' })).toEqual({ workflowId: 'r', redriveCount: 1, resumed: 1 });
  await d.drain();
  const after = await record();
  expect(after).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}', redriveCount: 1 });
  expect(after.error).toBeUndefined();
  expect(h.calls).toEqual({ a: 1, b: 2, c: 1 });
  await expect(redriveRun(deps, run, { workflowId: 'r' })).rejects.toThrow(RedriveRefusal);
  await expect(redriveRun(deps, run, { workflowId: 'r' })).rejects.toThrow(/SUCCEEDED/);
});

test('two concurrent redrives resume the run once', async () => {
  const h = handlers(chainFns, { b: 1 }, terminal);
  const { d, deps, run, record } = await setUp('redrive-twice', chain(), h.module);
  await d.run({ workflowId: 'r', input: 2 });
  const outcomes = await Promise.allSettled([redriveRun(deps, run, { workflowId: 'r' }), redriveRun(deps, run, { workflowId: 'r' })]);
  const rejected = outcomes.filter((o) => o.status === 'rejected');
  for (const o of rejected) expect((o as PromiseRejectedResult).reason).toBeInstanceOf(RedriveRefusal);
  expect(rejected.length).toBeLessThan(2);
  await d.drain();
  expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '{"out":30}', redriveCount: 1 });
  expect(h.calls.a).toBe(1);
});

test('a failure Lambda gave up on (the failure recorder recorded it) is redriven', async () => {
  const h = handlers(chainFns, { b: 3 }, () => new Error('flaky'));
  const { d, deps, run, record } = await setUp('redrive-recorded', chain(), h.module);
  await d.run({ workflowId: 'r', input: 1 });
  expect(d.failures).toHaveLength(1);
  expect(await record()).toMatchObject({ status: 'FAILED', error: { node: 'B', error: 'Error' } });
  expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 1 });
  await d.drain();
  expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}' });
  expect(h.calls).toEqual({ a: 1, b: 4, c: 1 });
});

test('a failed entry (its start request parked) runs again', async () => {
  const h = handlers(chainFns, { a: 1 }, terminal);
  const { d, deps, run, record } = await setUp('redrive-entry', chain(), h.module);
  await d.run({ workflowId: 'r', input: 1 });
  expect(await record()).toMatchObject({ status: 'FAILED', error: { node: 'A' } });
  expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ resumed: 1 });
  await d.drain();
  expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}', redriveCount: 1 });
  expect(h.calls).toEqual({ a: 2, b: 1, c: 1 });
});

test('a branch in flight when another failed the run parks too: the redrive completes both, the join gets each once', async () => {
  const { h, d, deps, run, record } = await parallelWithFailingBranch('redrive-parallel');
  // Fast2 is in flight (held) while Bad fails the run.
  await failWithFast2InFlight(d);
  expect(await record()).toMatchObject({ status: 'FAILED', error: { node: 'Bad' } });
  expect(d.held).toHaveLength(1);
  await d.deliver(d.held[0].functionName, d.held[0].event);
  // Fast2's user code ran and committed before its read (beside the commit) found the run FAILED: it parked.
  expect(h.calls.fast2).toBe(1);
  expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 2 });
  await d.drain();
  expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[12,-5]' });
  // The redrive re-sent Fast2: its handler ran again, its put found the checkpoint, and the join got that value once.
  expect(h.calls).toEqual({ a: 1, fast: 1, fast2: 2, bad: 2, join: 1 });
});

test('a run that failed at a Fail state is refused: a redrive would fail there again', async () => {
  const h = handlers({ a: (x: number) => x }, {}, terminal);
  const { d, deps, run, record } = await setUp('redrive-fail-state', task('A', 'a').next(new Fail('Stop', { error: 'Nope', cause: 'by design' })), h.module);
  await d.run({ workflowId: 'r', input: 1 });
  expect((await record()).status).toBe('FAILED');
  await expect(redriveRun(deps, run, { workflowId: 'r' })).rejects.toThrow(/Fail state Stop/);
});

test('a run with no record, or RUNNING, is refused and nothing is written', async () => {
  const h = handlers(chainFns, {}, terminal);
  const { d, deps, run, record } = await setUp('redrive-none', chain(), h.module);
  await expect(redriveRun(deps, run, { workflowId: 'r' })).rejects.toThrow(/NOT_FOUND/);
  await d.run({ workflowId: 'r', input: 1 }, { hold: (x) => x.functionName === 'fn-B' });
  const running = await record();
  expect(running.status).toBe('RUNNING');
  await expect(redriveRun(deps, run, { workflowId: 'r' })).rejects.toThrow(/\(RUNNING\) cannot be redriven/);
  expect(await record()).toEqual(running);
});

test('a redrive interrupted before its invokes (RUNNING, its set left) is finished by the next call', async () => {
  const h = handlers(chainFns, { b: 1 }, terminal);
  const { d, deps, run, record } = await setUp('redrive-interrupted', chain(), h.module);
  await d.run({ workflowId: 'r', input: 1 });
  await expect(redriveRun({ ...deps, invoke: async () => { throw new Error('Lambda unreachable'); } }, run, { workflowId: 'r' })).rejects.toThrow('Lambda unreachable');
  expect(await record()).toMatchObject({ status: 'RUNNING', redriveCount: 1 });
  expect(await redriveRun(deps, run, { workflowId: 'r' })).toEqual({ workflowId: 'r', redriveCount: 1, resumed: 1 });
  await d.drain();
  expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}', redriveCount: 1 });
  // Finished: the set is gone, so a RUNNING or finished run is refused again.
  await expect(redriveRun(deps, run, { workflowId: 'r' })).rejects.toThrow(/SUCCEEDED/);
});

test('under duplicate delivery of every event (the failing one, the in-flight branch, the resumed ones) the redriven run ends with the one right result; a late duplicate changes nothing', async () => {
  const { h, d, deps, run, record } = await parallelWithFailingBranch('redrive-duplicates');
  await failWithFast2InFlight(d, { deliveries: 2 });
  expect((await record()).status).toBe('FAILED');
  for (const held of d.held) await Promise.all([d.deliver(held.functionName, held.event), d.deliver(held.functionName, held.event)]);
  // Fast2 and Bad at least; a duplicate of Fast that found the run FAILED before invoking Fast2 parks too.
  const redrive = await redriveRun(deps, run, { workflowId: 'r' });
  expect(redrive.redriveCount).toBe(1);
  expect(redrive.resumed).toBeGreaterThanOrEqual(2);
  await d.drain({ deliveries: 2 });
  expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[12,-5]', redriveCount: 1 });
  // Start and Fast run once per delivery of their events: twice before the failure. A duplicate of Fast that
  // found the run FAILED parked, and the redrive re-sent it, twice: its handler runs, its put finds the checkpoint.
  expect(h.calls.a).toBeLessThanOrEqual(2);
  expect(h.calls.fast).toBeLessThanOrEqual(4);
  const callsBefore = { ...h.calls };
  const sentBefore = d.invoker.sent.length;
  const finished = await record();
  // A late duplicate of a resumed event after the run finished changes nothing: its handler runs, nothing after it.
  for (const sent of d.invoker.sent.filter((s) => s.functionName === 'fn-Fast2')) await d.deliver(sent.functionName, sent.event);
  expect({ ...h.calls, fast2: callsBefore.fast2 }).toEqual(callsBefore);
  expect(d.invoker.sent).toHaveLength(sentBefore);
  expect(await record()).toEqual(finished);
});

test('a Fail state reached after another branch failed the run parks: redriven, it fails the run again, which is then not redrivable', async () => {
  const h = handlers({ bad: (x: number) => x, f: (x: number) => x, a: (x: number) => x }, { bad: 1 }, terminal);
  const p = new Parallel('P').branch(task('Bad', 'bad'), task('F', 'f').next(new Fail('Stop', { error: 'Nope' })));
  const { d, deps, run, record } = await setUp('redrive-late-fail', task('Start', 'a').next(p), h.module);
  await d.run({ workflowId: 'r', input: 1 }, { hold: (x) => x.functionName === 'fn-F' });
  expect(await record()).toMatchObject({ status: 'FAILED', error: { node: 'Bad' } });
  await d.deliver(d.held[0].functionName, d.held[0].event);
  expect(await record()).toMatchObject({ status: 'FAILED', error: { node: 'Bad' } });
  expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 2 });
  await d.drain();
  expect(await record()).toMatchObject({ status: 'FAILED', error: { state: 'Stop', error: 'Nope' }, redriveCount: 1 });
  await expect(redriveRun(deps, run, { workflowId: 'r' })).rejects.toThrow(/Fail state Stop/);
});

describe('a Parallel whose Retry and Catch rules did not handle a branch\'s failure: the redrive runs the state again, as its next attempt', () => {
  const boom = (): Error => Object.assign(new Error('branch failed'), { name: 'Boom' });
  /** Start, then P (Fast -> Fast2, Bad: Bad fails `times` calls with Boom) with `rules`, then Join. */
  /** `fixed`: Bad throws Boom in every call until it says true (a fix deployed before the redrive), whatever the deliveries. */
  async function stateWithRules(workflow: string, times: number, rules: (p: Parallel) => Parallel, fixed = () => true) {
    const bad = (x: number): number => {
      if (!fixed()) throw boom();
      return -x;
    };
    const h = handlers({ fast: (x: number) => x + 1, fast2: (x: number) => x * 2, bad, a: (x: number) => x, join: (x: number[]) => x, other: () => 'caught' }, { bad: times }, boom);
    const p = rules(new Parallel('P').branch(task('Fast', 'fast').next(task('Fast2', 'fast2')), task('Bad', 'bad')));
    return { h, ...(await setUp(workflow, task('Start', 'a').next(p).next(task('Join', 'join')), h.module)) };
  }
  const catchOther = (p: Parallel) => p.addCatch(task('Other', 'other'), { errors: ['Other'] });
  /** The join's events: those that tell it its state attempt failed. */
  const failedNotices = (d: Driver) => d.invoker.sent.filter((s) => s.event.unum.inputs.some((i) => 'failed' in i));

  test('an uncaught failure parks the join; the redrive reuses Start and the successful branch\'s steps and runs the failed branch again; the run succeeds once', async () => {
    const { h, d, deps, run, record } = await stateWithRules('redrive-state-catch', 1, catchOther);
    await d.run({ workflowId: 'r', input: 5 });
    expect(await record()).toMatchObject({ status: 'FAILED', error: { error: 'Boom', cause: expect.stringContaining('branch failed') } });
    expect(await redriveRun(deps, run, { workflowId: 'r' })).toEqual({ workflowId: 'r', redriveCount: 1, resumed: 1 });
    await d.drain();
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[12,-5]', redriveCount: 1 });
    expect(h.calls).toEqual({ a: 1, fast: 1, fast2: 1, bad: 2, join: 1 });
    await expect(redriveRun(deps, run, { workflowId: 'r' })).rejects.toThrow(/SUCCEEDED/);
  });

  test('the redriven attempt\'s Retry counts start over: exhausted before the redrive, the rule retries again after it', async () => {
    // maxAttempts 1: attempts 0 and 1 fail (the run fails); redriven, attempt 2 fails and is retried, attempt 3 succeeds.
    const { h, d, deps, run, record } = await stateWithRules('redrive-state-retry', 3, (p) => p.addRetry({ errors: ['Boom'], maxAttempts: 1, intervalSeconds: 1, jitter: 'FULL' }));
    await d.run({ workflowId: 'r', input: 5 });
    expect(await record()).toMatchObject({ status: 'FAILED', error: { error: 'Boom' } });
    expect(h.calls.bad).toBe(2);
    expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 1 });
    await d.drain();
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[12,-5]', redriveCount: 1 });
    expect(h.calls).toMatchObject({ a: 1, bad: 4, join: 1 });
  });

  test('a Map whose Catch rule did not handle an item\'s failure: redriven, only the failed item runs again and the run succeeds once', async () => {
    const h = handlers({ items: (n: number) => Array.from({ length: n }, (_, i) => i + 1), square: (x: number) => x * x, bad: (x: number) => x, total: (xs: number[]) => xs.reduce((a, b) => a + b, 0) }, { square: 1 }, boom);
    const map = new Map('Squares').itemProcessor(task('Square', 'square')).addCatch(task('Bad', 'bad'), { errors: ['Other'] });
    const { d, deps, run, record } = await setUp('redrive-map-catch', task('Items', 'items').next(map).next(task('Total', 'total')), h.module);
    await d.run({ workflowId: 'r', input: 3 });
    expect(await record()).toMatchObject({ status: 'FAILED', error: { error: 'Boom' } });
    expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 1 });
    await d.drain();
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '14', redriveCount: 1 });
    expect(h.calls.items).toBe(1);
    expect(h.calls.bad).toBeUndefined();
    // Each item's Square committed once over both attempts; the failed call is the fourth.
    expect(h.calls.square).toBe(4);
  });

  /** A handler that throws Boom until `fix()` (deployed before the redrive), then applies `then`. */
  function failingUntilFixed(then: (v: number) => number) {
    let broken = true;
    const fn = (v: number): number => {
      if (broken) throw boom();
      return then(v);
    };
    return { fn, fix: () => (broken = false) };
  }

  /** Start -> P (`branches`, a Catch rule that does not match: the failure fails the run) -> Join. */
  const aroundState = (...branches: IChainable[]): IChainable =>
    task('Start', 'a').next(new Parallel('P').branch(...branches).addCatch(task('Other', 'other'), { errors: ['Other'] })).next(task('Join', 'join'));

  /** P: [Prep -> Map Each(Sq) -> Sum] and [Pre -> Bad -> Post], with a Catch rule that does not match; Bad fails until `fix()`. */
  async function nestedState(workflow: string, options: CompileOptions = {}) {
    const { fn: bad, fix } = failingUntilFixed((x) => x + 100);
    const fns = { a: (x: number) => x, prep: (x: number) => [x, x + 1, x + 2, x + 3, x + 4], sq: (x: number) => x * x, sum: (xs: number[]) => xs.reduce((a, b) => a + b, 0), pre: (x: number) => -x, bad, post: (x: number) => x * 2, join: (x: unknown) => x, other: () => 'caught' };
    const h = handlers(fns, {}, boom);
    const each = new Map('Each', { maxConcurrency: 2 }).itemProcessor(task('Sq', 'sq'));
    return { h, fix, ...(await setUp(workflow, aroundState(task('Prep', 'prep').next(each).next(task('Sum', 'sum')), task('Pre', 'pre').next(task('Bad', 'bad')).next(task('Post', 'post'))), h.module, undefined, options)) };
  }

  test('a bounded Map inside a branch and a chain around the failed step: every step the failed attempt completed is reused, the Map\'s join too; the failed step and those after it run again', async () => {
    // A launch width of 2 sends the Map's first items through launchers: their frames carry the failed attempt too.
    const { h, fix, d, deps, run, record } = await nestedState('redrive-state-nested', { mapLaunchWidth: 2 });
    // Bad is held until the rest of the failed attempt has committed, so every other step has a checkpoint to reuse.
    await d.run({ workflowId: 'r', input: 1 }, { hold: (x) => x.functionName === 'fn-Bad' });
    await d.releaseHeld();
    expect(await record()).toMatchObject({ status: 'FAILED', error: { error: 'Boom' } });
    expect(h.calls).toEqual({ a: 1, prep: 1, sq: 5, sum: 1, pre: 1, bad: 1 });
    fix();
    expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 1 });
    await d.drain();
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[55,198]', redriveCount: 1 });
    // Each completed step's handler ran once over both attempts: what the failed attempt committed was reused,
    // the Map's join Sum too (each item it joins kept its value).
    expect(h.calls).toEqual({ a: 1, prep: 1, sq: 5, sum: 1, pre: 1, bad: 2, post: 1, join: 1 });
  });

  test('a chain of reused steps ends at a step whose old value is gone: it computes again, and the steps after it compute from its new value', async () => {
    let ys = 0;
    const { fn: bad, fix } = failingUntilFixed((v) => -v);
    const fns = { a: (x: number) => x, x: (v: number) => v + 1, y: (v: number) => v + 1000 * ++ys, z: (v: number) => v * 2, bad, join: (v: unknown) => v, other: () => 'caught' };
    const h = handlers(fns, {}, boom);
    const { d, deps, run, record, name } = await setUp('redrive-state-chain-end', aroundState(task('X', 'x').next(task('Y', 'y')).next(task('Z', 'z')), task('Bad', 'bad')), h.module);
    await d.run({ workflowId: 'r', input: 1 }, { hold: (e) => e.functionName === 'fn-Bad' });
    await d.releaseHeld();
    expect(await record()).toMatchObject({ status: 'FAILED', error: { error: 'Boom' } });
    // Y's checkpoint of the failed attempt (iteration 0, branch 0) expires before the redrive; X's and Z's remain.
    await db.client.send(new DeleteItemCommand({ TableName: name, Key: keyItem(checkpointKey(invocationName(run, 'Y', 0, [{ iteration: 0, index: 0 }]))) }));
    fix();
    await redriveRun(deps, run, { workflowId: 'r' });
    await d.drain();
    // Y computed 2002 (not 1002); Z, whose old value 2004 came from Y's old one, computed again from it.
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[4004,-1]' });
    expect(h.calls).toEqual({ a: 1, x: 1, y: 2, z: 2, bad: 2, join: 1 });
  });

  test('a fan-in\'s join inside the state whose member has another value than in the failed attempt computes again, and the steps after it too', async () => {
    let rs = 0;
    const { fn: bad, fix } = failingUntilFixed((v) => -v);
    const fns = { a: (x: number) => x, l: (v: number) => v + 1, r: (v: number) => v + 1000 * ++rs, j: (vs: number[]) => vs[0] + vs[1], z: (v: number) => v * 2, bad, join: (v: unknown) => v, other: () => 'caught' };
    const h = handlers(fns, {}, boom);
    const inner = new Parallel('Inner').branch(task('L', 'l'), task('R', 'r'));
    const { d, deps, run, record, name } = await setUp('redrive-state-join-member', aroundState(inner.next(task('J', 'j')).next(task('Z', 'z')), task('Bad', 'bad')), h.module);
    await d.run({ workflowId: 'r', input: 1 }, { hold: (e) => e.functionName === 'fn-Bad' });
    await d.releaseHeld();
    expect(await record()).toMatchObject({ status: 'FAILED', error: { error: 'Boom' } });
    expect(h.calls).toMatchObject({ l: 1, r: 1, j: 1, z: 1 });
    // R's checkpoint of the failed attempt (inner branch 1 inside outer branch 0, both fanned out at iteration 0) expires.
    await db.client.send(new DeleteItemCommand({ TableName: name, Key: keyItem(checkpointKey(invocationName(run, 'R', 0, [{ iteration: 0, index: 0 }, { iteration: 0, index: 1 }]))) }));
    fix();
    await redriveRun(deps, run, { workflowId: 'r' });
    // L, reused and on the chain, arrives last: its arrival invokes J, whose other member R computed.
    await d.drain({ hold: (e) => e.functionName === 'fn-L' });
    await d.releaseHeld();
    // L reused (2); R computed 2001, not 1001; J and Z computed from it: (2 + 2001) * 2.
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[4006,-1]' });
    expect(h.calls).toEqual({ a: 1, l: 1, r: 2, j: 2, z: 2, bad: 2, join: 1 });
  });

  test('a Wait in a branch that the failed attempt waited out is not waited again: no second schedule, the step after it reused', async () => {
    const { fn: bad, fix } = failingUntilFixed((v) => -v);
    const fns = { a: (x: number) => x, w: (v: number) => v + 1, b: (v: number) => v * 3, bad, join: (v: unknown) => v, other: () => 'caught' };
    const h = handlers(fns, {}, boom);
    const waiting = task('W', 'w').next(new Wait('Day', { time: WaitTime.duration(86_400) })).next(task('B', 'b'));
    const { d, deps, run, record } = await setUp('redrive-state-wait', aroundState(waiting, task('Bad', 'bad')), h.module);
    await d.run({ workflowId: 'r', input: 1 }, { hold: (e) => e.functionName === 'fn-Bad' });
    await d.releaseHeld();
    expect(await record()).toMatchObject({ status: 'FAILED', error: { error: 'Boom' } });
    expect(d.scheduler.schedules).toHaveLength(1);
    fix();
    await redriveRun(deps, run, { workflowId: 'r' });
    await d.drain();
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[6,-1]' });
    expect(d.scheduler.schedules).toHaveLength(1);
    expect(h.calls).toEqual({ a: 1, w: 1, b: 1, bad: 2, join: 1 });
  });

  test('under duplicate delivery of every event before and after the redrive, the reused steps run no handler again and the run succeeds once', async () => {
    const { h, fix, d, deps, run, record } = await nestedState('redrive-state-nested-dup');
    // Bad is held until the rest of the failed attempt has committed, so every other step has a checkpoint to reuse.
    await d.run({ workflowId: 'r', input: 1 }, { deliveries: 2, hold: (x) => x.functionName === 'fn-Bad' });
    await d.releaseHeld({ deliveries: 2 });
    expect(await record()).toMatchObject({ status: 'FAILED', error: { error: 'Boom' } });
    const completed = { prep: h.calls.prep, sq: h.calls.sq, sum: h.calls.sum, pre: h.calls.pre };
    expect(completed.sum).toBeGreaterThanOrEqual(1);
    fix();
    expect((await redriveRun(deps, run, { workflowId: 'r' })).redriveCount).toBe(1);
    await d.drain({ deliveries: 2 });
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[55,198]', redriveCount: 1 });
    expect(h.calls).toMatchObject(completed);
    expect(h.calls.other).toBeUndefined();
    // Duplicates delivered at once may each run a handler before one commits: at least once.
    expect(h.calls.post).toBeGreaterThanOrEqual(1);
    expect(h.calls.join).toBeGreaterThanOrEqual(1);
  });

  test('the old notice, delivered again after the redrive re-sent it, fails nothing: its failure is stale; under duplicates the run succeeds once', async () => {
    // Duplicate deliveries of Bad all fail before the fix: a duplicate that succeeded would complete the state instead.
    let fixed = false;
    const { h, d, deps, run, record } = await stateWithRules('redrive-state-stale', 0, catchOther, () => fixed);
    await d.run({ workflowId: 'r', input: 5 }, { deliveries: 2 });
    expect(await record()).toMatchObject({ status: 'FAILED', error: { error: 'Boom' } });
    const [old] = failedNotices(d);
    fixed = true;
    const redrive = await redriveRun(deps, run, { workflowId: 'r' });
    expect(redrive.redriveCount).toBe(1);
    expect(redrive.resumed).toBeGreaterThanOrEqual(1);
    await d.deliver(old.functionName, old.event);
    expect(await record()).toMatchObject({ status: 'RUNNING', redriveCount: 1 });
    await d.drain({ deliveries: 2 });
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[12,-5]', redriveCount: 1 });
    const callsAfter = { ...h.calls };
    await d.deliver(old.functionName, old.event);
    expect(h.calls).toEqual(callsAfter);
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[12,-5]', redriveCount: 1 });
  });
});

describe('a redrive generation: the re-sent event owns the invocation it re-sends', () => {
  /** A chain whose B fails `times` attempts (an error Lambda retries: the recorder fails the run), B's first event held. */
  async function failedAtB(workflow: string, times: number, wrap?: (store: CheckpointStore) => CheckpointStore) {
    const h = handlers(chainFns, { b: times }, () => new Error('flaky'));
    const s = await setUp(workflow, chain(), h.module, wrap);
    await s.d.run({ workflowId: 'r', input: 1 }, { hold: (x) => x.functionName === 'fn-B' });
    const [held] = s.d.held;
    return { ...s, h, held };
  }
  const redriveOf = (e: unknown) => (e as { unum: { redrive?: number } }).unum.redrive;

  test('a duplicate delivery of the failed event that Lambda gives up on after the redrive is stale: the run stays RUNNING and the re-sent event finishes it once', async () => {
    const { d, deps, run, record, h, held } = await failedAtB('redrive-stale', 6);
    await d.deliver(held.functionName, held.event);
    expect(await record()).toMatchObject({ status: 'FAILED', error: { node: 'B' } });
    expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 1 });
    expect(d.invoker.queue.map((q) => redriveOf(q.event))).toEqual([1]);
    // The old event's duplicate delivery, retried on its own, exhausts its retries now.
    await d.deliver(held.functionName, held.event);
    expect(d.failures).toHaveLength(2);
    expect(await record()).toMatchObject({ status: 'RUNNING', redriveCount: 1 });
    await d.drain();
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}', redriveCount: 1 });
    expect(h.calls).toEqual({ a: 1, b: 7, c: 1 });
  });

  test('a failure of the re-sent event is real: it fails the run and parks, and a second redrive resumes it', async () => {
    const { d, deps, run, record, h, held } = await failedAtB('redrive-resent-fails', 6);
    await d.deliver(held.functionName, held.event);
    expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 1 });
    await d.drain();
    expect(d.failures).toHaveLength(2);
    expect(redriveOf(d.failures[1].requestPayload)).toBe(1);
    expect(await record()).toMatchObject({ status: 'FAILED', error: { node: 'B' }, redriveCount: 1 });
    expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 2, resumed: 1 });
    expect(d.invoker.queue.map((q) => redriveOf(q.event))).toEqual([2]);
    await d.drain();
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}', redriveCount: 2 });
    expect(h.calls).toEqual({ a: 1, b: 7, c: 1 });
  });

  test('a park item no redrive re-sent (a park that found the run RUNNING) does not make a later failure of its invocation stale', async () => {
    const { d, run, record, held } = await failedAtB('redrive-park-running', 3);
    const name = invocationName(run, 'B', 0, []);
    await d.store.putParked(run, name, { functionName: held.functionName, event: JSON.stringify(held.event), until: 2 ** 31 }, 2 ** 31);
    expect(await d.store.parkInRun(run, name)).toBe('running');
    await d.deliver(held.functionName, held.event);
    expect(await record()).toMatchObject({ status: 'FAILED', error: { node: 'B', error: 'Error' } });
  });

  test('a redrive between the recorder\'s check and its write does not let a stale failure through: the write is fenced by the redrive count', async () => {
    let between: (() => Promise<unknown>) | undefined;
    const wrap = (store: CheckpointStore): CheckpointStore => Object.assign(Object.create(store) as CheckpointStore, {
      getResent: async (run: RunRef, invocation: string) => {
        const read = await store.getResent(run, invocation);
        const redrive = between;
        between = undefined;
        await redrive?.();
        return read;
      },
    });
    const { d, deps, run, record, h, held } = await failedAtB('redrive-fenced', 3, wrap);
    await d.deliver(held.functionName, held.event);
    expect(await record()).toMatchObject({ status: 'FAILED' });
    // The old event's duplicate delivery, begun while the run was RUNNING, exhausts its retries: the
    // recorder checks it (not re-sent yet, the run FAILED), then the redrive comes, then the recorder writes.
    between = () => redriveRun(deps, run, { workflowId: 'r' });
    await d.recorder({ ...d.failures[0], requestContext: { ...d.failures[0].requestContext, requestId: 'duplicate' } });
    expect(between).toBeUndefined();
    expect(await record()).toMatchObject({ status: 'RUNNING', redriveCount: 1 });
    await d.drain();
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}', redriveCount: 1 });
    expect(h.calls).toEqual({ a: 1, b: 4, c: 1 });
  });

  test('an invocation parked while the redrive reads is marked too: the redrive\'s update needs the set it read, and reads again', async () => {
    const { d, deps, run, record } = await parallelWithFailingBranch('redrive-park-meanwhile');
    await failWithFast2InFlight(d);
    const [held] = d.held;
    // Fast2 finds the run FAILED and parks after the redrive read the parked set, before its update.
    let meanwhile: (() => Promise<void>) | undefined = () => d.deliver(held.functionName, held.event);
    const table = Object.assign(Object.create(deps.table) as ControlTable, {
      getMany: async (...args: Parameters<ControlTable['getMany']>) => {
        const read = await deps.table.getMany(...args);
        const park = meanwhile;
        meanwhile = undefined;
        await park?.();
        return read;
      },
    });
    expect(await redriveRun({ ...deps, table }, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 2 });
    expect(meanwhile).toBeUndefined();
    const fast2 = invocationName(run, 'Fast2', 0, held.event.unum.fanOut);
    expect(decodeParked(await deps.table.get(parkKey(run, fast2)))).toMatchObject({ resentBy: 1 });
    expect(d.invoker.queue.map((q) => q.event.unum.redrive)).toEqual([1, 1]);
    await d.drain();
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '[12,-5]' });
  });
});
