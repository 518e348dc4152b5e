/**
 * Stop and run timeout in the runtime (docs/architecture.md "Stop and run
 * timeout"): an execution that reads a stopped run, or one past its deadline,
 * invokes nothing (a chain step reads the run record beside its commit, so
 * its user code has run by then; nothing after it runs); the run's final
 * status is set once. The engine-level tests are in test/local/run-control.int.test.ts.
 */
import { compileWorkflow, type CompileOptions } from '../../lib/compiler';
import { Definition, Task, type IChainable } from '../../lib/definition';
import { ENV } from '../../runtime/contract/ir';
import { runTimeoutName } from '../../runtime/contract/naming';
import { runKey, type RunRecord } from '../../runtime/contract/table';
import { Driver, fromCompiled, RECORDER_FUNCTION, type Delivery } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

const ENTRY = '/project/run-control.ts';
const ran: string[] = [];
const handlers = { step: (x: number) => x + 1 };
const task = (name: string): Task => new Task(name, { entry: ENTRY, handler: 'step' });
const chain = (): IChainable => task('A').next(task('B')).next(task('C'));
const RUN = { workflow: 'ctl', workflowId: 'w' };

beforeAll(() => {
  process.env[ENV.runTimeoutFunction] = RECORDER_FUNCTION;
});
afterAll(() => {
  delete process.env[ENV.runTimeoutFunction];
});
beforeEach(() => {
  ran.length = 0;
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

/** A driver whose handlers note each node whose user code ran. */
function driver(definition: IChainable, options: CompileOptions = {}): { d: Driver; store: MemoryStore } {
  const store = new MemoryStore();
  const module = Object.fromEntries(Object.entries(handlers).map(([name, fn]) => [name, (x: number, ctx: { functionName: string }) => {
    ran.push(ctx.functionName);
    return fn(x);
  }]));
  return { d: new Driver(store, fromCompiled(compileWorkflow('ctl', Definition.from(definition), options), module)), store };
}

const recordOf = (store: MemoryStore): RunRecord | undefined => store.runs.get(runKey(RUN));
const setRecord = (store: MemoryStore, change: Partial<RunRecord>): void => {
  store.runs.set(runKey(RUN), { ...(recordOf(store) as RunRecord), ...change });
};

/** Runs the chain until B's envelope is held back, lets `between` act, then delivers it and drains. */
async function runAroundB(definition: IChainable, between: (store: MemoryStore, d: Driver) => Promise<void>, hold: (e: Delivery) => boolean = () => false, options: CompileOptions = {}) {
  const { d, store } = driver(definition, options);
  let holding = true;
  await d.run({ workflowId: 'w', input: 1 }, { hold: (e) => hold(e) || (holding && e.functionName === 'fn-B' && !(holding = false)) });
  const b = d.held.find((e) => e.functionName === 'fn-B') as Delivery;
  await between(store, d);
  await d.deliver(b.functionName, b.event);
  await d.drain();
  return { d, store, record: recordOf(store) };
}

test('a stopped run: the next execution invokes nothing; the record stays ABORTED with its error', async () => {
  const { record, store } = await runAroundB(chain(), async (s) => {
    expect(await s.interruptRun(RUN, { status: 'ABORTED', error: { node: '', error: 'Cancelled', cause: 'by the customer' } }, '2026-11-26T00:00:00.000Z')).toBe(true);
  });
  // B was invoked before the stop: its user code ran before its read (beside its commit) found the run stopped. C never runs.
  expect(ran).toEqual(['fn-A', 'fn-B']);
  expect(record).toMatchObject({ status: 'ABORTED', error: { error: 'Cancelled', cause: 'by the customer' }, finishedAt: '2026-11-26T00:00:00.000Z' });
  // B parked itself in the stopped run, for a redrive (as in a FAILED one).
  expect([...store.parked.values()].map((p) => p.functionName)).toEqual(['fn-B']);
  expect([...store.parked.keys()].map((k) => k.split('#')[3])).toEqual([...(store.redo.get(runKey(RUN)) ?? [])]);
  // A second stop, and the run's own end, change nothing.
  expect(await store.interruptRun(RUN, { status: 'ABORTED', error: { node: '', error: 'again', cause: '' } }, 'later')).toBe(false);
  expect(await store.finishRun(RUN, { status: 'SUCCEEDED', result: '3' }, 'later', 1)).toBe(false);
  expect(recordOf(store)).toMatchObject({ status: 'ABORTED', error: { error: 'Cancelled' } });
});

test('a finished run cannot be stopped', async () => {
  const { d, store } = driver(chain());
  await d.run({ workflowId: 'w', input: 1 });
  expect(recordOf(store)).toMatchObject({ status: 'SUCCEEDED', result: '4' });
  expect(await store.interruptRun(RUN, { status: 'ABORTED', error: { node: '', error: '', cause: '' } }, 'later')).toBe(false);
  expect(recordOf(store)?.status).toBe('SUCCEEDED');
});

test('a run timeout: the entry writes the deadline and schedules the recorder once; the schedule ends the run TIMED_OUT; B then stops', async () => {
  const { d, record, store } = await runAroundB(chain(), async () => undefined, () => false, { runTimeoutSeconds: 3600 });
  expect(ran).toEqual(['fn-A', 'fn-B']);
  // B found the run TIMED_OUT and parked for a redrive.
  expect([...store.parked.values()].map((p) => p.functionName)).toEqual(['fn-B']);
  expect(record).toMatchObject({ status: 'TIMED_OUT', error: { error: 'States.Timeout', cause: 'the run did not finish within its timeout of 3600 s' } });
  const [schedule, ...others] = d.scheduler.schedules;
  expect(others).toEqual([]);
  expect(schedule).toMatchObject({ name: runTimeoutName(RUN), functionName: RECORDER_FUNCTION, event: { unumRunTimeout: { workflowId: 'w', timeoutSeconds: 3600, deadline: schedule.at } } });
  expect(schedule.at - Date.parse(record?.startedAt as string)).toBe(3_600_000);
  expect(record?.deadline).toBe(schedule.at);
});

test('a timeout schedule for a deadline the run no longer has (a redrive gave it a new one) changes nothing', async () => {
  const recorder = (e: Delivery): boolean => e.functionName === RECORDER_FUNCTION;
  const { record } = await runAroundB(chain(), async (s, driven) => {
    setRecord(s, { deadline: (recordOf(s)?.deadline as number) + 1000 });
    const [timeout] = driven.held.filter(recorder);
    await driven.deliver(timeout.functionName, timeout.event);
    expect(recordOf(s)?.status).toBe('RUNNING');
  }, recorder, { runTimeoutSeconds: 3600 });
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: '4' });
  expect(ran).toEqual(['fn-A', 'fn-B', 'fn-C']);
});

test('past the deadline before the schedule fires: the next execution (B, which cannot end the run) ends it TIMED_OUT itself', async () => {
  const { record } = await runAroundB(
    chain(),
    async (s) => setRecord(s, { deadline: Date.now() - 1 }),
    (e) => e.functionName === RECORDER_FUNCTION,
    { runTimeoutSeconds: 60 },
  );
  expect(ran).toEqual(['fn-A', 'fn-B']);
  expect(record).toMatchObject({ status: 'TIMED_OUT', error: { error: 'States.Timeout' } });
});

test('a run that finishes before its deadline: the late timeout changes nothing', async () => {
  const { d, store } = driver(chain(), { runTimeoutSeconds: 60 });
  await d.run({ workflowId: 'w', input: 1 }, { hold: (e) => e.functionName === RECORDER_FUNCTION });
  expect(recordOf(store)).toMatchObject({ status: 'SUCCEEDED', result: '4' });
  for (const e of d.held) await d.deliver(e.functionName, e.event);
  expect(recordOf(store)?.status).toBe('SUCCEEDED');
  expect(ran).toEqual(['fn-A', 'fn-B', 'fn-C']);
});
