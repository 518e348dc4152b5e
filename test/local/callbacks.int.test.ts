/**
 * Callback Tasks (task tokens) on the local engine (Lambda emulator,
 * Scheduler emulator, DynamoDB Local) through the real client and CLI: the
 * DSL and ASL approvals complete by sendTaskSuccess, a failure goes to the
 * Catch rule, concurrent and repeated completions commit once, a completion
 * after the timeout changes nothing, heartbeats keep a task alive, and a
 * forged token writes nothing.
 */
import * as fs from 'fs';
import * as path from 'path';
import { UnumTaskAlreadyCompletedError, UnumTaskTokenError } from '../../lib/client';
import type { LocalEngine } from '../../lib/local/engine';
import { runClientCommandOnEngine } from '../support/cli';
import { useCallbackEngine } from '../support/callback-engine';
import { invocationName } from '../../runtime/contract/naming';
import { checkpointKey, runResultWritten } from '../../runtime/contract/table';
import { decodeTaskToken, encodeTaskToken } from '../../runtime/contract/task-token';

jest.setTimeout(300_000);

const APP = path.join(__dirname, 'callback-app');
/** A 1-minute timeout (Scheduler asks for the next whole minute: 1-2 min) fires after 0.6-1.2 s; the others are a day (864 s), far beyond any test on a loaded machine. */
const TIME_SCALE = 0.01;
const RUN_WAIT = { timeoutMs: 120_000 };

const { engine: startedEngine, outDir, tokens, client } = useCallbackEngine(APP, 'callbacks', TIME_SCALE);
let engine: LocalEngine;
beforeAll(() => {
  engine = startedEngine();
});

interface Handed {
  readonly payloadToken?: string;
  readonly contextToken?: string;
  readonly input: Record<string, unknown>;
}

/** What the callback Task's handler handed out for run `id` (polled: the handler runs asynchronously). */
async function handedOut(id: string): Promise<Handed> {
  const file = path.join(tokens, `${id}.json`);
  for (let i = 0; i < 1200 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Handed;
}

async function start(workflow: string, order: unknown): Promise<{ id: string; token: string; handed: Handed }> {
  const id = engine.startRun(workflow, { order } as never);
  const handed = await handedOut(id);
  return { id, token: handed.payloadToken as string, handed };
}

/** Writes to the table by the run's executions (puts, updates, transactions), as the fault proxy saw them. */
const writes = (id: string): number => engine.traffic.of(id).filter((c) => /PutItem|UpdateItem|TransactWriteItems/.test(c.call.operation)).length;
/** Conditional puts of the checkpoint of top-level `node` in run `id` that took effect (a lost one answers 400). */
function committed(workflow: string, id: string, node: string): number {
  const key = checkpointKey(invocationName({ workflow, workflowId: id }, node, 0, []));
  return engine.traffic.of(id).filter((c) => c.call.operation === 'PutItem' && c.status === 200 && c.request.includes(`"${key}"`)).length;
}

/** The run's result writes that took effect: a terminal transition commits in the run record's final write (docs/architecture.md, "The terminal transition"). */
const resultCommits = (id: string): number =>
  engine.traffic.of(id).filter((c) => c.call.operation === 'UpdateItem' && c.status === 200 && runResultWritten(JSON.parse(c.request) as never) !== undefined).length;

/** Scheduler calls of `operation` in run `id` that took effect. */
const scheduleCalls = (id: string, operation: string): number => engine.traffic.of(id).filter((c) => c.call.operation === operation && c.status === 200).length;

/** Whether any execution of `node` made a call in run `id` (every execution reads before it runs user code). */
const ran = (id: string, node: string): boolean => engine.traffic.of(id).some((c) => c.exec.node === node);

test('DSL approval: the handler gets one token ($$.Task.Token and unum.taskToken), the run waits, sendTaskSuccess completes it', async () => {
  const { id, token, handed } = await start('Approval', { sku: 'a-1' });
  expect(handed.contextToken).toBe(token);
  expect(decodeTaskToken(token)).toMatchObject({ workflow: 'Approval', workflowId: id, node: 'Ask' });
  expect(handed.input).toEqual({ token, order: { sku: 'a-1' } });
  // Once the handler's execution ended, the run waits: nothing committed for Ask, nothing after it ran.
  const ended = (): boolean => engine.emulator.timeline.of(id).some((e) => e.node === 'Ask' && e.end !== undefined);
  for (let i = 0; i < 1200 && !ended(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(engine.emulator.timeline.of(id).filter((e) => e.node === 'Ask').map((e) => e.outcome)).toEqual(['ok']);
  expect(engine.emulator.timeline.of(id).filter((e) => e.node === 'Ship')).toEqual([]);
  expect(committed('Approval', id, 'Ask')).toBe(0);
  expect((await client('Approval').status(id)).status).toBe('RUNNING');
  await client('Approval').sendTaskSuccess(token, { approvedBy: 'ann' });
  const record = await engine.waitForRun(id, RUN_WAIT);
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: { order: { sku: 'a-1' }, approval: { approvedBy: 'ann' }, shipped: true } });
  expect(committed('Approval', id, 'Ask')).toBe(1);
  // The day-long timeout's schedule, created after the handler, is deleted by the completion: it never fires.
  expect(scheduleCalls(id, 'CreateSchedule')).toBe(1);
  expect(scheduleCalls(id, 'DeleteSchedule')).toBe(1);
});

test('ASL lambda:invoke.waitForTaskToken: the result is what sendTaskSuccess sent (no Payload wrapper), at ResultPath', async () => {
  const { id, token } = await start('AslApproval', { sku: 'b-2' });
  await client('AslApproval').sendTaskSuccess(token, { ok: true });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { order: { sku: 'b-2' }, approval: { ok: true }, shipped: true } });
});

test('sendTaskFailure goes to the Catch rule of its error name (DSL and ASL), with {Error, Cause} at its ResultPath', async () => {
  for (const workflow of ['Approval', 'AslApproval']) {
    const { id, token } = await start(workflow, { sku: 'c-3' });
    await client(workflow).sendTaskFailure(token, 'Rejected', 'out of stock');
    const record = await engine.waitForRun(id, RUN_WAIT);
    expect([workflow, record]).toMatchObject([workflow, { status: 'SUCCEEDED', result: { order: { sku: 'c-3' }, error: { Error: 'Rejected', Cause: 'out of stock' } } }]);
    expect([workflow, ran(id, 'Ship')]).toEqual([workflow, false]);
  }
});

test('an uncaught failure fails the run with the sent error', async () => {
  const { id, token } = await start('Approval', { sku: 'd-4' });
  await client('Approval').sendTaskFailure(token, 'Broken', 'the partner said no');
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'FAILED', error: { node: 'Ask', error: 'Broken', cause: 'the partner said no' } });
});

test('six concurrent completions of one token: exactly one commits, the others get "already completed"; a later one too', async () => {
  const { id, token } = await start('Approval', { sku: 'e-5' });
  const c = client('Approval');
  const outcomes = await Promise.allSettled([0, 1, 2, 3, 4].map((n) => c.sendTaskSuccess(token, { n })).concat(c.sendTaskFailure(token, 'Rejected', 'late')));
  const won = outcomes.flatMap((o, n) => (o.status === 'fulfilled' ? [n] : []));
  expect(won).toHaveLength(1);
  for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(UnumTaskAlreadyCompletedError);
  const record = await engine.waitForRun(id, RUN_WAIT);
  const winner = won[0] as number;
  expect(record).toMatchObject(winner === 5 ? { status: 'SUCCEEDED', result: { error: { Error: 'Rejected' } } } : { status: 'SUCCEEDED', result: { approval: { n: winner }, shipped: true } });
  await expect(c.sendTaskSuccess(token, { n: 9 })).rejects.toThrow(UnumTaskAlreadyCompletedError);
  expect(await engine.waitForRun(id, RUN_WAIT)).toEqual(record);
  expect(committed('Approval', id, 'Ask')).toBe(1);
  expect(resultCommits(id)).toBe(1);
  expect(ran(id, 'Ship')).toBe(winner !== 5);
});

test('a callback in every item of a Map: completed in reverse order, the Map\'s result keeps the items\' order', async () => {
  const id = engine.startRun('MapApproval', { items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] } as never);
  const items = await Promise.all(['a', 'b', 'c'].map((item) => handedOut(`${id}-${item}`)));
  const c = client('MapApproval');
  for (const [n, handed] of [...items.entries()].reverse()) await c.sendTaskSuccess(handed.payloadToken as string, { n });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: [{ id: 'a', answer: { n: 0 } }, { id: 'b', answer: { n: 1 } }, { id: 'c', answer: { n: 2 } }] });
});

test('an uncaught failure of a callback inside a Parallel fails the Parallel, whose Catch rule takes it', async () => {
  const { id, token } = await start('ParallelApproval', { sku: 'p-1' });
  await client('ParallelApproval').sendTaskFailure(token, 'Rejected', 'not this one');
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { order: { sku: 'p-1' }, error: { Error: 'Rejected', Cause: 'not this one' } } });
});

test('the timeout fails the task with States.Timeout (caught); a completion after it gets "already completed" and the result stays the timeout path\'s', async () => {
  const { id, token } = await start('ShortTimeout', { sku: 'f-6' });
  const record = await engine.waitForRun(id, RUN_WAIT);
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: { timedOut: true } });
  await expect(client('ShortTimeout').sendTaskSuccess(token, { late: true })).rejects.toThrow(UnumTaskAlreadyCompletedError);
  expect(await engine.waitForRun(id, RUN_WAIT)).toEqual(record);
  expect(committed('ShortTimeout', id, 'Ask')).toBe(1);
  expect(ran(id, 'Ship')).toBe(false);
  // The timeout's own schedule delivered it and deleted itself: the completion deletes nothing.
  expect(scheduleCalls(id, 'DeleteSchedule')).toBe(0);
});

test('heartbeats keep the task alive for several heartbeat intervals; without them it fails with States.HeartbeatTimeout', async () => {
  const alive = await start('Heartbeat', { sku: 'g-7' });
  const c = client('Heartbeat');
  // One interval (10 minutes, checked within the minute after) is 6-6.6 s here. Beat until the first check
  // (after the handler) and two checks after heartbeats fired: the task outlived one interval and more.
  const checks = (): number => engine.scheduler.fired.filter((f) => f.workflowId === alive.id).length;
  for (let i = 0; i < 400 && checks() < 3; i++) {
    await c.sendTaskHeartbeat(alive.token);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(checks()).toBeGreaterThanOrEqual(3);
  expect((await c.status(alive.id)).status).toBe('RUNNING');
  await c.sendTaskSuccess(alive.token, { done: true });
  expect(await engine.waitForRun(alive.id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { approval: { done: true }, shipped: true } });
  await expect(c.sendTaskHeartbeat(alive.token)).rejects.toThrow(UnumTaskAlreadyCompletedError);
  // The completion deleted the timeout's schedule and the first heartbeat check (fired already: nothing to delete).
  expect(scheduleCalls(alive.id, 'DeleteSchedule')).toBe(1);

  const silent = await start('Heartbeat', { sku: 'h-8' });
  expect(await engine.waitForRun(silent.id, RUN_WAIT)).toMatchObject({ status: 'FAILED', error: { node: 'Ask', error: 'States.HeartbeatTimeout' } });
});

test('a forged or malformed token gets a clear error and writes nothing', async () => {
  const { id, token } = await start('Approval', { sku: 'i-9' });
  const c = client('Approval');
  const before = writes(id);
  const parts = decodeTaskToken(token);
  if (typeof parts === 'string') throw new Error(parts);
  const forged = encodeTaskToken({ ...parts, secret: 'A'.repeat(43) });
  await expect(c.sendTaskSuccess(forged, { forged: true })).rejects.toThrow(UnumTaskTokenError);
  await expect(c.sendTaskSuccess(encodeTaskToken({ ...parts, node: 'Ship' }), {})).rejects.toThrow(/names no callback Task/);
  await expect(c.sendTaskFailure('not-a-token', 'X')).rejects.toThrow(/invalid task token: not a unum task token/);
  await expect(c.sendTaskHeartbeat(`${token}x`)).rejects.toThrow(UnumTaskTokenError);
  expect(writes(id)).toBe(before);
  expect((await c.status(id)).status).toBe('RUNNING');
  await c.sendTaskSuccess(token, { real: true });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { approval: { real: true } } });
});

test('unum task-success / task-failure / task-heartbeat against the engine', async () => {
  const unum = (...argv: string[]) => runClientCommandOnEngine(engine, [...argv, '--app', outDir, '--workflow', 'Approval'], '{"via": "cli"}');
  const ok = await start('Approval', { sku: 'j-10' });
  expect(await unum('task-heartbeat', ok.token)).toMatchObject({ code: 0, out: 'heartbeat sent\n' });
  expect(await unum('task-success', ok.token, '--output', '-')).toMatchObject({ code: 0, out: 'task completed\n' });
  expect(await engine.waitForRun(ok.id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { approval: { via: 'cli' } } });
  const late = await unum('task-failure', ok.token, '--error', 'Rejected');
  expect(late.code).toBe(1);
  expect(late.err).toMatch(/task already completed/);

  const no = await start('Approval', { sku: 'k-11' });
  expect((await unum('task-failure', no.token, '--error', 'Rejected', '--cause', 'cli says no')).code).toBe(0);
  expect(await engine.waitForRun(no.id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { error: { Error: 'Rejected', Cause: 'cli says no' } } });
  expect((await unum('task-success', no.token)).code).toBe(2);
});
