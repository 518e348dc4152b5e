/**
 * Every run ends with its terminal record, and every record expires (issue
 * 14, findings 3 and 5), on the local engine with the fault-test app.
 *
 * A DynamoDB outage longer than every retry window (the nodes' async retries
 * and the failure recorder's, compressed) loses no run: the outage begins in
 * the middle of a Map run, more runs start while it lasts (explicit starts
 * and a raw one, whose run id is its Lambda request id), every failure ends
 * in the workflows' dead-letter queues; once DynamoDB is back, `recover`
 * (client and CLI) replays each dead letter once and every run ends with its
 * right terminal record, with nothing left in the queues.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { LIVE_ALIAS, qualifiedName, type Json } from '../../runtime/contract/ir';
import { UnumClient, type RecoveryReport } from '../../lib/client';
import { run as cli, type CliIo } from '../../lib/cli/client';
import { itemsWithoutTtl, leftoverViolations } from '../../lib/testing/checker';
import type { LocalEngine } from '../../lib/local/engine';
import { type CallInfo, type ExecutionInfo, type FaultPlan, NO_EVENT_FAULT } from '../../lib/local/fault-plan';
import { useFaultEngine } from '../faults/fault-engine';
import { tablePrefixOf } from '../support/cli';
import { ENGINE_TEST_TIMEOUT_MS, RUN_WAIT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const faultEngine = useFaultEngine();
let engine: LocalEngine;
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let sdk: { lambda: LambdaClient; dynamodb: DynamoDBClient; sqs: SQSClient };

beforeAll(() => {
  engine = faultEngine();
  const options = { endpoint: engine.lambdaEndpoint, region: 'us-east-1', credentials };
  sdk = {
    lambda: new LambdaClient(options),
    dynamodb: new DynamoDBClient({ ...options, endpoint: engine.dynamoEndpoint }),
    sqs: new SQSClient(options),
  };
});

afterAll(() => {
  for (const c of Object.values(sdk ?? {})) c.destroy();
});

function clientOf(workflow: string): UnumClient {
  const wf = engine.workflow(workflow);
  return UnumClient.forWorkflow({ entryFunction: wf.entryFunction, table: wf.tableName, workflow, deadLetterQueue: engine.deadLetterQueueUrl(workflow), ...sdk });
}

async function queueCounts(workflow: string): Promise<{ visible: number; inFlight: number }> {
  const out = await sdk.sqs.send(new GetQueueAttributesCommand({ QueueUrl: engine.deadLetterQueueUrl(workflow), AttributeNames: ['All'] }));
  return { visible: Number(out.Attributes?.ApproximateNumberOfMessages), inFlight: Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible) };
}

/** Cuts DynamoDB off as soon as a Map branch makes its first call: the run is caught half-way. Once. */
class OutageMidMap implements FaultPlan {
  private fired = false;

  callFault(exec: ExecutionInfo, _call: CallInfo): 'none' {
    if (!this.fired && exec.node === 'Square' && exec.identity.endsWith('[0.2]')) {
      this.fired = true;
      engine.setDynamoDbReachable(false);
    }
    return 'none';
  }

  eventFault(): typeof NO_EVENT_FAULT {
    return NO_EVENT_FAULT;
  }

  rerunSucceeded(): boolean {
    return false;
  }
}

interface Expected {
  readonly workflow: string;
  readonly workflowId: string;
  readonly status: 'SUCCEEDED' | 'FAILED';
  readonly result?: Json;
  readonly error?: string;
}

test('a DynamoDB outage longer than every retry loses no run: recover ends each with its right terminal record', async () => {
  const runs: Expected[] = [];
  const start = (workflow: string, input: Json, expected: Omit<Expected, 'workflow' | 'workflowId'>): void => {
    runs.push({ workflow, workflowId: engine.startRun(workflow, input), ...expected });
  };

  engine.setFaultPlan('mid-map', new OutageMidMap());
  runs.push({ workflow: 'Map5', workflowId: engine.startRun('Map5', { n: 5 }, { workflowId: 'mid-map' }), status: 'SUCCEEDED', result: { total: 55 } });
  await engine.idle();
  // The plan cut DynamoDB off; these start while it is down.
  start('Parallel3', { x: 2 }, { status: 'SUCCEEDED', result: { sum: 12, parts: [2, 4, 6] } });
  start('NestedMap', { groups: [[1, 2], [3]] }, { status: 'SUCCEEDED', result: { sums: [5, 4], total: 9 } });
  start('Loop', { n: 3 }, { status: 'SUCCEEDED', result: { acc: 6 } });
  start('Fails', { x: 1 }, { status: 'FAILED', error: 'TypeError' });
  // Started as a client starts runs: at the entry's live alias, whose async settings name the failure recorder.
  const map5Entry = engine.app.functions.get(qualifiedName(engine.workflow('Map5').entryFunction, LIVE_ALIAS));
  if (!map5Entry) throw new Error('no Map5 entry function');
  // A raw start: its run id is the Lambda request id, which a replay must keep.
  runs.push({ workflow: 'Map5', workflowId: engine.emulator.accept(map5Entry, JSON.stringify({ n: 3 })), status: 'SUCCEEDED', result: { total: 14 } });
  await engine.idle();

  // Everything the engine had to do is done, and no run ended: the failures are in the queues.
  for (const r of runs) expect(['NOT_FOUND', 'RUNNING']).toContain((await engine.readRun(r.workflow, r.workflowId)).status);
  const workflows = [...new Set(runs.map((r) => r.workflow))];
  for (const wf of workflows) expect((await queueCounts(wf)).visible).toBeGreaterThanOrEqual(runs.filter((r) => r.workflow === wf).length);
  // One dead letter, kept aside to be sent again once its run has finished.
  const [sample] = (await sdk.sqs.send(new ReceiveMessageCommand({ QueueUrl: engine.deadLetterQueueUrl('Loop'), VisibilityTimeout: 0 }))).Messages ?? [];

  engine.setDynamoDbReachable(true);
  const reports = new Map<string, RecoveryReport>();
  for (const wf of workflows.filter((w) => w !== 'Parallel3')) reports.set(wf, await clientOf(wf).recover());
  reports.set('Parallel3', await recoverWithCli('Parallel3'));
  for (const [wf, report] of reports) {
    expect({ wf, kept: report.kept, finished: report.finished }).toEqual({ wf, kept: 0, finished: 0 });
    expect(report.replayed).toBe(report.deadLetters.length);
    expect(new Set(report.deadLetters.map((d) => d.workflowId))).toEqual(new Set(runs.filter((r) => r.workflow === wf).map((r) => r.workflowId)));
  }

  for (const r of runs) {
    const record = await engine.waitForRun(r.workflow, r.workflowId, { timeoutMs: RUN_WAIT_MS });
    expect({ id: r.workflowId, status: record.status, result: record.result, error: record.error?.error }).toEqual({ id: r.workflowId, status: r.status, result: r.result, error: r.error });
  }
  await engine.idle();
  for (const wf of workflows) expect(await queueCounts(wf)).toEqual({ visible: 0, inFlight: 0 });

  // Exactly once: nothing is left to replay.
  expect((await clientOf('Map5').recover()).deadLetters).toEqual([]);
  // A dead letter of a finished run is dropped without a replay; a message that is no failure record is kept.
  await sdk.sqs.send(new SendMessageCommand({ QueueUrl: engine.deadLetterQueueUrl('Loop'), MessageBody: sample?.Body ?? '' }));
  await sdk.sqs.send(new SendMessageCommand({ QueueUrl: engine.deadLetterQueueUrl('Loop'), MessageBody: 'not a failure record' }));
  const late = await clientOf('Loop').recover({ visibilityTimeoutSeconds: 600 });
  const loopRun = runs.find((r) => r.workflow === 'Loop') as Expected;
  expect(late.deadLetters.map((d) => [d.outcome, d.workflowId ?? null])).toEqual(expect.arrayContaining([['finished', loopRun.workflowId], ['kept', null]]));
  expect([late.replayed, late.finished, late.kept]).toEqual([0, 1, 1]);
  expect(await queueCounts('Loop')).toEqual({ visible: 0, inFlight: 1 });
  expect((await engine.readRun('Loop', loopRun.workflowId)).result).toEqual({ acc: 6 });
});

/** Crashes every attempt of the entry before it writes the run record: the failure recorder is the first to write it. */
class NoRunRecord implements FaultPlan {
  callFault(_exec: ExecutionInfo, call: CallInfo): 'none' | 'crash-before' {
    return call.label === 'PutItem(run)' ? 'crash-before' : 'none';
  }

  eventFault(): typeof NO_EVENT_FAULT {
    return NO_EVENT_FAULT;
  }

  rerunSucceeded(): boolean {
    return false;
  }
}

test('a run record the failure recorder creates expires like every other item (invariant 4 scans the table)', async () => {
  engine.setFaultPlan('no-record', new NoRunRecord());
  engine.startRun('Chain3', { x: 1 }, { workflowId: 'no-record' });
  const record = await engine.waitForRun('Chain3', 'no-record', { timeoutMs: RUN_WAIT_MS });
  await engine.idle('no-record');
  expect(record).toMatchObject({ status: 'FAILED', error: { node: 'A' } });
  expect(leftoverViolations(await itemsWithoutTtl(engine.dynamo, engine.workflow('Chain3').tableName))).toEqual([]);
});

/** `unum recover` against the engine, finding the workflow and its queue in cdk.out through AWS_ENDPOINT_URL_*. */
async function recoverWithCli(workflow: string): Promise<RecoveryReport> {
  const saved = { ...process.env };
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_LAMBDA: engine.lambdaEndpoint,
    AWS_ENDPOINT_URL_DYNAMODB: engine.dynamoEndpoint,
    AWS_ENDPOINT_URL_SQS: engine.lambdaEndpoint,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_REGION: 'us-east-1',
    ...tablePrefixOf(engine),
  });
  let out = '';
  const io: CliIo = {
    stdout: { write: (s: string) => { out += s; return true; } } as CliIo['stdout'],
    stderr: { write: (_s: string) => true } as CliIo['stderr'],
    readStdin: () => '',
  };
  try {
    expect(await cli(['recover', '--app', engine.app.dir, '--workflow', workflow, '--json'], io)).toBe(0);
    return JSON.parse(out) as RecoveryReport;
  } finally {
    process.env = saved;
  }
}
