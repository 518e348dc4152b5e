/**
 * Retry rules on callback Tasks' failures on the local engine (Lambda
 * emulator, Scheduler emulator, DynamoDB Local) through the real client: a
 * sent failure or a timeout that a rule matches runs the handler again with
 * a new token, and the old token is completed; exhausted attempts go to the
 * Catch rules or fail the run with the last error; an error no rule matches
 * is not retried; concurrent failures of one token decide one retry; a run
 * failed at a callback Task is redriven into the Task's next attempt, and
 * one that waited when the run failed elsewhere runs again on its recorded input.
 */
import * as fs from 'fs';
import * as path from 'path';
import { UnumTaskAlreadyCompletedError } from '../../lib/client';
import type { LocalEngine } from '../../lib/local/engine';
import { useCallbackEngine } from '../support/callback-engine';
import { decodeTaskToken } from '../../runtime/contract/task-token';
import { callFiles, type Call } from './callback-retry-app/handlers';

jest.setTimeout(300_000);

const APP = path.join(__dirname, 'callback-retry-app');
/** A 1-minute timeout (Scheduler asks for the next whole minute: 1-2 min) fires after 0.6-1.2 s; a 2-minute retry interval after 1.2-1.8 s; a day is 864 s, beyond any test. */
const TIME_SCALE = 0.01;
const RUN_WAIT = { timeoutMs: 120_000 };

const { engine: startedEngine, tokens, client } = useCallbackEngine(APP, 'callback-retry', TIME_SCALE);
let engine: LocalEngine;
beforeAll(() => {
  engine = startedEngine();
});

/** One token as the handler handed it out: first when, how many calls, and the input's `order` in the last call. */
interface Handed {
  readonly token: string;
  readonly at: number;
  readonly calls: number;
  readonly order?: unknown;
}

/** What the handler handed out for run `id` so far, one entry per token, in the order it handed the tokens out. */
function handedRecords(id: string): Handed[] {
  const calls = callFiles(tokens, id).map((f) => JSON.parse(fs.readFileSync(path.join(tokens, f), 'utf8')) as Call).sort((a, b) => a.at - b.at);
  const byToken = new Map<string, Handed>();
  for (const c of calls) {
    const before = byToken.get(c.token);
    byToken.set(c.token, { token: c.token, at: before?.at ?? c.at, calls: (before?.calls ?? 0) + 1, order: c.order });
  }
  return [...byToken.values()];
}

/** The tokens the handler handed out for run `id` so far, in order. */
const handedOut = (id: string): string[] => handedRecords(id).map((h) => h.token);

/** Waits until the handler handed out `n` tokens for run `id`; returns the last. */
async function attempt(id: string, n: number): Promise<string> {
  for (let i = 0; i < 1200 && handedOut(id).length < n; i++) await new Promise((r) => setTimeout(r, 50));
  const all = handedOut(id);
  expect(all).toHaveLength(n);
  return all[n - 1];
}

const invocationOf = (token: string): string => {
  const parts = decodeTaskToken(token);
  if (typeof parts === 'string') throw new Error(parts);
  return parts.invocation;
};

test('a sent failure a Retry rule matches runs the handler again with a new token; its success ends the run; the old token is completed', async () => {
  const c = client('Retry');
  const id = engine.startRun('Retry', { order: 'a' } as never);
  const first = await attempt(id, 1);
  await c.sendTaskFailure(first, 'Busy', 'try later');
  const second = await attempt(id, 2);
  expect(second).not.toBe(first);
  expect(decodeTaskToken(second)).toMatchObject({ workflow: 'Retry', workflowId: id, node: 'Ask' });
  expect(invocationOf(second)).not.toBe(invocationOf(first));
  // Late responses to the old token: answered, and they do not run the waiting second attempt's handler again.
  await expect(c.sendTaskSuccess(first, { stale: true })).rejects.toThrow(UnumTaskAlreadyCompletedError);
  await expect(c.sendTaskFailure(first, 'Busy', 'again')).rejects.toThrow(UnumTaskAlreadyCompletedError);
  expect((await c.status(id)).status).toBe('RUNNING');
  await c.sendTaskSuccess(second, { ok: 2 });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { order: 'a', approval: { ok: 2 }, shipped: true } });
  expect(handedRecords(id).map((h) => h.calls)).toEqual([1, 1]);
});

test('MaxAttempts exhausted: the Catch rule gets the last error (DSL); without a Catch the run fails with it (ASL)', async () => {
  const id = engine.startRun('Retry', { order: 'b' } as never);
  for (let n = 1; n <= 3; n++) await client('Retry').sendTaskFailure(await attempt(id, n), 'Busy', `attempt ${n}`);
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { order: 'b', error: { Error: 'Busy', Cause: 'attempt 3' } } });
  expect(handedOut(id)).toHaveLength(3);

  const asl = engine.startRun('AslRetry', { order: 'c' } as never);
  for (let n = 1; n <= 2; n++) await client('AslRetry').sendTaskFailure(await attempt(asl, n), 'Busy', `asl attempt ${n}`);
  expect(await engine.waitForRun(asl, RUN_WAIT)).toMatchObject({ status: 'FAILED', error: { node: 'Ask', error: 'Busy', cause: 'asl attempt 2' } });
  expect(handedOut(asl)).toHaveLength(2);
});

test('ASL lambda:invoke.waitForTaskToken with Retry: the second token\'s success is the result', async () => {
  const id = engine.startRun('AslRetry', { order: 'd' } as never);
  await client('AslRetry').sendTaskFailure(await attempt(id, 1), 'Busy', 'once');
  await client('AslRetry').sendTaskSuccess(await attempt(id, 2), { ok: true });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { order: 'd', approval: { ok: true }, shipped: true } });
});

test('an error no Retry rule matches is not retried: the Catch rule takes it at once', async () => {
  const id = engine.startRun('Retry', { order: 'e' } as never);
  await client('Retry').sendTaskFailure(await attempt(id, 1), 'Rejected', 'no');
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { order: 'e', error: { Error: 'Rejected', Cause: 'no' } } });
  expect(handedOut(id)).toHaveLength(1);
});

test('a retry interval longer than the in-process bound is a one-time schedule', async () => {
  const id = engine.startRun('Retry', { order: 'f' } as never);
  await client('Retry').sendTaskFailure(await attempt(id, 1), 'Later', 'in two minutes');
  const second = await attempt(id, 2);
  expect(engine.scheduler.fired.filter((f) => f.workflowId === id)).toHaveLength(1);
  await client('Retry').sendTaskSuccess(second, { ok: 'later' });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { approval: { ok: 'later' } } });
});

test('States.Timeout is retried: the second attempt gets its own token and timeout; the first attempt\'s timeout does not fail it', async () => {
  const c = client('TimeoutRetry');
  const id = engine.startRun('TimeoutRetry', { order: 'g' } as never);
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { timedOut: true } });
  const [first, second] = handedOut(id);
  expect(handedOut(id)).toHaveLength(2);
  expect(invocationOf(second)).not.toBe(invocationOf(first));
  await expect(c.sendTaskSuccess(first, { late: true })).rejects.toThrow(UnumTaskAlreadyCompletedError);
  await expect(c.sendTaskSuccess(second, { late: true })).rejects.toThrow(UnumTaskAlreadyCompletedError);
});

test('concurrent failures of one token decide one retry: one is answered completed, the others already completed, one new token', async () => {
  const c = client('Retry');
  const id = engine.startRun('Retry', { order: 'h' } as never);
  const first = await attempt(id, 1);
  const outcomes = await Promise.allSettled([1, 2, 3, 4].map((n) => c.sendTaskFailure(first, 'Busy', `racer ${n}`)));
  expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
  for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(UnumTaskAlreadyCompletedError);
  const second = await attempt(id, 2);
  await c.sendTaskSuccess(second, { ok: 'h' });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { approval: { ok: 'h' } } });
  expect(handedOut(id)).toHaveLength(2);
});

test('a redrive of a run failed at a callback Task runs it again with a new token, its Retry counts started over; old tokens stay completed', async () => {
  const c = client('AslRetry');
  const id = engine.startRun('AslRetry', { order: 'r' } as never);
  await c.sendTaskFailure(await attempt(id, 1), 'Busy', 'one');
  const second = await attempt(id, 2);
  await c.sendTaskFailure(second, 'Busy', 'two');
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'FAILED', error: { node: 'Ask', error: 'Busy', cause: 'two' } });
  // A late response while the run is FAILED: answered, and it parks nothing more than the failure did.
  await expect(c.sendTaskFailure(second, 'Busy', 'late')).rejects.toThrow(UnumTaskAlreadyCompletedError);
  expect(await c.redrive(id)).toMatchObject({ redriveCount: 1, resumed: 1 });
  const third = await attempt(id, 3);
  // A stale failure of an old token does not fail the redriven run.
  await expect(c.sendTaskFailure(second, 'Busy', 'stale')).rejects.toThrow(UnumTaskAlreadyCompletedError);
  expect((await c.status(id)).status).toBe('RUNNING');
  // MaxAttempts 1 was used before the redrive: this failure is retried all the same.
  await c.sendTaskFailure(third, 'Busy', 'three');
  await c.sendTaskSuccess(await attempt(id, 4), { ok: 'redriven' });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { order: 'r', approval: { ok: 'redriven' }, shipped: true } });
  expect(handedRecords(id).map((h) => h.calls)).toEqual([1, 1, 1, 1]);
});

test('a callback Task waiting when another branch failed the run: a response parks it; redriven, its handler runs again with the same token and its recorded input', async () => {
  const c = client('FailWhileWaiting');
  const id = engine.startRun('FailWhileWaiting', { order: 'w' } as never);
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'FAILED', error: { node: 'Boom', error: 'States.Runtime' } });
  const [token] = handedOut(id);
  await expect(c.sendTaskSuccess(token, { late: true })).rejects.toThrow(UnumTaskAlreadyCompletedError);
  expect(await c.redrive(id)).toMatchObject({ redriveCount: 1, resumed: 2 });
  // Boom fails the run again once Ask handed its token out a second time.
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'FAILED', error: { node: 'Boom' } });
  expect(handedRecords(id)).toEqual([expect.objectContaining({ token, calls: 2, order: 'w' })]);
});
