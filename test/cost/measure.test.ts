import type { LocalFunction } from '../../lib/local/assembly';
import type { TimelineEntry } from '../../lib/local/timeline';
import type { CallRecord } from '../../lib/local/call-records';
import type { NodeIR } from '../../runtime/contract/ir';
import { averageRuns, measureRun } from '../../lib/cost/measure';
import { runFinish, runStart } from '../../runtime/contract/table';

const ir = (node: string, kind: 'user' | 'pass', choices = 0): NodeIR => ({
  version: 2, workflow: 'W', node, deployment: 'd0123456789abcdef0123', entry: node === 'A', handler: kind === 'user' ? { kind, export: node } : { kind },
  instructions: Array.from({ length: choices }, () => ({ op: 'choice' as const, state: 'Check', rules: [] })),
  settings: { inlineLimitBytes: 32768, invokeConcurrency: 64, checkpointTtlSeconds: 1, runRetentionSeconds: 1, timeoutSeconds: 30, handoffSeconds: 1 },
  functionNames: {},
});
const fn = (name: string, memoryMb: number, nodeIr?: NodeIR): [string, LocalFunction] =>
  [name, { functionName: name, memoryMb, environment: { UNUM_TABLE: 't' }, ...(nodeIr ? { ir: nodeIr } : {}) } as unknown as LocalFunction];
const functions = new Map([fn('f-A', 1024, ir('A', 'user', 1)), fn('f-P', 512, ir('P', 'pass')), fn('f-fail', 128)]);

const exec = (id: string, functionName: string, identity: string, start: number, end: number, duplicate = false): TimelineEntry =>
  ({ executionId: id, functionName, identity, requestId: id, attempt: 1, duplicate, start, end, workflowId: 'r' });
const call = (executionId: string, service: 'dynamodb' | 'lambda' | 'scheduler', operation: string, request: object, status: number | undefined, response?: object): CallRecord =>
  ({ exec: { executionId } as CallRecord['exec'], call: { service, operation, label: operation, occurrence: 0, index: 0 },
    request: JSON.stringify(request), fault: status === undefined ? 'crash-before' : 'none', at: 0,
    ...(status === undefined ? {} : { status }), ...(response ? { response: JSON.stringify(response) } : {}) });

const evidence = {
  functions,
  executions: [
    exec('e1', 'f-A', 'A#0', 0, 100),
    exec('e2', 'f-A', 'A#0', 150, 230, true), // a duplicate delivery of A: billed on unum only
    exec('e3', 'f-P', 'P#0', 300, 310),
  ],
  calls: [
    call('e1', 'dynamodb', 'PutItem', { TableName: 't', Item: { pk: { S: 'ckpt#a' }, v: { S: '1' } } }, 200, {}),
    call('e1', 'lambda', 'Invoke', {}, 202),
    call('e2', 'dynamodb', 'GetItem', { TableName: 't', Key: { pk: { S: 'ckpt#a' } }, ConsistentRead: true }, 200, { Item: { pk: { S: 'ckpt#a' } } }),
    call('e3', 'dynamodb', 'PutItem', { TableName: 't', Item: { pk: { S: 'x' } } }, undefined), // dropped before DynamoDB
  ],
  userCodeMs: new Map([['e1', 40], ['e2', 0], ['e3', 0]]),
};

test('wall times: every execution billed on unum; Step Functions runs each invocation once', () => {
  const m = measureRun(evidence);
  // unum: 3 requests; GB-s = 0.100 s * 1 GB + 0.080 * 1 + 0.010 * 0.5 = 0.185
  expect(m.unum).toEqual({ lambdaRequests: 3, lambdaGbSeconds: expect.closeTo(0.185, 12), readUnits: 1, writeUnits: 1, scheduledInvocations: 0 });
  // SFN: A (1 state + 1 choice) + P (1 state) = 3 transitions; one task (P is a Pass state) of 40 ms at 1 GB = 0.04 GB-s;
  // Express: wall time from 0 to 310 ms
  expect(m.stepFunctions).toEqual({ stateTransitions: 3, taskRequests: 1, taskGbSeconds: expect.closeTo(0.04, 12), expressDurationMs: 310 });
  expect(m.invokes).toBe(1);
});

test('the runs index: one write unit at the run\'s start, counted in the write units and apart; none at its end', () => {
  const run = { workflow: 'W', workflowId: 'r' };
  const m = measureRun({ ...evidence, calls: [
    call('e1', 'dynamodb', 'PutItem', { TableName: 't', ...runStart(run, '2026-11-23T00:00:00.000Z', 99) }, 200, {}),
    call('e3', 'dynamodb', 'UpdateItem', { TableName: 't', ...runFinish(run, { status: 'SUCCEEDED', result: '1' }, '2026-11-23T00:00:01.000Z', 99) }, 200, {}),
  ] });
  expect(m.unum.writeUnits).toBe(1 + 1 + 1);
  expect(m.indexWriteUnits).toBe(1);
  expect(averageRuns([m, measureRun(evidence)]).indexWriteUnits).toBe(0.5);
});

test('a handler\'s own table (an approval inbox) is user work: only the workflow\'s table is metered as unum\'s', () => {
  const m = measureRun({ ...evidence, calls: [
    ...evidence.calls,
    call('e1', 'dynamodb', 'PutItem', { TableName: 'inbox', Item: { pk: { S: 'claim-1' } } }, 200, {}),
    call('e1', 'dynamodb', 'BatchGetItem', { RequestItems: { inbox: { Keys: [{ pk: { S: 'claim-1' } }] } } }, 200, { Responses: { inbox: [] } }),
  ] });
  expect(m.unum).toEqual(measureRun(evidence).unum);
});

test('modelled durations: user code + latency per call', () => {
  const m = measureRun({ ...evidence, callLatencyMs: 5 });
  // e1: 40 + 2 calls * 5 = 50 ms at 1 GB = 0.05; e2: 0 + 1 * 5 = 5 ms at 1 GB = 0.005;
  // e3: 0 + 1 * 5 (a call was made, though dropped) = 5 ms at 0.5 GB = 0.0025; total 0.0575
  expect(m.unum.lambdaGbSeconds).toBeCloseTo(0.0575, 12);
  // Express: the tasks' user code, 40 ms
  expect(m.stepFunctions.expressDurationMs).toBe(40);
});

test('averages field by field', () => {
  const a = measureRun(evidence);
  const b = measureRun({ ...evidence, executions: evidence.executions.slice(0, 1) });
  const avg = averageRuns([a, b]);
  expect(avg.unum.lambdaRequests).toBe(2);
  expect(avg.stepFunctions.stateTransitions).toBe(2.5);
});

test('a Wait: each schedule created is one Scheduler invocation; a create refused as taken is none, and neither is DynamoDB capacity', () => {
  const m = measureRun({
    ...evidence,
    calls: [
      ...evidence.calls,
      call('e1', 'scheduler', 'CreateSchedule', { ScheduleExpression: 'at(2027-01-01T00:00:00)' }, 200, {}),
      call('e2', 'scheduler', 'CreateSchedule', { ScheduleExpression: 'at(2027-01-01T00:00:00)' }, 409, {}),
    ],
  });
  expect(m.unum).toMatchObject({ scheduledInvocations: 1, readUnits: 1, writeUnits: 1 });
  expect(m.byOperation.CreateSchedule).toBeUndefined();
});

test('by mechanism: a Wait\'s schedule and the execution it woke; a callback\'s waiting record, timeout schedule, response and completions; run-record reads', () => {
  const envelope = JSON.stringify({ unum: { workflowId: 'r', node: 'W', iteration: 0, fanOut: [] } });
  const taskEvent = (kind: string): string => JSON.stringify({ unumTask: { token: 'u1.x', [kind]: kind === 'timeout' ? 'States.Timeout' : {} } });
  const arn = (name: string): string => `arn:aws:lambda:us-east-1:123456789012:function:${name}`;
  const withMechanisms = new Map([
    ...functions,
    fn('f-W', 1024, ir('W', 'pass')),
    fn('f-T', 1024, ir('T', 'user')),
    ['f-resp', { functionName: 'f-resp', memoryMb: 256, environment: { UNUM_TASK_FUNCTIONS: JSON.stringify({ T: 'f-T' }) } } as unknown as LocalFunction] as const,
  ]);
  const m = measureRun({
    functions: withMechanisms,
    executions: [
      exec('e1', 'f-A', 'A#0', 0, 100),
      exec('ew', 'f-W', 'f-W@0[]', 200, 210),
      exec('et', 'f-T', 'f-T@0[]', 300, 310),
      exec('es', 'f-T', 'f-T@task:success:0', 400, 420),
      exec('eo', 'f-T', 'f-T@task:timeout', 500, 505),
    ],
    calls: [
      call('e1', 'scheduler', 'CreateSchedule', { Target: { Arn: arn('f-W'), Input: envelope } }, 200, {}),
      call('ew', 'dynamodb', 'PutItem', { TableName: 't', Item: { pk: { S: 'ckpt#w' } } }, 200, {}),
      call('ew', 'dynamodb', 'GetItem', { TableName: 't', Key: { pk: { S: 'run#W#r' } } }, 200, { Item: { pk: { S: 'run#W#r' } } }),
      call('et', 'dynamodb', 'PutItem', { TableName: 't', Item: { pk: { S: 'task#inv' }, sec: { S: 's' } } }, 200, {}),
      call('et', 'scheduler', 'CreateSchedule', { Target: { Arn: arn('f-T'), Input: taskEvent('timeout') } }, 200, {}),
      call('es', 'dynamodb', 'GetItem', { TableName: 't', Key: { pk: { S: 'task#inv' } }, ConsistentRead: true }, 200, { Item: { pk: { S: 'task#inv' } } }),
      call('es', 'dynamodb', 'PutItem', { TableName: 't', Item: { pk: { S: 'ckpt#t' } } }, 200, {}),
      call('eo', 'dynamodb', 'GetItem', { TableName: 't', Key: { pk: { S: 'ckpt#t' } }, ConsistentRead: true }, 200, { Item: { pk: { S: 'ckpt#t' } } }),
    ],
    userCodeMs: new Map(['e1', 'ew', 'et', 'es', 'eo'].map((id) => [id, 0])),
    callLatencyMs: 5,
  });
  // The Wait node's execution: no user code, 2 calls of 5 ms at 1 GB.
  expect(m.mechanisms.waits).toEqual({ schedules: 1, executions: 1, gbSeconds: expect.closeTo(0.01, 12), readUnits: 0.5, writeUnits: 1 });
  expect(m.mechanisms.callbacks).toMatchObject({ waitingRecords: 1, waitingRecordWriteUnits: 1, schedules: 1, responses: 1, completions: 2, completionReadUnits: 2, completionWriteUnits: 1 });
  // The response waited for the Task's 2-call execution (2 * 5 ms, no user code) and made its one invoke: 15 ms at 256 MB.
  expect(m.mechanisms.callbacks.responseGbSeconds).toBeCloseTo(0.015 / 4, 12);
  expect(m.mechanisms.runRecord).toEqual({ reads: 1, readUnits: 0.5 });
  // The task-response invocation is no execution of the run: added to unum's requests.
  expect(m.unum).toMatchObject({ lambdaRequests: 6, scheduledInvocations: 2 });
  expect(averageRuns([m, m]).mechanisms).toEqual(m.mechanisms);
  // On Step Functions the callback Task is one state, entered once: A (1 + its Choice), W, T; its response executions are none.
  expect(m.stepFunctions).toMatchObject({ stateTransitions: 4, taskRequests: 2 });

  // A completion that deleted the timeout's schedule before it fired: neither billed nor counted as a callback schedule.
  const deleted = measureRun({
    functions: withMechanisms,
    executions: [exec('et', 'f-T', 'f-T@0[]', 300, 310), exec('es', 'f-T', 'f-T@task:success:0', 400, 420)],
    calls: [
      call('et', 'scheduler', 'CreateSchedule', { Target: { Arn: arn('f-T'), Input: taskEvent('timeout') } }, 200, {}),
      call('es', 'scheduler', 'DeleteSchedule', {}, 200, {}),
    ],
    userCodeMs: new Map([['et', 0], ['es', 0]]),
  });
  expect(deleted.unum.scheduledInvocations).toBe(0);
  expect(deleted.mechanisms.callbacks.schedules).toBe(0);
});
