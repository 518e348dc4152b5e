/**
 * The Approval example end to end on the local engine, with its own approver
 * (examples/approval/approver.ts) reading the task token from the approvals
 * inbox, as a user's approval tool would: approved, the claim is paid;
 * rejected, the run fails with the Fail state's error; unanswered, the
 * approver's day runs out. The engine's time scale makes the 1-day wait and
 * the 1-day timeout 8.6 s each. The approved run is also measured as `unum
 * cost` measures it: what each mechanism used.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { ExamplesStack } from '../../examples/app';
import { type Approver, localApprover } from '../../examples/approval/approver';
import type { ExpenseClaim } from '../../examples/approval/handlers';
import { measureRun } from '../../lib/cost/measure';
import { LocalEngine } from '../../lib/local/engine';
import { tokensHandedOut } from '../../lib/local/task-tokens';
import type { Json } from '../../runtime/contract/ir';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';
import { engineDynamoDb } from '../support/test-dynamodb';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

/** A day takes 8.6 s. */
const TIME_SCALE = 0.0001;
const RUN_WAIT = { timeoutMs: 120_000 };

let outdir: string;
let engine: LocalEngine;
let approver: Approver;

beforeAll(async () => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-approval-'));
  const app = new App({ outdir });
  new ExamplesStack(app, 'UnumExamples');
  app.synth();
  engine = await LocalEngine.fromCloudAssembly(outdir, { timeScale: TIME_SCALE, ...engineDynamoDb() });
  approver = localApprover(engine);
});

afterAll(async () => {
  approver?.close();
  await engine?.stop();
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

const claim = (claimId: string): ExpenseClaim => ({
  ...(JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'approval', 'input.json'), 'utf8')) as ExpenseClaim),
  claimId,
});
const start = (c: ExpenseClaim): string => engine.startRun('Approval', c as unknown as Json);

test('approved: the run waits a day, hands its token to the inbox, waits for the answer, then pays the claim', async () => {
  const c = claim('exp-approve');
  const id = start(c);
  const request = await approver.pending(c.claimId);
  expect(request.claim).toEqual(c);
  expect(engine.emulator.timeline.of(id).some((e) => e.node === 'Pay')).toBe(false);
  // The day's wait: Scheduler was asked to wake HoldOneDay at least a day later.
  const wakeUps = engine.traffic.of(id).filter((call) => call.call.operation === 'CreateSchedule' && /-HoldOneDay:d[0-9a-f]{20}"/.test(call.request));
  expect(wakeUps).toHaveLength(1);
  const [schedule] = wakeUps;
  const at = /^at\((.*)\)$/.exec((JSON.parse(schedule.request) as { ScheduleExpression: string }).ScheduleExpression)?.[1] as string;
  expect(Date.parse(`${at}Z`) - schedule.at).toBeGreaterThanOrEqual(86_400_000);
  // The token the engine saw written is the one the handler put in the inbox.
  expect(tokensHandedOut(engine.traffic.of(id), engine.app.functions)).toEqual([request.token]);

  await approver.answer(request, { approved: true, approver: 'a-007' });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({
    status: 'SUCCEEDED',
    result: { claimId: 'exp-approve', employee: 'e-311', paidCents: 18450, approver: 'a-007', reference: 'pay-exp-approve' },
  });
  await expect(approver.pending(c.claimId, 0)).rejects.toThrow(/no approval request for claim exp-approve/);

  // The answer deleted the timeout's schedule: it never fires (and the run is idle without it).
  await engine.idle(id);
  const timeline = engine.emulator.timeline.of(id);
  expect(timeline.filter((e) => e.node === 'AskApprover').map((e) => e.identity.replace(/^.*@/, ''))).toEqual(['0[]', 'task:success:0']);
  expect(timeline.filter((e) => e.node === 'Pay')).toHaveLength(1);

  const measured = measureRun({ executions: timeline, calls: engine.traffic.of(id), functions: engine.app.functions, userCodeMs: new Map(), callLatencyMs: 5 });
  expect(measured.mechanisms).toMatchObject({
    waits: { schedules: 1, executions: 1 },
    // The timeout's schedule was created and deleted before it fired: not billed.
    callbacks: { waitingRecords: 1, waitingRecordWriteUnits: 1, schedules: 0, responses: 1, completions: 1 },
  });
  expect(measured.mechanisms.runRecord.reads).toBeGreaterThanOrEqual(1);
  expect(measured.unum.scheduledInvocations).toBe(1);
  // The task-response function's invocation is counted on top of the run's own executions.
  expect(measured.unum.lambdaRequests).toBe(timeline.length + 1);
});

test('rejected: the run fails with the Rejected state\'s error, and nothing is paid', async () => {
  const c = claim('exp-reject');
  const id = start(c);
  await approver.answer(await approver.pending(c.claimId), { approved: false, approver: 'a-007', note: 'not a business expense' });
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'FAILED', error: { error: 'ExpenseRejected', cause: 'the approver rejected the claim' } });
  expect(engine.emulator.timeline.of(id).some((e) => e.node === 'Pay')).toBe(false);
  await engine.idle(id);
});

test('unanswered: after the approver\'s day the run fails with ApprovalTimedOut', async () => {
  const c = claim('exp-silence');
  const id = start(c);
  await approver.pending(c.claimId);
  expect(await engine.waitForRun(id, RUN_WAIT)).toMatchObject({ status: 'FAILED', error: { error: 'ApprovalTimedOut', cause: 'the approver did not answer within a day' } });
  expect(engine.emulator.timeline.of(id).some((e) => e.node === 'Pay')).toBe(false);
});
