/**
 * A run waiting on a callback Task, as a user meets it on the local engine:
 * the client's `waitingTasks` and `inspect`, `unum status` (which Task,
 * since when, its token, the command that answers it), that command run as
 * printed, `unum local run` telling once how to answer from another shell,
 * and the CLI's exit codes around it (`unum stop` on a stopped run, an
 * unknown workflow before any engine starts, `unum cost` without
 * `--task-success` when a run reaches a callback Task).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { UsageError } from '../../lib/cli/argv';
import { main as costMain } from '../../lib/cli/cost';
import { main as localMain } from '../../lib/cli/local';
import { useCallbackEngine } from '../support/callback-engine';
import { runClientCommand, runClientCommandOnEngine } from '../support/cli';
import { DEPLOYMENT_ID_PATTERN } from '../../runtime/contract/ir';

jest.setTimeout(300_000);

const APP = path.join(__dirname, 'support', 'waiting-app');
/** Callback timeouts here are a day: 864 s at this scale, beyond any test. */
const TIME_SCALE = 0.01;
const RUN_WAIT = { timeoutMs: 120_000 };

const callbacks = useCallbackEngine(APP, 'waiting-callbacks', TIME_SCALE);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-waiting-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));


const unum = (...argv: string[]) => runClientCommandOnEngine(callbacks.engine(), [...argv, '--app', callbacks.outDir, '--workflow', 'Approval']);

test('waitingTasks, inspect and unum status name the waiting Task and its token; the printed command answers it', async () => {
  const engine = callbacks.engine();
  const client = callbacks.client('Approval');
  expect(client.callbackTasks).toEqual(['Ask']);
  const before = Date.now();
  const id = engine.startRun('Approval', { order: 1 });
  const token = await callbacks.handedOut(id);

  const waiting = await client.waitingTasks(id);
  expect(waiting).toEqual([{ node: 'Ask', iteration: 0, since: expect.any(String), heartbeats: 0, taskToken: token }]);
  expect(Date.parse(waiting[0].since)).toBeGreaterThanOrEqual(before - 1000);
  expect((await client.inspect(id)).waiting).toEqual(waiting);

  const status = await unum('status', id);
  expect(status.code).toBe(0);
  const { deployment } = await client.status(id);
  expect(deployment).toMatch(DEPLOYMENT_ID_PATTERN);
  expect(status.out).toContain(`status      RUNNING\ndeployment  ${deployment}\n`);
  expect(status.out).toContain(`waiting   callback Task Ask since ${waiting[0].since}\ntoken     ${token}\n`);
  const answer = /^answer +(unum task-success .*)$/m.exec(status.out)?.[1];
  expect(answer).toBe(`unum task-success ${token} --output <result.json> --workflow Approval --app ${callbacks.outDir}`);
  expect(JSON.parse((await unum('status', id, '--json')).out)).toMatchObject({ status: 'RUNNING', waiting });
  expect((await unum('inspect', id)).out).toContain(`waiting   callback Task Ask since ${waiting[0].since}`);

  // The printed command, as a user pastes it with a result file.
  const result = path.join(scratch, 'result.json');
  fs.writeFileSync(result, '{"approved": true}');
  const argv = (answer as string).split(' ').slice(1).map((a) => (a === '<result.json>' ? result : a));
  expect(await runClientCommandOnEngine(engine, argv)).toMatchObject({ code: 0, out: 'task completed\n' });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'SUCCEEDED', result: { approval: { approved: true } } });
  expect(await client.waitingTasks(id)).toEqual([]);
  expect((await client.inspect(id)).waiting).toBeUndefined();
  expect((await unum('status', id)).out).not.toContain('waiting');
});

test('a heartbeat shows in the waiting Task', async () => {
  const id = callbacks.engine().startRun('Heartbeat', { order: 2 });
  const token = await callbacks.handedOut(id);
  const client = callbacks.client('Heartbeat');
  await client.sendTaskHeartbeat(token);
  expect(await client.waitingTasks(id)).toEqual([expect.objectContaining({ node: 'Ask', heartbeats: 1, taskToken: token })]);
  await client.sendTaskSuccess(token, { ok: true });
});

test('unum stop: exit 0 when it stops the run, 1 when the run was stopped already', async () => {
  const id = callbacks.engine().startRun('Approval', { order: 3 });
  await callbacks.handedOut(id);
  expect(await unum('stop', id)).toMatchObject({ code: 0, err: '' });
  const again = await unum('stop', id, '--json');
  expect([again.code, again.err]).toEqual([1, `unum: run ${id} had finished already (ABORTED): nothing was stopped\n`]);
  expect(JSON.parse(again.out)).toMatchObject({ workflowId: id, status: 'ABORTED' });
});

describe('unum local run and unum cost', () => {
  let err = '';
  let out = '';
  beforeEach(() => {
    err = '';
    out = '';
    jest.spyOn(process.stderr, 'write').mockImplementation((s) => { err += String(s); return true; });
    jest.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
  });
  afterEach(() => jest.restoreAllMocks());

  test('an unknown workflow is rejected before any engine starts, listing the known ones', async () => {
    const input = path.join(scratch, 'order.json');
    fs.writeFileSync(input, '{"order": 4}');
    await expect(localMain(['run', 'Aproval', '--input', input, '--app', callbacks.outDir])).rejects.toThrow(UsageError);
    await expect(localMain(['run', 'Aproval', '--input', input, '--app', callbacks.outDir])).rejects.toThrow(/no workflow 'Aproval' in .* \(have: .*Approval.*\)/);
    await expect(costMain(['Aproval', '--input', input, '--app', callbacks.outDir])).rejects.toThrow(/no workflow 'Aproval'/);
    expect(err).not.toContain('starting the local engine');
  });

  test('local run says once which Task waits and how to answer it; the printed commands answer it from outside', async () => {
    const input = path.join(scratch, 'order.json');
    fs.writeFileSync(input, '{"order": 5}');
    const running = localMain(['run', 'Approval', '--input', input, '--app', callbacks.outDir, '--workflow-id', 'local-run-5']);
    for (let i = 0; i < 2400 && !err.includes('unum task-success'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(err).toContain('run local-run-5 waits on callback Task Ask since ');
    const exports = Object.fromEntries([...err.matchAll(/^ {2}export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
    expect(Object.keys(exports)).toEqual(expect.arrayContaining(['AWS_ENDPOINT_URL_LAMBDA', 'AWS_ENDPOINT_URL_DYNAMODB']));
    const command = /^ {2}(unum task-success .*)$/m.exec(err)?.[1] as string;
    expect(command).toMatch(new RegExp(`^unum task-success u2\\.\\S+ --output <result\\.json> --app ${path.relative(process.cwd(), callbacks.outDir)} --workflow Approval$`));
    const result = path.join(scratch, 'local-result.json');
    fs.writeFileSync(result, '{"approved": "from another shell"}');
    // Another shell: the exported variables, then the command.
    const saved = { ...process.env };
    Object.assign(process.env, exports);
    try {
      const answered = await runClientCommand(command.split(' ').slice(1).map((a) => (a === '<result.json>' ? result : a)));
      expect(answered).toMatchObject({ code: 0, out: 'task completed\n' });
    } finally {
      process.env = saved;
    }
    expect(await running).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ order: 5, approval: { approved: 'from another shell' }, shipped: true });
    expect(err.match(/waits on callback Task/g)).toHaveLength(1);
  });

  test('cost without --task-success: a usage error once a run reaches a callback Task, naming it', async () => {
    const input = path.join(scratch, 'order.json');
    fs.writeFileSync(input, '{"order": 6}');
    await expect(costMain(['Approval', '--runs', '1', '--input', input, '--app', callbacks.outDir])).rejects.toThrow(/^run \S+ of Approval waits on callback Task Ask: give --task-success <output.json> to complete its task tokens$/);
  });
});
