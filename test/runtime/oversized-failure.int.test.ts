/**
 * A failure too large for Lambda's on-failure record (issue 35, B), on the
 * local engine, whose emulator drops the payloads of a record over 256 KB as
 * Lambda does: a handler's 400 KB error is cut in its function before it
 * escapes, so the record keeps the failed event and the recorder fails the
 * run that failed (not a run named by the request id, which nobody started);
 * and a record that names no run (its payloads dropped) is never written as
 * a run: the recorder dead-letters it, with the reason.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { RemovalPolicy } from 'aws-cdk-lib';
import { UnumWorkflow } from '../../lib/construct';
import { Definition, Task } from '../../lib/definition';
import { type LocalFunction, qualifiedRef } from '../../lib/local/assembly';
import { ERROR_BOUNDS } from '../../runtime/contract/errors';
import { createFailureRecorder } from '../../runtime/entry/failure-recorder';
import type { FailureRecord } from '../../runtime/contract/failure-record';
import { LIVE_ALIAS, qualifiedName } from '../../runtime/contract/ir';
import { MemoryStore } from '../support/memory-store';
import { HANDLERS, useAppEngine } from './fixtures/bounds/engine';

const task = (id: string, handler: string): Task => new Task(id, { entry: HANDLERS, handler });
const engine = useAppEngine('OversizedFailure', (stack) => {
  new UnumWorkflow(stack, 'Huge', { definition: Definition.from(task('Take', 'same').next(task('Boom', 'huge'))), retryAttempts: 0, removalPolicy: RemovalPolicy.DESTROY });
});

let sqs: SQSClient | undefined;
afterAll(() => sqs?.destroy());

async function runKeys(): Promise<string[]> {
  const { Items = [] } = await engine().dynamo.send(new ScanCommand({ TableName: engine().workflow('Huge').tableName, ConsistentRead: true }));
  return Items.map((i) => i.pk?.S ?? '').filter((pk) => pk.startsWith('run#')).sort();
}

async function deadLetters(): Promise<Array<{ responsePayload?: { errorMessage?: string }; requestPayload?: FailureRecord }>> {
  sqs ??= new SQSClient({ endpoint: engine().lambdaEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: engine().deadLetterQueueUrl('Huge'), MaxNumberOfMessages: 10, VisibilityTimeout: 0 }));
  return Messages.map((m) => JSON.parse(m.Body ?? '{}') as { responsePayload?: { errorMessage?: string } });
}

test('a 400 KB error is cut before it escapes: the run that failed ends FAILED, and no other run is written', async () => {
  const id = engine().startRun('Huge', { x: 1 }, { workflowId: 'big-error' });
  const run = await engine().waitForRun('Huge', id);
  expect(run).toMatchObject({ status: 'FAILED', error: { node: 'Boom', error: 'RangeError' } });
  expect(run.error?.cause).toMatch(/too much: xxxx/);
  expect(run.error?.cause?.length).toBeLessThanOrEqual(ERROR_BOUNDS.cause);
  await engine().idle();
  expect(await runKeys()).toEqual(['run#Huge#big-error']);
  expect(await deadLetters()).toEqual([]);
});

test('a failure record without its payloads names no run: the recorder writes none and dead-letters it, saying why', async () => {
  const entry = engine().app.functions.get(qualifiedName(engine().workflow('Huge').entryFunction, LIVE_ALIAS)) as LocalFunction;
  const target = entry.async.onFailure as { function: string; qualifier?: string };
  const recorder = engine().app.functions.get(qualifiedRef(target.function, target.qualifier)) as LocalFunction;
  // Lambda's record of a failed start whose event and error exceeded 256 KB: no requestPayload, no responsePayload.
  const dropped = { version: '1.0', timestamp: new Date().toISOString(), requestContext: { requestId: 'lost-request', functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${entry.functionName}:${LIVE_ALIAS}`, condition: 'RetriesExhausted', approximateInvokeCount: 1 } };
  engine().emulator.accept(recorder, JSON.stringify(dropped));
  await engine().idle();
  expect(await runKeys()).toEqual(['run#Huge#big-error']);
  const [letter, ...more] = await deadLetters();
  expect(more).toEqual([]);
  expect(letter?.requestPayload?.requestContext.requestId).toBe('lost-request');
  expect(letter?.responsePayload?.errorMessage).toMatch(/Lambda left the failed event out of its on-failure record .*so it names no run; the failure of .* goes to the workflow's dead-letter queue/);
});

test('the recorder never writes a run for a record that names none', async () => {
  const store = new MemoryStore();
  const record: FailureRecord = { requestContext: { requestId: 'req-1', functionArn: 'arn:aws:lambda:us-east-1:1:function:wf-Entry:live', condition: 'RetriesExhausted' } };
  await expect(createFailureRecorder(store, 'W', { runRetentionSeconds: 86400, history: true })(record)).rejects.toThrow(/names no run/);
  expect(store.runOf('req-1')).toBeUndefined();
});
