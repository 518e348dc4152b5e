/**
 * Stop and run timeout on the local engine (Lambda emulator, Scheduler
 * emulator, DynamoDB Local) through the real client and CLI: a run stopped
 * during a 1-day Wait or while a callback waits for its token stays ABORTED
 * and runs nothing more when the wake-up or the completion arrives, which
 * parks its invocation: redriven, the Wait's run goes on from there and succeeds; a
 * run past its timeout (the construct's `timeout`, ASL TimeoutSeconds)
 * becomes TIMED_OUT from the entry's schedule, and its later executions stop
 * (and park).
 */
import * as fs from 'fs';
import * as path from 'path';
import { UnumClientError, UnumTaskAlreadyCompletedError } from '../../lib/client';
import type { LocalEngine } from '../../lib/local/engine';
import { runClientCommandOnEngine } from '../support/cli';
import { useCallbackEngine } from '../support/callback-engine';
import type { CallRecord } from '../../lib/local/call-records';

jest.setTimeout(300_000);

const APP = path.join(__dirname, 'run-control-app');
/** A simulated day takes 8.64 s, an hour 0.36 s. */
const TIME_SCALE = 0.0001;

const { engine: startedEngine, outDir, tokens, client } = useCallbackEngine(APP, 'run-control', TIME_SCALE);
let engine: LocalEngine;
beforeAll(() => {
  engine = startedEngine();
});

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 2400; i++) {
    const found = probe();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const schedulesOf = (id: string): CallRecord[] => engine.traffic.of(id).filter((c) => c.call.operation === 'CreateSchedule' && c.status === 200);
/** Table writes and invokes by the executions of `node` in run `id`. */
const effectsOf = (id: string, node: string): CallRecord[] =>
  engine.traffic.of(id).filter((c) => c.exec.node === node && ['PutItem', 'UpdateItem', 'BatchWriteItem', 'Invoke', 'CreateSchedule'].includes(c.call.operation));
const nodesRun = (id: string): string[] => engine.emulator.timeline.of(id).map((e) => e.node ?? e.functionName);
/** A step that finds its run ended beside its commit (ABORTED, TIMED_OUT): its checkpoint, then its park item and the run record's parked set. */
const PARKED_AFTER_COMMIT = ['PutItem(ckpt)', 'UpdateItem(park)', 'UpdateItem(run)'];

test('a run stopped during a 1-day Wait is ABORTED; the wake-up invokes nothing, only parks; a second stop changes nothing; redriven, the run succeeds', async () => {
  const id = engine.startRun('Waiting', { n: 1 } as never);
  await until('the wake-up schedule', () => schedulesOf(id)[0]);
  const stopped = await client('Waiting').stop(id, { error: 'Cancelled', cause: 'the customer cancelled' });
  expect(stopped).toMatchObject({ workflowId: id, status: 'ABORTED', error: { error: 'Cancelled', cause: 'the customer cancelled' } });
  // The engine is idle once the scheduled wake-up fired and its execution ended.
  await engine.idle(id);
  expect(nodesRun(id)).toContain('OneDay');
  expect(nodesRun(id)).not.toContain('Ship');
  // The Wait's node reads the run record beside its commit: it finds the run ABORTED after its checkpoint is put, and parks for a redrive.
  expect(effectsOf(id, 'OneDay').map((c) => c.call.label)).toEqual(PARKED_AFTER_COMMIT);
  const again = await runClientCommandOnEngine(engine, ['stop', id, '--error', 'Again', '--app', outDir, '--workflow', 'Waiting', '--json']);
  // It had been stopped already: nothing changed, exit 1.
  expect(again).toMatchObject({ code: 1, err: `unum: run ${id} had finished already (ABORTED): nothing was stopped\n` });
  expect(JSON.parse(again.out)).toMatchObject({ status: 'ABORTED', error: { error: 'Cancelled' } });
  await expect(client('Waiting').result(id)).rejects.toThrow(`run ${id} was stopped: Cancelled (the customer cancelled)`);
  // As Step Functions redrives an aborted execution: the wake-up's invocation goes on, and the day is not waited again.
  expect(await client('Waiting').redrive(id)).toMatchObject({ workflowId: id, redriveCount: 1, resumed: 1 });
  expect(await engine.waitForRun(id, { timeoutMs: 120_000 })).toMatchObject({ status: 'SUCCEEDED', redriveCount: 1 });
  expect(await client('Waiting').result(id)).toEqual({ n: 1, prepared: true, shipped: true });
  expect(schedulesOf(id)).toHaveLength(1);
});

test('a run stopped while a callback waits: the completion is answered already completed and Ship never runs', async () => {
  const id = engine.startRun('Approval', { order: 7 } as never);
  const file = path.join(tokens, `${id}.json`);
  await until('the task token', () => (fs.existsSync(file) ? true : undefined));
  const { token } = JSON.parse(fs.readFileSync(file, 'utf8')) as { token: string };
  expect((await client('Approval').stop(id)).status).toBe('ABORTED');
  await expect(client('Approval').sendTaskSuccess(token, { approved: true })).rejects.toThrow(UnumTaskAlreadyCompletedError);
  await engine.idle(id);
  expect(nodesRun(id)).not.toContain('Ship');
  expect((await client('Approval').status(id)).status).toBe('ABORTED');
});

test('stopping a run that does not exist is an error that names it, and creates no record', async () => {
  await expect(client('Waiting').stop('no-such-run')).rejects.toThrow(UnumClientError);
  await expect(client('Waiting').stop('no-such-run')).rejects.toThrow(/run no-such-run of Waiting not found/);
  expect((await client('Waiting').status('no-such-run')).status).toBe('NOT_FOUND');
});

test('the construct\'s timeout: the entry schedules the deadline at the failure recorder once; the run becomes TIMED_OUT; the later wake-up stops', async () => {
  const id = engine.startRun('Deadline', { n: 2 } as never);
  const record = await engine.waitForRun(id, { timeoutMs: 120_000 });
  expect(record).toMatchObject({ status: 'TIMED_OUT', error: { error: 'States.Timeout', cause: 'the run did not finish within its timeout of 3600 s' } });
  await engine.idle(id);
  // Both target the run's deployment: `<function>:<deployment>`.
  const targets = schedulesOf(id).map((c) => (JSON.parse(c.request) as { Target: { Arn: string } }).Target.Arn.split(':').slice(-2).join(':'));
  const deployment = engine.workflow('Deadline').deployment;
  expect(targets.sort()).toEqual([`UnumRunControl-Deadline-OneDay:${deployment}`, `UnumRunControl-Deadline-unum-failure:${deployment}`]);
  expect(nodesRun(id)).toContain('OneDay');
  expect(nodesRun(id)).not.toContain('Ship');
  // The wake-up reads the run record beside its commit: it finds the run TIMED_OUT after its checkpoint is put, and parks for a redrive.
  expect(effectsOf(id, 'OneDay').map((c) => c.call.label)).toEqual(PARKED_AFTER_COMMIT);
  await expect(client('Deadline').result(id)).rejects.toThrow(`run ${id} timed out: States.Timeout`);
});

test('ASL top-level TimeoutSeconds: the run past it is TIMED_OUT', async () => {
  const id = engine.startRun('AslDeadline', { n: 3 } as never);
  const record = await engine.waitForRun(id, { timeoutMs: 120_000 });
  expect(record).toMatchObject({ status: 'TIMED_OUT', error: { error: 'States.Timeout', cause: 'the run did not finish within its timeout of 600 s' } });
  await engine.idle(id);
  expect(nodesRun(id)).not.toContain('Ship');
});
