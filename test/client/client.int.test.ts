import { UnumClient, UnumRunFailedError, UnumRunNotFinishedError, UnumWaitTimeoutError, UnumClientError } from '../../lib/client';
import { createTable, LocalDynamo, RuntimeWriter, startDynamo, WORKFLOW } from './support/dynamodb';
import { LambdaStub, startLambdaStub } from './support/lambda-stub';
import { RUN_WAIT_MS } from '../support/load';

let dynamo: LocalDynamo;
let lambda: LambdaStub;
let table: string;
let writer: RuntimeWriter;
let client: UnumClient;
/** What the stub's entry function does with a start request: set per test. */
let onStart: (req: { input: unknown; workflowId: string }) => Promise<void>;

beforeAll(async () => {
  dynamo = await startDynamo();
  lambda = await startLambdaStub({ 'wf-Entry': (p) => onStart(p as { input: unknown; workflowId: string }) });
});
afterAll(async () => {
  await lambda?.stop();
  await dynamo?.stop();
});
beforeEach(async () => {
  table = await createTable(dynamo.client);
  writer = new RuntimeWriter(dynamo.client, table);
  client = UnumClient.forWorkflow({ entryFunction: 'wf-Entry', table, workflow: WORKFLOW, lambda: lambda.client, dynamodb: dynamo.client });
  // Like the runtime's entry: the first start of an id writes RUNNING, later ones are duplicates.
  onStart = (req) => writer.startRun(req.workflowId).catch(() => undefined);
  lambda.invocations.length = 0;
});

describe('start', () => {
  test('invokes the entry\'s live alias asynchronously with a start request and a generated id', async () => {
    const id = await client.start({ a: 1 });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lambda.invocations).toEqual([{ functionName: 'wf-Entry', qualifier: 'live', invocationType: 'Event', payload: { input: { a: 1 }, workflowId: id } }]);
  });

  test('rejects an id that does not match WORKFLOW_ID_PATTERN, before invoking', async () => {
    await expect(client.start(1, { workflowId: 'has space' })).rejects.toThrow(/invalid workflow id 'has space'/);
    await expect(client.start(1, { workflowId: 'x'.repeat(129) })).rejects.toThrow(UnumClientError);
    expect(lambda.invocations).toHaveLength(0);
  });

  test('a second start with the id of an existing run returns it without invoking', async () => {
    await writer.startRun('order-1');
    expect(await client.start({ other: true }, { workflowId: 'order-1' })).toBe('order-1');
    expect(lambda.invocations).toHaveLength(0);
  });

  test('concurrent starts with the same id make one run', async () => {
    // Like the runtime: the entry's conditional checkpoint put picks one execution's value;
    // duplicates use the stored one. Here the entry is also the terminal node.
    onStart = async (req) => {
      await writer.startRun(req.workflowId).catch(() => undefined);
      const won = await writer.put({ pk: { S: `ckpt#entry-${req.workflowId}` }, v: { S: JSON.stringify(req.input) } }, 'attribute_not_exists(pk)')
        .then(() => true, () => false);
      if (won) await writer.succeed(req.workflowId, req.input);
    };
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => client.start({ i }, { workflowId: 'same' })));
    expect(new Set(ids)).toEqual(new Set(['same']));
    const status = await client.wait('same', { timeoutMs: RUN_WAIT_MS, pollIntervalMs: 20 });
    expect(status.status).toBe('SUCCEEDED');
    const { i } = (await client.result('same')) as { i: number };
    expect(lambda.invocations.map((inv) => (inv.payload as { input: { i: number } }).input.i)).toContain(i);
  });

  test('names the function and the run when the invoke fails', async () => {
    const missing = UnumClient.forWorkflow({ entryFunction: 'nope', table, workflow: WORKFLOW, lambda: lambda.client, dynamodb: dynamo.client });
    await expect(missing.start(1, { workflowId: 'r1' })).rejects.toThrow(/starting run r1: invoking nope:live failed/);
  });
});

describe('status and result', () => {
  test('NOT_FOUND for an unknown run; result says it is not started or expired', async () => {
    expect(await client.status('ghost')).toEqual({ workflowId: 'ghost', status: 'NOT_FOUND' });
    await expect(client.result('ghost')).rejects.toThrow(UnumRunNotFinishedError);
    await expect(client.result('ghost')).rejects.toThrow(/run ghost not found/);
  });

  test('RUNNING: status with startedAt; result throws', async () => {
    await writer.startRun('r', '2026-11-22T00:00:00.000Z');
    expect(await client.status('r')).toEqual({ workflowId: 'r', status: 'RUNNING', startedAt: '2026-11-22T00:00:00.000Z' });
    await expect(client.result('r')).rejects.toThrow(/run r has not finished yet \(RUNNING\)/);
  });

  test('SUCCEEDED with the result inline', async () => {
    await writer.startRun('r');
    await writer.succeed('r', { total: 42, items: ['a'] });
    const s = await client.status('r');
    expect(s.status).toBe('SUCCEEDED');
    expect(Date.parse(s.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(s.startedAt!));
    expect(await client.result('r')).toEqual({ total: 42, items: ['a'] });
  });

  test('SUCCEEDED with the result by reference to a checkpoint', async () => {
    await writer.startRun('big');
    const value = { blob: 'x'.repeat(50_000) };
    await writer.succeed('big', value, 'AbCdEf0123');
    expect(await client.result('big')).toEqual(value);
  });

  test('a result checkpoint that is gone is a clear error', async () => {
    await writer.startRun('gone');
    await writer.succeed('gone', 1, 'Ref1');
    await writer.expire('Ref1');
    await expect(client.result('gone')).rejects.toThrow('run gone: result checkpoint ckpt#Ref1 is gone (expired or deleted)');
  });

  test('FAILED: status carries node, error and cause; result throws UnumRunFailedError', async () => {
    await writer.startRun('bad');
    await writer.fail('bad', { node: 'Charge', error: 'CardDeclined', cause: 'insufficient funds' });
    expect(await client.status('bad')).toMatchObject({ status: 'FAILED', error: { node: 'Charge', error: 'CardDeclined', cause: 'insufficient funds' } });
    const err = await client.result('bad').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnumRunFailedError);
    expect((err as Error).message).toBe('run bad failed at node Charge: CardDeclined (insufficient funds)');
  });

  test("FAILED by a handler's error: the message shows the errorMessage of the Lambda error document, runError the whole cause", async () => {
    const cause = JSON.stringify({ errorType: 'CardDeclined', errorMessage: 'insufficient funds', trace: ['CardDeclined: insufficient funds', '    at charge (index.js:1:1)'] });
    await writer.startRun('lambda');
    await writer.fail('lambda', { node: 'Charge', error: 'CardDeclined', cause });
    const err = (await client.result('lambda').catch((e: unknown) => e)) as UnumRunFailedError;
    expect(err.message).toBe('run lambda failed at node Charge: CardDeclined (insufficient funds)');
    expect(err.runError?.cause).toBe(cause);
  });

  test('an error stored as a JSON string and epoch-millisecond times are read too', async () => {
    await writer.put({
      pk: { S: 'run#wf#s' }, status: { S: 'FAILED' }, startedAt: { N: '1763769600000' }, finishedAt: { N: '1763769601' },
      error: { S: JSON.stringify({ node: 'A', error: 'States.NoChoiceMatched' }) },
    });
    expect(await client.status('s')).toEqual({
      workflowId: 's', status: 'FAILED', startedAt: '2025-11-22T00:00:00.000Z', finishedAt: '2025-11-22T00:00:01.000Z',
      error: { node: 'A', error: 'States.NoChoiceMatched' },
    });
  });
});

describe('wait', () => {
  test('waits through NOT_FOUND and RUNNING until SUCCEEDED, reporting progress', async () => {
    setTimeout(() => void writer.startRun('w'), 150);
    setTimeout(() => void writer.succeed('w', 'done'), 400);
    const seen: string[] = [];
    const s = await client.wait('w', { pollIntervalMs: 20, onProgress: (st) => seen.push(st.status) });
    expect(s.status).toBe('SUCCEEDED');
    expect(seen[0]).toBe('NOT_FOUND');
    expect(seen).toContain('RUNNING');
    expect(seen[seen.length - 1]).toBe('SUCCEEDED');
  });

  test('returns a FAILED status without throwing', async () => {
    await writer.startRun('f');
    await writer.fail('f', { node: 'B', error: 'Boom' });
    expect(await client.wait('f')).toMatchObject({ status: 'FAILED', error: { node: 'B', error: 'Boom' } });
  });

  test('times out with an error naming the run and its last status', async () => {
    await writer.startRun('slow');
    const began = Date.now();
    const err = await client.wait('slow', { timeoutMs: 300, pollIntervalMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnumWaitTimeoutError);
    expect((err as Error).message).toBe('run slow did not finish within 300 ms (last status RUNNING)');
    expect(Date.now() - began).toBeLessThan(1500);
  });

  test('an AbortSignal stops the wait at once, with its reason', async () => {
    await writer.startRun('stop');
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(new Error('user pressed ^C')), 100);
    const began = Date.now();
    await expect(client.wait('stop', { signal: ctl.signal, pollIntervalMs: 10_000 })).rejects.toThrow('user pressed ^C');
    expect(Date.now() - began).toBeLessThan(1000);
    await expect(client.wait('stop', { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});

describe('startAndWait', () => {
  test('returns the id and the result', async () => {
    onStart = async (req) => {
      await writer.startRun(req.workflowId);
      await writer.succeed(req.workflowId, { echoed: req.input });
    };
    expect(await client.startAndWait('hi', { workflowId: 'sw', pollIntervalMs: 20 })).toEqual({ workflowId: 'sw', result: { echoed: 'hi' } });
  });

  test('throws UnumRunFailedError for a failed run', async () => {
    onStart = async (req) => {
      await writer.startRun(req.workflowId);
      await writer.fail(req.workflowId, { node: 'Entry', error: 'Nope' });
    };
    await expect(client.startAndWait(1, { pollIntervalMs: 20 })).rejects.toThrow(/failed at node Entry: Nope/);
  });
});
