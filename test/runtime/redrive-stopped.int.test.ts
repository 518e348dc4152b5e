/**
 * Redrive of a stopped (ABORTED) or timed-out (TIMED_OUT) run on DynamoDB
 * Local, as Step Functions redrives aborted and timed-out executions: the
 * stop or the deadline parks nothing itself; each invocation in flight parks
 * at its next step (one that reads the run ended, or past its deadline ends
 * it TIMED_OUT itself), a Wait's wake-up when it fires; the redrive resumes
 * them, and the run's timeout counts again from the redrive.
 */
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { compileWorkflow, type CompileOptions } from '../../lib/compiler';
import { Definition, type IChainable, Task, Wait, WaitTime } from '../../lib/definition';
import { ControlTable } from '../../runtime/control/control-table';
import { redrivenTimeoutSchedule } from '../../runtime/control/redriven-timeout';
import type { Scheduler } from '../../runtime/ports/scheduler';
import { RedriveRefusal, redriveRun, type RedriveDeps } from '../../runtime/control/redrive';
import { stopRun } from '../../runtime/control/stop';
import { ENV } from '../../runtime/contract/ir';
import { decodeRedriveState, decodeRunRecord, keyItem, runKey, type RunRef } from '../../runtime/contract/table';
import { useTestDb } from '../support/dynamodb';
import { Driver, fromCompiled, RECORDER_FUNCTION, type Delivery } from '../support/harness';

const db = useTestDb();

beforeAll(() => {
  process.env[ENV.runTimeoutFunction] = RECORDER_FUNCTION;
});
afterAll(() => {
  delete process.env[ENV.runTimeoutFunction];
});

const ENTRY = '/project/redrive-stopped.ts';
const HOUR = 3_600_000;
const calls: Record<string, number> = {};
const fns = { a: (x: number) => x + 1, b: (x: number) => x * 10, c: (x: number) => ({ out: x }) };
const handlers = Object.fromEntries(Object.entries(fns).map(([k, fn]) => [k, (x: never) => {
  calls[k] = (calls[k] ?? 0) + 1;
  return fn(x);
}]));
const task = (name: string, handler: string): Task => new Task(name, { entry: ENTRY, handler });
const chain = (): IChainable => task('A', 'a').next(task('B', 'b')).next(task('C', 'c'));

beforeEach(() => {
  for (const k of Object.keys(calls)) delete calls[k];
});

async function setUp(workflow: string, definition: IChainable, options: CompileOptions = {}) {
  const { name, store } = await db.table();
  const d = new Driver(store, fromCompiled(compileWorkflow(workflow, Definition.from(definition), options), handlers));
  const invoke = async (fn: string, event: string): Promise<void> => d.invoker.invoke(fn, JSON.parse(event));
  const table = new ControlTable(name, db.client);
  const deps: RedriveDeps = { table, invoke, deployments: { latest: async () => undefined, graphOf: async () => undefined }, scheduleTimeout: async (r, t) => (d.scheduler as Scheduler).schedule(redrivenTimeoutSchedule(r, t, RECORDER_FUNCTION)) };
  const run: RunRef = { workflow, workflowId: 'r' };
  const item = async () => (await db.run(name, 'r'))!;
  const record = async () => decodeRunRecord(await item());
  const stop = () => stopRun(table, run, { workflowId: 'r', error: 'Stopped', cause: 'by a test' });
  /** The run record as if it had started an hour before its deadline, and that deadline had just passed. */
  const deadlinePassed = async (): Promise<void> => {
    const now = Date.now();
    await db.client.send(new UpdateItemCommand({
      TableName: name,
      Key: keyItem(runKey(run)),
      UpdateExpression: 'SET startedAt = :s, dl = :dl',
      ExpressionAttributeValues: { ':s': { S: new Date(now - HOUR - 1).toISOString() }, ':dl': { N: String(now - 1) } },
    }));
  };
  return { d, deps, run, item, record, stop, deadlinePassed };
}

/** The run-timeout schedules made so far, in order. */
const timeouts = (d: Driver) => d.scheduler.schedules.filter((s) => 'unumRunTimeout' in (s.event as object));

/** Takes the held deliveries to `functionName` out of `d.held`. */
const take = (d: Driver, functionName: string): Delivery[] => {
  const taken = d.held.filter((x) => x.functionName === functionName);
  d.held.splice(0, d.held.length, ...d.held.filter((x) => x.functionName !== functionName));
  return taken;
};

test('a stopped run: B in flight parks at its next step; before that the redrive is refused; redriven, the run succeeds and B\'s commit is reused', async () => {
  const { d, deps, run, item, record, stop } = await setUp('stopped-chain', chain());
  await d.run({ workflowId: 'r', input: 1 }, { hold: (x) => x.functionName === 'fn-B' });
  expect(await stop()).toBe(true);
  expect(await record()).toMatchObject({ status: 'ABORTED', error: { error: 'Stopped', cause: 'by a test' } });
  // The stop parked nothing: B has not run since.
  await expect(redriveRun(deps, run, { workflowId: 'r' })).rejects.toThrow('run r (ABORTED) cannot be redriven: no invocation of it is parked to resume');
  await d.releaseHeld();
  // B's handler ran before its read (beside its commit) found the run ABORTED: it committed, parked, and invoked nothing.
  expect(calls).toEqual({ a: 1, b: 1 });
  expect(decodeRedriveState(await item()).redo).toHaveLength(1);
  expect(await redriveRun(deps, run, { workflowId: 'r' })).toEqual({ workflowId: 'r', redriveCount: 1, resumed: 1 });
  await d.drain();
  const after = await record();
  expect(after).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}', redriveCount: 1 });
  expect(after.error).toBeUndefined();
  // B ran again (its step computes before it reads), its put found the checkpoint: C got the committed 20 once.
  expect(calls).toEqual({ a: 1, b: 2, c: 1 });
  await expect(redriveRun(deps, run, { workflowId: 'r' })).rejects.toThrow(RedriveRefusal);
});

test('a Wait pending at the stop: its wake-up finds the run ABORTED and parks; redriven, it goes on at once', async () => {
  const { d, deps, run, record, stop } = await setUp('stopped-wait', task('A', 'a').next(new Wait('W', { time: WaitTime.duration(60) })).next(task('B', 'b')));
  await d.run({ workflowId: 'r', input: 1 }, { hold: (x) => x.functionName === 'fn-W' });
  expect(d.scheduler.schedules.map((s) => s.functionName)).toEqual(['fn-W']);
  expect(await stop()).toBe(true);
  await d.releaseHeld();
  expect(calls).toEqual({ a: 1 });
  expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 1 });
  await d.drain();
  expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '20', redriveCount: 1 });
  // The wake-up was not scheduled again: the Wait's node had committed, and its re-sent event invoked B.
  expect(d.scheduler.schedules.map((s) => s.functionName)).toEqual(['fn-W']);
  expect(calls).toEqual({ a: 1, b: 1 });
});

describe('a timed-out run', () => {
  const TIMEOUT: CompileOptions = { runTimeoutSeconds: 3600 };

  test('past its deadline B ends the run TIMED_OUT itself and parks; redriven, its timeout counts from the redrive; the old deadline\'s late schedule changes nothing', async () => {
    const { d, deps, run, record, deadlinePassed } = await setUp('timed-out-chain', chain(), TIMEOUT);
    await d.run({ workflowId: 'r', input: 1 }, { hold: (x) => x.functionName === 'fn-B' || x.functionName === RECORDER_FUNCTION });
    await deadlinePassed();
    d.invoker.queue.push(...take(d, 'fn-B'));
    await d.drain({ hold: (x) => x.functionName === 'fn-C' });
    expect(await record()).toMatchObject({ status: 'TIMED_OUT', error: { error: 'States.Timeout', cause: 'the run did not finish within its timeout of 3600 s' } });
    expect(d.held.map((x) => x.functionName)).toEqual([RECORDER_FUNCTION]);
    expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 1 });
    const redriven = await record();
    expect(redriven).toMatchObject({ status: 'RUNNING', redriveCount: 1 });
    expect(redriven.deadline).toBe(Date.parse(redriven.redrivenAt as string) + HOUR);
    // The redrive scheduled the timeout anew, at the new deadline, under a name of its own (the first may still be pending).
    const [first, again, ...more] = timeouts(d);
    expect(more).toEqual([]);
    expect(again).toMatchObject({ functionName: RECORDER_FUNCTION, at: redriven.deadline, event: { unumRunTimeout: { workflowId: 'r', timeoutSeconds: 3600, deadline: redriven.deadline } } });
    expect(again.name).not.toBe(first.name);
    // The driver delivers a schedule at once; held here, as the real one waits an hour.
    await d.drain({ hold: (x) => x.functionName === RECORDER_FUNCTION });
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}', redriveCount: 1 });
    // Both deadlines' schedules, delivered after the run ended, change nothing.
    await d.releaseHeld();
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}', redriveCount: 1 });
    expect(calls).toEqual({ a: 1, b: 2, c: 1 });
  });

  test('redriven, a run that overruns its new deadline is ended TIMED_OUT by the schedule the redrive made', async () => {
    const { d, deps, run, record } = await setUp('timed-out-twice', chain(), TIMEOUT);
    await d.run({ workflowId: 'r', input: 1 }, { hold: (x) => x.functionName === 'fn-B' || x.functionName === RECORDER_FUNCTION });
    d.invoker.queue.push(...take(d, RECORDER_FUNCTION));
    await d.drain({ hold: (x) => x.functionName === 'fn-B' });
    expect((await record()).status).toBe('TIMED_OUT');
    await d.releaseHeld();
    expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 1 });
    const { deadline } = await record();
    // B, resumed, is held past the new deadline: the redrive's schedule fires (the driver delivers it at once).
    await d.drain({ hold: (x) => x.functionName === 'fn-B' });
    expect(await record()).toMatchObject({ status: 'TIMED_OUT', deadline, redriveCount: 1, error: { error: 'States.Timeout', cause: 'the run did not finish within its timeout of 3600 s' } });
  });

  test('TIMED_OUT by its schedule: B in flight reads it and parks; redriven, the run succeeds', async () => {
    const { d, deps, run, record } = await setUp('timed-out-by-schedule', chain(), TIMEOUT);
    await d.run({ workflowId: 'r', input: 1 }, { hold: (x) => x.functionName === 'fn-B' || x.functionName === RECORDER_FUNCTION });
    // The schedule for the run's deadline, delivered (the driver's clock does not wait for it).
    d.invoker.queue.push(...take(d, RECORDER_FUNCTION));
    await d.drain({ hold: (x) => x.functionName === 'fn-B' });
    expect((await record()).status).toBe('TIMED_OUT');
    await d.releaseHeld();
    expect(calls).toEqual({ a: 1, b: 1 });
    expect(await redriveRun(deps, run, { workflowId: 'r' })).toMatchObject({ redriveCount: 1, resumed: 1 });
    // The redrive's timeout schedule waits its hour (held: the driver would deliver it at once).
    await d.drain({ hold: (x) => x.functionName === RECORDER_FUNCTION });
    expect(await record()).toMatchObject({ status: 'SUCCEEDED', result: '{"out":20}', redriveCount: 1 });
  });
});
