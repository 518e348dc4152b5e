/**
 * Waits in the runtime: when a wait ends (runtime/states/wait-time.ts), and the
 * hand-off (runtime/step/wait-handoff.ts): the node before the Wait schedules the Wait's
 * node under its invocation name, once however often it runs; a due time
 * already past invokes at once; and what the run still needs outlives a wait
 * much longer than the checkpoint retention, with items expiring meanwhile.
 */
import { compileWorkflow, type CompileOptions } from '../../lib/compiler';
import { Definition, Map, Task, Wait, WaitTime, type IChainable } from '../../lib/definition';
import type { Json, WaitSpec } from '../../runtime/contract/ir';
import { invocationName } from '../../runtime/contract/naming';
import { runKey } from '../../runtime/contract/table';
import { waitDue } from '../../runtime/states/wait-time';
import { useJsonataEngine } from '../../runtime/language/jsonata';
import { jsonataEngine } from '../../runtime/language/jsonata-engine';
import { fromCompiled, Driver } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const NOW = Date.parse('2026-06-01T12:00:00Z');
const YEAR = 365 * 86400;

describe('waitDue', () => {
  beforeAll(() => useJsonataEngine(jsonataEngine));
  const context = { Execution: { Id: 'r' }, State: { Name: 'W' } };
  const due = (spec: Record<string, Json>, value: Json = {}): Promise<number> => waitDue('Before', { state: 'W', ...spec } as unknown as WaitSpec, value, NOW, context);
  const fails = async (spec: Record<string, Json>, value: Json): Promise<string> => {
    try {
      await due(spec, value);
    } catch (e) {
      return `${(e as { name: string }).name}: ${(e as Error).message}`;
    }
    return 'no error';
  };

  test('a duration, a timestamp, and the same read from the input (after InputPath)', async () => {
    expect(await due({ seconds: 90 })).toBe(NOW + 90_000);
    expect(await due({ timestamp: '2026-06-02T12:00:00+02:00' })).toBe(Date.parse('2026-06-02T10:00:00Z'));
    expect(await due({ secondsPath: '$.wait.s', inputPath: '$.in' }, { in: { wait: { s: 0 } } })).toBe(NOW);
    expect(await due({ timestampPath: '$.at' }, { at: '2026-06-01T12:00:30.5Z' })).toBe(NOW + 30_500);
    // A time already past is due now or earlier: no wait.
    expect(await due({ timestampPath: '$.at' }, { at: '2020-01-01T00:00:00Z' })).toBeLessThan(NOW);
  });

  test('a JSONata Wait: Seconds and Timestamp expressions over $states.input (and $states.context)', async () => {
    expect(await due({ secondsExpression: '{% $states.input.s * 2 %}' }, { s: 45 })).toBe(NOW + 90_000);
    expect(await due({ timestampExpression: "{% $states.input.day & 'T12:00:30Z' %}" }, { day: '2026-06-01' })).toBe(NOW + 30_000);
    expect(await due({ secondsExpression: "{% $states.context.State.Name = 'W' ? 0 : 60 %}" })).toBe(NOW);
  });

  test('a path value that is not a wait is States.Runtime naming the node, the Wait and the field', async () => {
    const seconds = 'States.Runtime: node Before: Wait W, field SecondsPath:';
    expect(await fails({ secondsPath: '$.s' }, {})).toBe(`${seconds} the path $.s matches nothing in the input`);
    for (const bad of [-1, 1.5, '10', YEAR + 1]) {
      expect(await fails({ secondsPath: '$.s' }, { s: bad })).toBe(`${seconds} ${JSON.stringify(bad)} at $.s is not a whole number of seconds from 0 to ${YEAR} (one year)`);
    }
    expect(await fails({ timestampPath: '$.t' }, { t: 'noon' })).toBe('States.Runtime: node Before: Wait W, field TimestampPath: "noon" at $.t is not an RFC 3339 timestamp (e.g. 2026-01-01T00:00:00Z)');
    expect(await fails({ timestampPath: '$.t' }, { t: '2028-01-01T00:00:00Z' })).toBe('States.Runtime: node Before: Wait W, field TimestampPath: 2028-01-01T00:00:00Z at $.t is more than one year ahead');
    expect(await fails({ timestamp: '2028-01-01T00:00:00Z' }, {})).toBe('States.Runtime: node Before: Wait W, field Timestamp: 2028-01-01T00:00:00Z is more than one year ahead');
  });

  test('a JSONata expression that gives no wait, or fails, is States.QueryEvaluationError naming the Wait and the field', async () => {
    expect(await fails({ secondsExpression: '{% $states.input.s %}' }, { s: 1.5 })).toBe('States.QueryEvaluationError: node Before: Wait W, field Seconds: 1.5 is not a whole number of seconds from 0 to 31536000 (one year)');
    expect(await fails({ timestampExpression: '{% $states.input.t %}' }, { t: 'noon' })).toBe('States.QueryEvaluationError: node Before: Wait W, field Timestamp: "noon" is not an RFC 3339 timestamp (e.g. 2026-01-01T00:00:00Z)');
    expect(await fails({ secondsExpression: '{% $states.input.s %}' }, {})).toBe('States.QueryEvaluationError: Wait W Seconds: the expression gives no value (undefined)');
  });
});

const ENTRY = '/project/wait.ts';
const task = (name: string): Task => new Task(name, { entry: ENTRY, handler: 'same', timeoutSeconds: 5 });
const handlers = { same: (x: unknown) => x };
/** The shortest retention the construct accepts: R = H = 65 s. */
const SHORT: CompileOptions = { maxEventAgeSeconds: 60, checkpointTtlSeconds: 65, runRetentionSeconds: 65 };

function driver(definition: IChainable, options: CompileOptions = {}, store = new MemoryStore()): { d: Driver; store: MemoryStore } {
  return { d: new Driver(store, fromCompiled(compileWorkflow('waits', Definition.from(definition), options), handlers)), store };
}

test('the node before a Wait schedules the Wait node under its invocation name, at the due time, with the envelope', async () => {
  const { d, store } = driver(task('A').next(new Wait('W', { time: WaitTime.secondsPath('$.s') })).next(task('B')));
  const before = Date.now();
  await d.run({ workflowId: 'r1', input: { s: 3600 } });
  expect(store.runOf('r1')).toMatchObject({ status: 'SUCCEEDED', result: '{"s":3600}' });
  const [s, ...more] = d.scheduler.schedules;
  expect(more).toEqual([]);
  expect(s).toMatchObject({ name: invocationName({ workflow: 'waits', workflowId: 'r1' }, 'W', 0, []), functionName: 'fn-W', event: { unum: { node: 'W' } } });
  expect(s.at - before).toBeGreaterThanOrEqual(3600_000);
  expect(s.at - Date.now()).toBeLessThanOrEqual(3600_000);
  // The Wait node is not invoked directly.
  expect(d.invoker.sent.filter((x) => x.functionName === 'fn-W')).toHaveLength(1);
});

test('a due time already past (0 s, literal or read, a timestamp of the past) invokes at once: nothing is scheduled', async () => {
  const { d, store } = driver(
    task('A')
      .next(new Wait('None', { time: WaitTime.duration(0) }))
      .next(new Wait('Zero', { time: WaitTime.secondsPath('$.s') }))
      .next(new Wait('Past', { time: WaitTime.timestamp('2020-01-01T00:00:00Z') }))
      .next(task('B')),
  );
  await d.run({ workflowId: 'r2', input: { s: 0 } });
  expect(store.runOf('r2')).toMatchObject({ status: 'SUCCEEDED' });
  expect(d.scheduler.schedules).toEqual([]);
});

test('every execution of the node before a Wait schedules under one name: one wake-up', async () => {
  // A is not the entry: the driver delivers the start once, every later event three times.
  const { d, store } = driver(task('S').next(task('A')).next(new Wait('W', { time: WaitTime.duration(60) })).next(task('B')));
  await d.run({ workflowId: 'r3', input: {} }, { deliveries: 3 });
  expect(store.runOf('r3')).toMatchObject({ status: 'SUCCEEDED' });
  expect(d.scheduler.schedules.length).toBeGreaterThanOrEqual(3);
  expect(new Set(d.scheduler.schedules.map((s) => s.name)).size).toBe(1);
});

/** Runs with items that expire, the clock moved to each wake-up plus two handoffs (Scheduler's and Lambda's delivery). */
async function longWait(definition: IChainable, input: Json) {
  let clock = Date.now();
  jest.spyOn(Date, 'now').mockImplementation(() => clock);
  const { d, store } = driver(definition, SHORT, new MemoryStore({ expires: true }));
  d.scheduler.beforeWake = (s) => {
    clock = Math.max(clock, s.at + 2 * 65_000);
  };
  await d.run({ workflowId: 'long', input });
  return { d, store, now: () => Math.floor(clock / 1000) };
}

test('a 1-day wait with 65 s retention: the run record and the input by reference outlive it, and the run ends', async () => {
  const { d, store } = await longWait(task('A').next(new Wait('W', { time: WaitTime.duration(86_400) })).next(task('B')), { big: 'x'.repeat(150_000) });
  expect(store.expired.filter((k) => k.startsWith('run#'))).toEqual([]);
  expect(store.runOf('long')).toMatchObject({ status: 'SUCCEEDED' });
  // The input went by reference (150 KB: a start request holds at most 204 KB), and was still there a day later.
  expect(d.scheduler.schedules[0]?.event.unum.inputs[0]).toEqual({ ref: expect.stringMatching(/^ckpt#/) });
  expect(store.ttls.get(runKey({ workflow: 'waits', workflowId: 'long' }))).toBeGreaterThan(Math.floor((d.scheduler.schedules[0]?.at ?? 0) / 1000));
});

test('waits of a day inside a Map\'s items with 65 s retention: the fan-in and the arrived branches outlive them', async () => {
  const items = new Map('Each', { itemsPath: '$.items' }).itemProcessor(new Wait('W', { time: WaitTime.secondsPath('$.s'), outputPath: '$.n' }).next(task('I')));
  const { store } = await longWait(task('A').next(items).next(task('Z')), { items: [{ s: 10, n: 1 }, { s: 86_400, n: 2 }, { s: 2 * 86_400, n: 3 }] });
  expect(store.runOf('long')).toMatchObject({ status: 'SUCCEEDED', result: '[1,2,3]' });
  expect(store.calls.renewShard).toBeGreaterThan(0);
});
