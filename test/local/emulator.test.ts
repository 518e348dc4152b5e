import * as path from 'path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ConflictException, CreateScheduleCommand, GetScheduleCommand, ResourceNotFoundException, SchedulerClient } from '@aws-sdk/client-scheduler';
import { DeleteMessageCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { readCloudAssembly, type LocalFunction } from '../../lib/local/assembly';
import { LambdaEmulator } from '../../lib/local/emulator';
import type { FaultPlan } from '../../lib/local/fault-plan';
import { FaultProxy } from '../../lib/local/fault-proxy';
import { FunctionRunner } from '../../lib/local/function-runner';
import { SchedulerEmulator } from '../../lib/local/scheduler-emulator';
import { SqsEmulator } from '../../lib/local/sqs-emulator';
import { Traffic } from '../../lib/local/call-records';

const FIXTURE = path.join(__dirname, 'fixtures', 'emulator-app');

describe('cloud assembly reader', () => {
  test('finds functions, queues, resolves env refs, reads async-invoke configs', () => {
    const app = readCloudAssembly(FIXTURE);
    const fail = app.functions.get('emu-fail');
    expect(fail).toMatchObject({
      handler: 'index.fail',
      timeoutSeconds: 3,
      memoryMb: 256,
      environment: { UNUM_TABLE: 'EmuStack-Table' },
      async: { retryAttempts: 2, maxEventAgeSeconds: 21600, onFailure: { function: 'emu-recorder' } },
      assetDir: path.join(FIXTURE, 'asset.fns'),
    });
    expect(app.functions.get('emu-recorder')?.async).toEqual({ retryAttempts: 2, maxEventAgeSeconds: 21600 });
    expect(app.functions.get('emu-young')?.async).toMatchObject({ maxEventAgeSeconds: 60 });
    expect(app.tables).toEqual([{
      stack: 'EmuStack', logicalId: 'Table', tableName: 'EmuStack-Table', ttlAttribute: 'ttl',
      // The keys as the template declares them: the engine creates the table with them.
      schema: { AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] },
    }]);
    expect(app.queues).toEqual(['EmuStack-DeadLetters']);
    // A queue's URL is not known before the engine listens: its Ref is left out of the environment.
    expect(app.functions.get('emu-lost')).toMatchObject({
      environment: { UNUM_TABLE: 'EmuStack-Table' },
      async: { retryAttempts: 1, onFailure: { queue: 'EmuStack-DeadLetters' } },
    });
    expect(app.functions.get('emu-lost')?.environment).not.toHaveProperty('QUEUE_URL');
    expect(app.workflows.size).toBe(0);
  });
});

describe('Lambda Invoke emulator', () => {
  const logs: string[] = [];
  let delayEvents = 0;
  const plan: FaultPlan = {
    callFault: () => 'none',
    eventFault: () => ({ delayMs: delayEvents, duplicate: 'none' }),
    rerunSucceeded: () => false,
  };
  let endpoint = '';
  const runner = new FunctionRunner({ get endpoint() { return endpoint; }, region: 'us-east-1', onLog: (line) => logs.push(line) });
  const app = readCloudAssembly(FIXTURE);
  const queues = new SqsEmulator(app.queues);
  const emulator = new LambdaEmulator(app.functions, runner, { timeScale: 0.0005, planFor: () => plan, sendToQueue: (q, body) => queues.send(q, body) });
  const scheduler = new SchedulerEmulator({ timeScale: 0.0005, pending: emulator.pending, deliver: (name, input) => emulator.accept(app.functions.get(name) as LocalFunction, input) });
  const proxy = new FaultProxy({ dynamoEndpoint: 'http://127.0.0.1:9', emulator, runner, sqs: queues, scheduler, traffic: new Traffic(), planFor: () => undefined, timeoutHoldMs: 1 });
  let lambda: LambdaClient;
  let sqs: SQSClient;
  let schedulerClient: SchedulerClient;
  let queueUrl: string;

  beforeAll(async () => {
    endpoint = await proxy.start();
    const client = { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, maxAttempts: 1 };
    lambda = new LambdaClient(client);
    sqs = new SQSClient(client);
    schedulerClient = new SchedulerClient(client);
    queueUrl = `${endpoint}/000000000000/EmuStack-DeadLetters`;
  });
  afterAll(async () => {
    emulator.stop();
    scheduler.stop();
    queues.stop();
    await runner.close();
    await proxy.stop();
    lambda.destroy();
    sqs.destroy();
    schedulerClient.destroy();
  });

  const invoke = (FunctionName: string, payload: unknown, extra: Partial<{ InvocationType: 'Event' | 'DryRun'; Qualifier: string }> = {}) =>
    lambda.send(new InvokeCommand({ FunctionName, Payload: Buffer.from(JSON.stringify(payload)), ...extra }));
  const text = (p: Uint8Array | undefined): string => Buffer.from(p ?? []).toString('utf8');

  test('RequestResponse returns the result; ARNs and $LATEST resolve', async () => {
    const out = await invoke('arn:aws:lambda:us-east-1:000000000000:function:emu-echo', { a: 1 }, { Qualifier: '$LATEST' });
    expect(out.StatusCode).toBe(200);
    expect(out.FunctionError).toBeUndefined();
    expect(JSON.parse(text(out.Payload))).toEqual({ a: 1 });
  });

  test('function errors are reported as Unhandled with errorType and errorMessage', async () => {
    const out = await invoke('emu-fail', {});
    expect(out.FunctionError).toBe('Unhandled');
    expect(JSON.parse(text(out.Payload))).toMatchObject({ errorType: 'BoomError', errorMessage: 'boom' });
  });

  test('unknown functions and qualifiers are ResourceNotFoundException; DryRun is 204', async () => {
    await expect(invoke('nope', {})).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await expect(invoke('emu-echo', {}, { Qualifier: '7' })).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    expect((await invoke('emu-echo', {}, { InvocationType: 'DryRun' })).StatusCode).toBe(204);
  });

  test('each function runs with its own environment and a Lambda context', async () => {
    const out = JSON.parse(text((await invoke('emu-env', {})).Payload));
    expect(out).toMatchObject({ table: 'EmuStack-Table', region: 'us-east-1', functionName: 'emu-env' });
    expect(out.dynamo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/w\/[a-z0-9]+$/);
    expect(out.remaining).toBeGreaterThan(2000);
    expect(out.remaining).toBeLessThanOrEqual(3000);
  });

  test('a timed-out execution is killed', async () => {
    const started = Date.now();
    const out = await invoke('emu-sleep', { ms: 5000 });
    expect(out.FunctionError).toBe('Unhandled');
    expect(JSON.parse(text(out.Payload))).toMatchObject({ errorType: 'Sandbox.Timedout' });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  test('Event: 202, retried as configured with a stable request id, then the on-failure destination', async () => {
    logs.length = 0;
    const out = await invoke('emu-fail', { workflowId: 'wf-retry', input: 1 }, { InvocationType: 'Event' });
    expect(out.StatusCode).toBe(202);
    await emulator.pending.idle('wf-retry');
    const runs = emulator.timeline.of('wf-retry');
    const failRuns = runs.filter((e) => e.functionName === 'emu-fail');
    expect(failRuns.map((e) => e.attempt)).toEqual([1, 2, 3]);
    expect(new Set(failRuns.map((e) => e.requestId)).size).toBe(1);
    expect(failRuns.every((e) => e.outcome === 'error')).toBe(true);
    const recorded = logs.map((l) => JSON.parse(l) as { recorded: Record<string, unknown> }).map((l) => l.recorded);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      version: '1.0',
      requestContext: { requestId: failRuns[0]?.requestId, condition: 'RetriesExhausted', approximateInvokeCount: 3, functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:emu-fail:$LATEST' },
      requestPayload: { workflowId: 'wf-retry', input: 1 },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      responsePayload: { errorType: 'BoomError', errorMessage: 'boom' },
    });
  });

  test('an event whose next retry (after 1 minute, scaled) would pass the maximum event age goes to the destination', async () => {
    logs.length = 0;
    await invoke('emu-young', { workflowId: 'wf-age', input: 1 }, { InvocationType: 'Event' }); // MaximumEventAgeInSeconds 60
    await emulator.pending.idle('wf-age');
    expect(emulator.timeline.of('wf-age').filter((e) => e.functionName === 'emu-young').map((e) => e.attempt)).toEqual([1]);
    const recorded = logs.map((l) => JSON.parse(l)).map((l) => l.recorded.requestContext);
    expect(recorded).toEqual([expect.objectContaining({ condition: 'EventAgeExceeded', approximateInvokeCount: 1 })]);
  });

  test('events are delivered after the delay the fault plan gives them', async () => {
    delayEvents = 150;
    try {
      const started = Date.now();
      await invoke('emu-echo', { workflowId: 'wf-delay', input: 1 }, { InvocationType: 'Event' });
      await emulator.pending.idle('wf-delay');
      expect(emulator.timeline.of('wf-delay')[0]?.start).toBeGreaterThanOrEqual(started + 140);
    } finally {
      delayEvents = 0;
    }
  });

  test('an on-failure destination that is a queue gets the destination record, read through the SQS API', async () => {
    await invoke('emu-lost', { workflowId: 'wf-lost', input: 1 }, { InvocationType: 'Event' });
    await emulator.pending.idle('wf-lost');
    expect(emulator.timeline.of('wf-lost').map((e) => e.attempt)).toEqual([1, 2]);
    const counts = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }));
    expect(counts.Attributes).toEqual({ ApproximateNumberOfMessages: '1', ApproximateNumberOfMessagesNotVisible: '0' });
    // The SDK checks each body against its MD5OfBody.
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }));
    expect(received.Messages).toHaveLength(1);
    expect(JSON.parse(received.Messages?.[0]?.Body ?? '')).toMatchObject({
      requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 2, functionArn: 'arn:aws:lambda:us-east-1:000000000000:function:emu-lost:$LATEST' },
      requestPayload: { workflowId: 'wf-lost', input: 1 },
      responsePayload: { errorType: 'BoomError', errorMessage: 'boom' },
    });
    // Received and not deleted: invisible until the visibility timeout ends.
    expect((await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl }))).Messages).toBeUndefined();
    await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: received.Messages?.[0]?.ReceiptHandle }));
    expect((await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }))).Attributes).toEqual({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
  });

  test('SQS: a long poll returns a message sent while it waits; visibility timeouts end; errors are SQS errors', async () => {
    const polling = sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 20, VisibilityTimeout: 0 }));
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'hello' }));
    const [message] = (await polling).Messages ?? [];
    expect(message?.Body).toBe('hello');
    // Visibility timeout 0: visible again at once, with a new receipt handle.
    const again = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl }))).Messages?.[0];
    expect(again?.MessageId).toBe(message?.MessageId);
    expect(again?.ReceiptHandle).not.toBe(message?.ReceiptHandle);
    await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: again?.ReceiptHandle }));
    await expect(sqs.send(new ReceiveMessageCommand({ QueueUrl: `${endpoint}/000000000000/nope` }))).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
    await expect(sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: 'forged' }))).rejects.toMatchObject({ name: 'ReceiptHandleIsInvalid' });
  });

  test('Scheduler: a one-time schedule fires once as an async invoke at its time (scaled), then is deleted; a taken name is ConflictException', async () => {
    // 600 s ahead at time scale 0.0005: fires after about 300 ms.
    const at = new Date(Date.now() + 600_000).toISOString().slice(0, 19);
    const create = () => schedulerClient.send(new CreateScheduleCommand({
      Name: 'wake-1',
      GroupName: 'emu-group',
      ScheduleExpression: `at(${at})`,
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: 'arn:aws:lambda:us-east-1:000000000000:function:emu-echo', RoleArn: 'arn:aws:iam::000000000000:role/r', Input: JSON.stringify({ workflowId: 'wf-wake', input: 1 }) },
    }));
    const created = Date.now();
    expect((await create()).ScheduleArn).toBe('arn:aws:scheduler:us-east-1:000000000000:schedule/emu-group/wake-1');
    await expect(create()).rejects.toBeInstanceOf(ConflictException);
    expect((await schedulerClient.send(new GetScheduleCommand({ Name: 'wake-1', GroupName: 'emu-group' }))).ScheduleExpression).toBe(`at(${at})`);
    await emulator.pending.idle('wf-wake');
    const runs = emulator.timeline.of('wf-wake');
    expect(runs.map((e) => e.functionName)).toEqual(['emu-echo']);
    // Never early: the due time (whole seconds, scaled) is at least ~299 ms after the create.
    expect(runs[0]?.start).toBeGreaterThanOrEqual(created + 250);
    await expect(schedulerClient.send(new GetScheduleCommand({ Name: 'wake-1', GroupName: 'emu-group' }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    expect(scheduler.fired.map((f) => f.name)).toEqual(['wake-1']);
  });
});
