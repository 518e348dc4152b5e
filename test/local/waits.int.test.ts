/**
 * Waits on the local engine (Lambda emulator, Scheduler emulator, DynamoDB
 * Local), from the DSL and from ASL: a 1-day wait under a time scale, path
 * waits in a row, waits in a Map's items, a Wait that starts a workflow, a
 * timestamp already past, a bad path value; the node before a Wait that runs
 * twice schedules once; and the precision of the wake-ups.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LocalEngine } from '../../lib/local/engine';
import type { ExecutionInfo, FaultPlan } from '../../lib/local/fault-plan';
import { NO_EVENT_FAULT } from '../../lib/local/fault-plan';
import type { CallRecord } from '../../lib/local/call-records';
import { engineDynamoDb } from '../support/test-dynamodb';

jest.setTimeout(300_000);

const APP = path.join(__dirname, 'wait-app');
/** A simulated day takes 8.64 s. */
const TIME_SCALE = 0.0001;

let engine: LocalEngine;
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-waits-'));

beforeAll(async () => {
  engine = await LocalEngine.fromApp(APP, { outDir, timeScale: TIME_SCALE, ...engineDynamoDb() });
});
afterAll(async () => {
  await engine?.stop();
  fs.rmSync(outDir, { recursive: true, force: true });
});

async function run(workflow: string, input: unknown, workflowId?: string) {
  const id = engine.startRun(workflow, input as never, workflowId ? { workflowId } : {});
  const record = await engine.waitForRun(id, { timeoutMs: 120_000 });
  await engine.idle(id);
  return { id, record, calls: engine.traffic.of(id), timeline: engine.emulator.timeline.of(id) };
}

const creates = (calls: readonly CallRecord[]): CallRecord[] => calls.filter((c) => c.call.operation === 'CreateSchedule');

/** Seconds from the CreateSchedule call to the time it asked for (a whole minute: Scheduler's precision is 60 s). */
function requestedSeconds(c: CallRecord): number {
  const body = JSON.parse(c.request) as { ScheduleExpression: string };
  const at = /^at\((.*)\)$/.exec(body.ScheduleExpression)?.[1] as string;
  return (Date.parse(`${at}Z`) - c.at) / 1000;
}

test('a 1-day wait (DSL, Duration.days(1)) runs in seconds under the time scale, and the run goes on after it', async () => {
  const { record, calls, timeline } = await run('DayWait', { x: 1 });
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: { x: 1, before: true, after: true } });
  const [create, ...others] = creates(calls);
  expect(others).toEqual([]);
  expect(create.status).toBe(200);
  // at(...) is the first whole minute at least 1 day from the call.
  expect(requestedSeconds(create)).toBeGreaterThanOrEqual(86_400);
  expect(requestedSeconds(create)).toBeLessThanOrEqual(86_460);
  const request = JSON.parse(create.request) as Record<string, unknown>;
  expect(request).toMatchObject({ FlexibleTimeWindow: { Mode: 'OFF' }, ActionAfterCompletion: 'DELETE', ScheduleExpressionTimezone: 'UTC', GroupName: 'UnumWaits-DayWait-waits' });
  // The wake-up names the run's deployment: a deploy meanwhile does not change what it wakes.
  expect((request.Target as { Arn: string }).Arn).toMatch(new RegExp(`:function:UnumWaits-DayWait-OneDay:${engine.workflow('DayWait').deployment}$`));
  // The Wait's node ran only after its (scaled) due time.
  const fired = engine.scheduler.fired.filter((f) => f.workflowId === create.exec.workflowId);
  const woke = timeline.find((e) => e.node === 'OneDay');
  expect(fired).toHaveLength(1);
  expect((woke?.start ?? 0) - (fired[0]?.dueMs ?? Infinity)).toBeGreaterThanOrEqual(-2);
});

test('secondsPath then timestampPath (DSL), with OutputPath on the second Wait', async () => {
  const { record, calls } = await run('PathWaits', { s: 30 });
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: { n: 1, after: true } });
  const [bySeconds, byTimestamp] = creates(calls);
  expect(requestedSeconds(bySeconds)).toBeGreaterThanOrEqual(30);
  expect(requestedSeconds(bySeconds)).toBeLessThanOrEqual(90);
  // Until `at`, which Prepare set 60 s ahead (the first wait took milliseconds, scaled), rounded up to a minute.
  expect(requestedSeconds(byTimestamp)).toBeGreaterThan(25);
  expect(requestedSeconds(byTimestamp)).toBeLessThanOrEqual(121);
});

test('a path value that is not a wait fails the run with States.Runtime naming the node, the Wait and the field', async () => {
  const { record, calls } = await run('PathWaits', { s: 'soon' });
  expect(record).toMatchObject({
    status: 'FAILED',
    error: { error: 'States.Runtime', cause: expect.stringContaining('node Prepare: Wait BySeconds, field SecondsPath: "soon" at $.s is not a whole number of seconds') },
  });
  expect(creates(calls)).toEqual([]);
});

test('waits inside a Map: each item waits its own time; 0 s invokes at once', async () => {
  const { record, calls } = await run('MapWaits', { items: [{ s: 5, n: 1 }, { s: 3600, n: 2 }, { s: 0, n: 3 }] });
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: [2, 4, 6] });
  const requested = creates(calls).map(requestedSeconds).sort((a, b) => a - b);
  expect(requested).toHaveLength(2);
  expect(requested[0]).toBeGreaterThanOrEqual(5);
  expect(requested[0]).toBeLessThanOrEqual(65);
  expect(requested[1]).toBeGreaterThanOrEqual(3600);
  expect(requested[1]).toBeLessThanOrEqual(3660);
});

test('ASL: a Wait that starts the workflow (Seconds, InputPath), a Timestamp already past (OutputPath) invokes at once', async () => {
  const { record, calls } = await run('AslWaits', { payload: { v: 21 } });
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: 42 });
  const made = creates(calls);
  expect(made).toHaveLength(1);
  expect(requestedSeconds(made[0])).toBeGreaterThanOrEqual(10);
  expect(requestedSeconds(made[0])).toBeLessThanOrEqual(70);
});

test('the node before a Wait run again (a concurrent duplicate and a re-run) schedules the wake-up once; the Wait node runs once', async () => {
  const before = engine.workflow('DayWait').nodes.Before?.functionName as string;
  const duplicated: FaultPlan = {
    callFault: () => 'none',
    eventFault: (fn) => (fn === before ? { delayMs: 0, duplicate: 'concurrent' } : NO_EVENT_FAULT),
    rerunSucceeded: (exec: ExecutionInfo) => exec.functionName === before,
  };
  const id = 'wait-duplicates';
  engine.setFaultPlan(id, duplicated);
  const { record, calls, timeline } = await run('DayWait', { x: 2 }, id);
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: { x: 2, before: true, after: true } });
  const made = creates(calls);
  expect(made.length).toBeGreaterThanOrEqual(2);
  expect(made.filter((c) => c.status === 200)).toHaveLength(1);
  expect(made.filter((c) => c.status === 409).length).toBe(made.length - 1);
  expect(new Set(made.map((c) => c.call.label)).size).toBe(1);
  expect(engine.scheduler.fired.filter((f) => f.workflowId === id)).toHaveLength(1);
  expect(timeline.filter((e) => e.node === 'OneDay' && e.outcome === 'ok')).toHaveLength(1);
});

/**
 * Precision of the mechanism on the engine, over 40 waits an hour apart (360 ms apart on the engine's
 * clock, so wake-ups do not queue behind each other): how late the emulator's timer fires after the
 * point of the minute it planned, and how late the woken execution starts after the requested time.
 */
test('precision: no wake-up is early; lateness of the timer and of the woken execution', async () => {
  const items = Array.from({ length: 40 }, (_, i) => ({ s: 3600 * (i + 1), n: i }));
  const { id, record, timeline } = await run('MapWaits', { items });
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: items.map((i) => i.n * 2) });
  const fired = engine.scheduler.fired.filter((f) => f.workflowId === id).sort((a, b) => a.dueMs - b.dueMs);
  expect(fired).toHaveLength(40);
  const starts = timeline.filter((e) => e.node === 'Pause').map((e) => e.start).sort((a, b) => a - b);
  expect(starts).toHaveLength(40);
  const timerLate = fired.map((f) => f.firedMs - f.plannedMs).sort((a, b) => a - b);
  const startLate = fired.map((f, i) => (starts[i] as number) - f.dueMs).sort((a, b) => a - b);
  for (const late of [...timerLate, ...startLate]) expect(late).toBeGreaterThanOrEqual(-2);
  const q = (xs: number[], p: number): number => Math.round(xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] as number);
  console.log(`wake-up lateness over ${fired.length} waits (ms on the engine's clock, time scale ${TIME_SCALE}): timer after its planned point p50 ${q(timerLate, 0.5)} p99 ${q(timerLate, 0.99)} max ${q(timerLate, 1)}; execution start after the requested time p50 ${q(startLate, 0.5)} p99 ${q(startLate, 0.99)} max ${q(startLate, 1)}`);
});
