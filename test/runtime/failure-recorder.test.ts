import { createFailureRecorder as createRecorder } from '../../runtime/entry/failure-recorder';
import { type FailureRecord, identify } from '../../runtime/contract/failure-record';
import { encodeTaskToken } from '../../runtime/contract/task-token';
import { MemoryStore } from '../support/memory-store';
import { sealed, testEnvelopeKey } from '../support/envelope-key';
import type { Envelope } from '../../runtime/contract/ir';

/** The recorder with the test's envelope key (the real one reads it from the table). */
const createFailureRecorder = (...[store, workflow, settings, options]: Parameters<typeof createRecorder>): ReturnType<typeof createRecorder> =>
  createRecorder(store, workflow, settings, { envelopeKey: testEnvelopeKey, ...options });

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => {
  jest.restoreAllMocks();
  delete process.env.UNUM_ENTRY_NODE;
  delete process.env.UNUM_FAILURE_QUEUE_URL;
  delete process.env.UNUM_FAILURE_TOPIC_ARN;
  delete process.env.UNUM_RUN_RETENTION;
  delete process.env.UNUM_WORKFLOW;
});

const SETTINGS = { runRetentionSeconds: 86400, history: false };
const DEPLOYMENT = `d${'a'.repeat(20)}`;

const record = (requestPayload: unknown, responsePayload: FailureRecord['responsePayload'] = { errorType: 'TypeError', errorMessage: 'bad' }): FailureRecord => ({
  version: '1.0',
  timestamp: '2026-11-21T00:00:00Z',
  requestContext: { requestId: 'req-42', functionArn: 'arn:aws:lambda:us-east-1:1:function:stack-wf-B:$LATEST', condition: 'RetriesExhausted', approximateInvokeCount: 3 },
  // What failed was sent by a function of the workflow: an envelope is sealed.
  requestPayload: typeof requestPayload === 'object' && requestPayload !== null && 'unum' in requestPayload ? sealed(requestPayload as Envelope) : requestPayload,
  responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
  responsePayload,
});

test('identifies workflow and node from an envelope, a start request, or the request id', () => {
  process.env.UNUM_ENTRY_NODE = 'Entry';
  expect(identify(record({ unum: { workflow: 'W', workflowId: 'w1', node: 'B' } }), 'W')).toEqual({ workflowId: 'w1', node: 'B' });
  expect(identify(record({ unum: { workflowId: 'w1', node: 'B' } }), 'W')).toEqual({ workflowId: 'w1', node: 'B' });
  expect(identify(record({ workflowId: 'w2', input: 1 }), 'W')).toEqual({ workflowId: 'w2', node: 'Entry' });
  expect(identify(record({ input: 1 }), 'W')).toEqual({ workflowId: 'req-42', node: 'Entry' });
  expect(identify(record({ anything: 1 }), 'W')).toEqual({ workflowId: 'req-42', node: 'Entry' });
  expect(identify(record({ unum: { workflowId: 'bad id', node: 'B' } }), 'W')).toEqual({ node: 'B' });
});

test('a malformed start request or another workflow\'s envelope names no run, as the handler reads them', () => {
  process.env.UNUM_ENTRY_NODE = 'Entry';
  // Start-like but not exactly {input, workflowId?}: the handler rejected it, so it started no run to fail.
  expect(identify(record({ workflowId: 'victim', input: 1, traceId: 't' }), 'W')).toEqual({ node: 'Entry' });
  expect(identify(record({ workflowId: 'victim' }), 'W')).toEqual({ node: 'Entry' });
  expect(identify(record({ unum: { workflow: 'Other', workflowId: 'victim', node: 'B' } }), 'W')).toEqual({ node: 'B' });
});

test('a callback Task\'s failed timeout check names the run and Task of its token; a token of another workflow or a bad one names no run', () => {
  process.env.UNUM_ENTRY_NODE = 'Entry';
  const token = (workflow: string): string => encodeTaskToken({ workflow, workflowId: 'run-7', node: 'Approve', invocation: 'i'.repeat(43), secret: 's'.repeat(43), deployment: DEPLOYMENT });
  expect(identify(record({ unumTask: { token: token('W'), timeout: 'States.Timeout' } }), 'W')).toEqual({ workflowId: 'run-7', node: 'Approve' });
  expect(identify(record({ unumTask: { token: token('Other'), timeout: 'States.Timeout' } }), 'W')).toEqual({ node: 'Entry' });
  expect(identify(record({ unumTask: { token: 'forged', timeout: 'States.Timeout' } }), 'W')).toEqual({ node: 'Entry' });
});

test('sets the run FAILED with node, error and cause, only if it is still running', async () => {
  const store = new MemoryStore();
  await store.startRun({ workflow: 'W', workflowId: 'w1' }, 't', 0);
  const rec = createFailureRecorder(store, 'W', SETTINGS);
  await rec(record({ unum: { workflow: 'W', workflowId: 'w1', node: 'B' } }));
  // The cause is Lambda's error document as JSON, as Step Functions reports a failed Lambda task.
  expect(store.runOf('w1')).toMatchObject({ status: 'FAILED', error: { node: 'B', error: 'TypeError', cause: '{"errorType":"TypeError","errorMessage":"bad"}' } });
  await store.startRun({ workflow: 'W', workflowId: 'w2' }, 't', 0);
  await store.finishRun({ workflow: 'W', workflowId: 'w2' }, { status: 'SUCCEEDED', result: '1' }, 't', 0);
  await rec(record({ unum: { workflow: 'W', workflowId: 'w2', node: 'B' } }));
  expect(store.runOf('w2')).toMatchObject({ status: 'SUCCEEDED' });
});

test('the cause is the whole error document of the handler; a States.* error of the runtime keeps its message', async () => {
  const store = new MemoryStore();
  const rec = createFailureRecorder(store, 'W', SETTINGS);
  const trace = ['CardDeclined: no funds', '    at charge (/var/task/index.js:3:9)'];
  await store.startRun({ workflow: 'W', workflowId: 'w5' }, 't', 0);
  await rec(record({ unum: { workflow: 'W', workflowId: 'w5', node: 'B' } }, { errorType: 'CardDeclined', errorMessage: 'no funds', trace }));
  expect(JSON.parse(store.runOf('w5')?.error?.cause ?? '')).toEqual({ errorType: 'CardDeclined', errorMessage: 'no funds', trace });
  await store.startRun({ workflow: 'W', workflowId: 'w6' }, 't', 0);
  await rec(record({ unum: { workflow: 'W', workflowId: 'w6', node: 'B' } }, { errorType: 'States.Timeout', errorMessage: 'node B: handler timed out' }));
  expect(store.runOf('w6')).toMatchObject({ error: { error: 'States.Timeout', cause: 'node B: handler timed out' } });
});

test('names the state the failed node runs (from the recorder spec), else the node, as the runtime\'s own failure paths do', async () => {
  const store = new MemoryStore();
  const rec = createFailureRecorder(store, 'W', SETTINGS, { spec: { deployment: '', nodes: { 'Check.Join': { state: 'Check' } }, functionNames: {} } });
  await store.startRun({ workflow: 'W', workflowId: 'w7' }, 't', 0);
  await rec(record({ unum: { workflow: 'W', workflowId: 'w7', node: 'Check.Join', iteration: 0, fanOut: [] } }));
  expect(store.runOf('w7')?.error).toMatchObject({ node: 'Check.Join', state: 'Check', error: 'TypeError' });
  await store.startRun({ workflow: 'W', workflowId: 'w8' }, 't', 0);
  await rec(record({ unum: { workflow: 'W', workflowId: 'w8', node: 'B' } }));
  expect(store.runOf('w8')?.error).toMatchObject({ node: 'B', state: 'B' });
});

test('a function timeout is States.Timeout, as Step Functions names a task that ran past its TimeoutSeconds', async () => {
  const store = new MemoryStore();
  await store.startRun({ workflow: 'W', workflowId: 'w9' }, 't', 0);
  await createFailureRecorder(store, 'W', SETTINGS)(record({ unum: { workflow: 'W', workflowId: 'w9', node: 'B' } }, { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 40.00 seconds' }));
  expect(store.runOf('w9')?.error).toMatchObject({ error: 'States.Timeout', cause: expect.stringContaining('Task timed out') as unknown });
});

test('without a response payload the condition is the error (event too old)', async () => {
  const store = new MemoryStore();
  const r = { ...record({ unum: { workflowId: 'w3', node: 'C' } }, null), requestContext: { ...record(null).requestContext, condition: 'EventAgeExceeded' } };
  await createFailureRecorder(store, 'W', SETTINGS)(r);
  expect(store.runOf('w3')).toMatchObject({ status: 'FAILED', error: { node: 'C', error: 'EventAgeExceeded', cause: expect.stringMatching(/Lambda gave up/) } });
});

test('forwarding to a topic without the SNS client fails with a clear error after recording', async () => {
  process.env.UNUM_FAILURE_TOPIC_ARN = 'arn:aws:sns:us-east-1:1:t';
  const store = new MemoryStore();
  await expect(createFailureRecorder(store, 'W', SETTINGS)(record({ unum: { workflowId: 'w4', node: 'B' } }))).rejects.toThrow(/@aws-sdk\/client-sns is not available/);
  expect(store.runOf('w4')).toMatchObject({ status: 'FAILED' });
});

test('without settings the recorder reads the workflow and the run retention from its environment, and names a missing one', async () => {
  const store = new MemoryStore();
  await expect(createFailureRecorder(store)(record({ unum: { workflowId: 'w7', node: 'B' } }))).rejects.toThrow(/UNUM_WORKFLOW is not set/);
  process.env.UNUM_WORKFLOW = 'W';
  await expect(createFailureRecorder(store)(record({ unum: { workflowId: 'w7', node: 'B' } }))).rejects.toThrow(/UNUM_RUN_RETENTION must be the run retention in seconds, got ''/);
  expect(store.runOf('w7')).toBeUndefined();
  process.env.UNUM_RUN_RETENTION = '3600';
  await createFailureRecorder(store)(record({ unum: { workflowId: 'w7', node: 'B' } }));
  expect(store.runOf('w7')).toMatchObject({ status: 'FAILED' });
});

describe('a failure the recorder records is parked for a redrive (docs/architecture.md "Redrive")', () => {
  const spec = { deployment: '', nodes: {}, functionNames: {}, retention: { checkpointTtlSeconds: 7 * 86400, handoffSeconds: 3600 } };

  test('a raw start, as a start request naming its run, on the function (unqualified); the window from the retention', async () => {
    process.env.UNUM_ENTRY_NODE = 'Entry';
    const store = new MemoryStore();
    const before = Math.floor(Date.now() / 1000);
    await createFailureRecorder(store, 'W', SETTINGS, { spec })(record({ n: 1 }));
    expect(store.runOf('req-42')).toMatchObject({ status: 'FAILED' });
    const [[key, parked]] = [...store.parked];
    expect([...(store.redo.get('run#W#req-42') ?? [])]).toEqual([key.split('#')[3]]);
    expect(parked.functionName).toBe('arn:aws:lambda:us-east-1:1:function:stack-wf-B');
    expect(JSON.parse(parked.event)).toEqual({ workflowId: 'req-42', input: { n: 1 } });
    expect(parked.until).toBeGreaterThanOrEqual(before + 7 * 86400 - 2 * 3600);
  });

  test('an envelope as it was, its window from its lease; a spec without retention marks the run not redrivable', async () => {
    const store = new MemoryStore();
    const envelope = { unum: { v: 4, workflow: 'W', deployment: '', workflowId: 'w1', node: 'B', iteration: 0, fanOut: [], inputs: [{ value: 1 }], lease: 100000 } };
    await createFailureRecorder(store, 'W', SETTINGS, { spec })(record(envelope));
    // As it was received, its MAC included: a redrive re-sends it as its sender sealed it.
    expect([...store.parked.values()].map((p) => [JSON.parse(p.event), p.until])).toEqual([[sealed(envelope as Envelope), 100000 - 7200]]);
    const old = new MemoryStore();
    await createFailureRecorder(old, 'W', SETTINGS, { spec: { deployment: '', nodes: {}, functionNames: {} } })(record(envelope));
    expect(old.parked.size).toBe(0);
    expect(old.noRedrive.get('run#W#w1')).toMatch(/without the retention/);
  });

  test('on a deployment, the event is parked on the alias of its deployment, whatever qualifier Lambda reported; a start on the recorder\'s', async () => {
    const pinned = { ...spec, deployment: DEPLOYMENT };
    const older = `d${'b'.repeat(20)}`;
    const store = new MemoryStore();
    const envelope = { unum: { v: 4, workflow: 'W', deployment: older, workflowId: 'w1', node: 'B', iteration: 0, fanOut: [], inputs: [{ value: 1 }], lease: 100000 } };
    await createFailureRecorder(store, 'W', SETTINGS, { spec: pinned })(record(envelope));
    process.env.UNUM_ENTRY_NODE = 'Entry';
    await createFailureRecorder(store, 'W', SETTINGS, { spec: pinned })(record({ n: 1 }));
    expect([...store.parked.values()].map((p) => p.functionName).sort()).toEqual([
      `arn:aws:lambda:us-east-1:1:function:stack-wf-B:${DEPLOYMENT}`,
      `arn:aws:lambda:us-east-1:1:function:stack-wf-B:${older}`,
    ]);
  });

  test('an envelope of format 2 (before deployment pinning) fails its run, not redrivable: no deployment accepts it', async () => {
    const store = new MemoryStore();
    await createFailureRecorder(store, 'W', SETTINGS, { spec: { ...spec, deployment: DEPLOYMENT } })(record({ unum: { v: 2, workflow: 'W', workflowId: 'w2', node: 'B', iteration: 0, fanOut: [], inputs: [{ value: 1 }] } }));
    expect(store.runOf('w2')).toMatchObject({ status: 'FAILED', error: { node: 'B', error: 'TypeError' } });
    expect(store.parked.size).toBe(0);
    expect(store.noRedrive.get('run#W#w2')).toMatch(/format 2, from an unum-cdk before deployment pinning/);
  });
});
