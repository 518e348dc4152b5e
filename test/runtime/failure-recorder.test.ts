import { createFailureRecorder, type FailureRecord, identify } from '../../runtime/failure-recorder';
import { MemoryStore } from '../support/memory-store';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => {
  jest.restoreAllMocks();
  delete process.env.UNUM_ENTRY_NODE;
  delete process.env.UNUM_FAILURE_QUEUE_URL;
  delete process.env.UNUM_FAILURE_TOPIC_ARN;
  delete process.env.UNUM_RUN_RETENTION;
});

const SETTINGS = { runRetentionSeconds: 86400, history: false };

const record = (requestPayload: unknown, responsePayload: FailureRecord['responsePayload'] = { errorType: 'TypeError', errorMessage: 'bad' }): FailureRecord => ({
  version: '1.0',
  timestamp: '2026-11-21T00:00:00Z',
  requestContext: { requestId: 'req-42', functionArn: 'arn:aws:lambda:us-east-1:1:function:stack-wf-B:$LATEST', condition: 'RetriesExhausted', approximateInvokeCount: 3 },
  requestPayload,
  responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
  responsePayload,
});

test('identifies workflow and node from an envelope, a start request, or the request id', () => {
  process.env.UNUM_ENTRY_NODE = 'Entry';
  expect(identify(record({ unum: { workflowId: 'w1', node: 'B' } }))).toEqual({ workflowId: 'w1', node: 'B' });
  expect(identify(record({ workflowId: 'w2', input: 1 }))).toEqual({ workflowId: 'w2', node: 'Entry' });
  expect(identify(record({ input: 1 }))).toEqual({ workflowId: 'req-42', node: 'Entry' });
  expect(identify(record({ anything: 1 }))).toEqual({ workflowId: 'req-42', node: 'Entry' });
  expect(identify(record({ unum: { workflowId: 'bad id', node: 'B' } }))).toEqual({ node: 'B' });
});

test('sets the run FAILED with node, error and cause, only if it is still running', async () => {
  const store = new MemoryStore();
  await store.startRun('w1', 't', 0);
  const rec = createFailureRecorder(store, SETTINGS);
  await rec(record({ unum: { workflowId: 'w1', node: 'B' } }));
  expect(store.runs.get('w1')).toMatchObject({ status: 'FAILED', error: { node: 'B', error: 'TypeError', cause: 'bad' } });
  await store.startRun('w2', 't', 0);
  await store.finishRun('w2', { status: 'SUCCEEDED', result: '1' }, 't', 0);
  await rec(record({ unum: { workflowId: 'w2', node: 'B' } }));
  expect(store.runs.get('w2')).toMatchObject({ status: 'SUCCEEDED' });
});

test('without a response payload the condition is the error (event too old)', async () => {
  const store = new MemoryStore();
  const r = { ...record({ unum: { workflowId: 'w3', node: 'C' } }, null), requestContext: { ...record(null).requestContext, condition: 'EventAgeExceeded' } };
  await createFailureRecorder(store, SETTINGS)(r);
  expect(store.runs.get('w3')).toMatchObject({ status: 'FAILED', error: { node: 'C', error: 'EventAgeExceeded', cause: expect.stringMatching(/Lambda gave up/) } });
});

test('forwarding to a topic without the SNS client fails with a clear error after recording', async () => {
  process.env.UNUM_FAILURE_TOPIC_ARN = 'arn:aws:sns:us-east-1:1:t';
  const store = new MemoryStore();
  await expect(createFailureRecorder(store, SETTINGS)(record({ unum: { workflowId: 'w4', node: 'B' } }))).rejects.toThrow(/@aws-sdk\/client-sns is not available/);
  expect(store.runs.get('w4')).toMatchObject({ status: 'FAILED' });
});

test('without settings the recorder reads the run retention from its environment, and names a missing one', async () => {
  const store = new MemoryStore();
  await expect(createFailureRecorder(store)(record({ unum: { workflowId: 'w5', node: 'B' } }))).rejects.toThrow(/UNUM_RUN_RETENTION must be the run retention in seconds, got ''/);
  expect(store.runs.get('w5')).toBeUndefined();
  process.env.UNUM_RUN_RETENTION = '3600';
  await createFailureRecorder(store)(record({ unum: { workflowId: 'w5', node: 'B' } }));
  expect(store.runs.get('w5')).toMatchObject({ status: 'FAILED' });
});
