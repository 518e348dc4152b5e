/**
 * States, not functions, in what a user reads (issue 15, part 4), on the
 * local engine: a run that ends in a Fail state whose error and cause come
 * from ErrorPath / CausePath names that state in its record, `inspect` and
 * the summary; a task that its Retry rule retried twice shows its attempts in
 * the history, the timeline and the summary; a Map -> Fold fan-in of a
 * finished run reads complete.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { UnumClient } from '../../lib/client';
import { formatInspectReport } from '../../lib/client/format';
import { UnumWorkflow } from '../../lib/construct';
import { Choice, Condition, Definition, Fail, Fold, Map, Succeed, Task } from '../../lib/definition';
import { LocalEngine } from '../../lib/local/engine';
import { renderTimeline, runSummary, summarize } from '../../lib/local/report';
import { runWorkflow } from '../../lib/local/run-workflow';
import { engineDynamoDb } from '../support/test-dynamodb';

jest.setTimeout(180_000);

const entry = path.join(__dirname, 'fixtures', 'state-names', 'handlers.ts');
let engine: LocalEngine;
let outDir: string;

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-state-names-'));
  const app = new App({ outdir: outDir });
  const stack = new Stack(app, 'StateNames');
  const charge = new Task('Charge', { entry, handler: 'charge' }).addRetry({ errors: ['GatewayBusy'], maxAttempts: 2, intervalSeconds: 1, jitter: 'FULL' });
  const definition = new Map('Prices', { itemsPath: '$.items' })
    .itemProcessor(new Task('Price', { entry, handler: 'price' }))
    .next(new Fold('Total', { entry, handler: 'add', initial: 0 }))
    .next(charge)
    .next(
      new Choice('Approved')
        .when(Condition.booleanEquals('$.approved', true), new Succeed('Done'))
        .otherwise(new Fail('Declined', { errorPath: '$.code', causePath: "States.Format('declined: {}', $.reason)" })),
    );
  new UnumWorkflow(stack, 'Payment', { definition: Definition.from(definition), history: true, removalPolicy: RemovalPolicy.DESTROY });
  app.synth();
  engine = await LocalEngine.fromCloudAssembly(outDir, { timeScale: 0.001, ...engineDynamoDb() });
});

afterAll(async () => {
  dynamodb?.destroy();
  await engine?.stop();
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

let dynamodb: DynamoDBClient | undefined;

function client(): UnumClient {
  const wf = engine.workflow('Payment');
  dynamodb ??= new DynamoDBClient({ endpoint: engine.dynamoEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  return UnumClient.forWorkflow({ entryFunction: wf.entryFunction, table: wf.tableName, workflow: 'Payment', dynamodb });
}

test('a declined payment ends in the Fail state Declined, with the error and cause its paths read', async () => {
  const run = await runWorkflow(engine, 'Payment', { items: [20, 40] }, { workflowId: 'declined' });
  expect(run.status).toBe('FAILED');
  expect(run.error).toEqual({ node: 'Charge', state: 'Declined', error: 'Card.Declined', cause: 'declined: total 120 over the limit' });
  expect(runSummary('Payment run declined', run)).toBe(
    `Payment run declined: FAILED at Declined: Card.Declined (${run.timeline.length} executions, 0 Lambda retries, 2 handler retries, 0 duplicates)`,
  );

  const report = await client().inspect('declined');
  expect(report.run.error).toMatchObject({ node: 'Charge', state: 'Declined' });
  const charged = report.history?.find((e) => e.node === 'Charge');
  expect(charged).toMatchObject({ state: 'Charge', attempts: 3, retried: ['GatewayBusy', 'GatewayBusy'] });
  expect(report.failures).toEqual([{ node: 'Charge', state: 'Declined', error: 'Card.Declined', cause: 'declined: total 120 over the limit', caught: false }]);
  // The Map -> Fold fan-in of the run: both prices arrived and the fold joined them.
  expect(report.fanIns).toEqual([expect.objectContaining({ arrived: 2, expected: 2, complete: true })]);
  const text = formatInspectReport(report);
  expect(text).toContain('state       Declined\nnode        Charge\nerror       Card.Declined');
  // Charge's one execution retried twice, then its path ended the run in Declined.
  expect(text).toMatch(/Declined \(Charge\) +- +0 +failed +3: GatewayBusy x2/);
});

test('an approved payment: the retried attempts show in the timeline and the summary', async () => {
  const run = await runWorkflow(engine, 'Payment', { items: [1, 2] }, { workflowId: 'approved' });
  expect(run).toMatchObject({ status: 'SUCCEEDED', result: { approved: true, total: 6, code: 'Card.Declined', reason: 'total 6 over the limit' } });
  const charge = run.timeline.filter((e) => e.node === 'Charge');
  expect(charge.map((e) => [e.attempt, e.handlerAttempts, e.retried])).toEqual([[1, 3, ['GatewayBusy', 'GatewayBusy']]]);
  expect(summarize(run.timeline)).toMatchObject({ retries: 0, handlerRetries: 2 });
  expect(renderTimeline(run.timeline)).toMatch(/Charge +\d+ ms +handler attempts 3: GatewayBusy x2/);
  expect(runSummary('run', run)).toContain('0 Lambda retries, 2 handler retries');
  const report = await client().inspect('approved');
  expect(report.fanIns).toEqual([expect.objectContaining({ arrived: 2, expected: 2, complete: true })]);
});
