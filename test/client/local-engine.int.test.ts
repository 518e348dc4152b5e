/**
 * The client and the CLI against the local engine running the example app:
 * the real runtime writes the records the client reads.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { UnumClient, UnumRunFailedError, UnumWaitTimeoutError } from '../../lib/client';
import { run, type CliIo } from '../../lib/cli/client';
import { main as costMain } from '../../lib/cli/cost';
import { LocalEngine } from '../../lib/local/engine';
import { cachedAssembly } from '../support/cached-assembly';
import { tablePrefixOf } from '../support/cli';
import { ENGINE_TEST_TIMEOUT_MS, RUN_WAIT_MS } from '../support/load';
import { engineDynamoDb } from '../support/test-dynamodb';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let engine: LocalEngine;
/** The example app's assembly, shared with other test files: read only. */
let outDir: string;
/** This file's own files (inputs of `unum cost`). */
let scratch: string;
let client: UnumClient;

beforeAll(async () => {
  outDir = await cachedAssembly(path.join(__dirname, '../..'));
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-client-engine-'));
  engine = await LocalEngine.fromCloudAssembly(outDir, engineDynamoDb());
  const wf = engine.workflow('Collatz');
  // Plain SDK clients aimed at the engine's endpoints: what an application would do.
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  client = UnumClient.forWorkflow({
    entryFunction: wf.entryFunction,
    table: wf.tableName,
    workflow: wf.name,
    lambda: new LambdaClient({ endpoint: engine.lambdaEndpoint, region: 'us-east-1', credentials }),
    dynamodb: new DynamoDBClient({ endpoint: engine.dynamoEndpoint, region: 'us-east-1', credentials }),
  });
});
afterAll(async () => {
  await engine?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

test('start, inspect during the run, wait, result', async () => {
  // 27 takes 111 Collatz steps: one invocation each, long enough to look at mid-run.
  const id = await client.start({ n: 27 }, { workflowId: 'collatz-27' });
  let midRun;
  for (let i = 0; i < 400 && !midRun; i++) {
    const report = await client.inspect(id);
    if (report.run.status === 'RUNNING' && report.table!.checkpoints > 1) midRun = report;
    else await new Promise((r) => setTimeout(r, 10));
  }
  expect(midRun).toBeDefined();
  // Only this run has a record in the table, so the counts are its own.
  expect(midRun!.table).toMatchObject({ runs: 1, runsInFlight: ['collatz-27'], attributable: true });
  expect(midRun!.table!.checkpoints).toBeGreaterThan(0);
  const status = await client.wait(id, { timeoutMs: RUN_WAIT_MS });
  expect(status.status).toBe('SUCCEEDED');
  expect(Date.parse(status.finishedAt!)).toBeGreaterThan(Date.parse(status.startedAt!));
  expect(await client.result(id)).toEqual({ start: 27, steps: 111, peak: 9232 });
});

test('concurrent starts with the same id make one run', async () => {
  const ids = await Promise.all([3, 3, 3, 3].map((n) => client.start({ n }, { workflowId: 'same-id' })));
  expect(new Set(ids)).toEqual(new Set(['same-id']));
  await client.wait('same-id', { timeoutMs: RUN_WAIT_MS });
  await engine.idle('same-id');
  expect(await client.result('same-id')).toEqual({ start: 3, steps: 7, peak: 16 });
  // One run: the entry's value was committed once, every later delivery was a duplicate.
  const entries = engine.emulator.timeline.of('same-id').filter((e) => e.node === 'Step');
  expect(new Set(entries.map((e) => e.identity)).size).toBe(7);
});

test('a failed run: status names the node and error; result throws', async () => {
  // n = 0 makes step throw RangeError; Lambda's retries run out and the failure recorder ends the run.
  const id = await client.start({ n: 0 });
  const status = await client.wait(id, { timeoutMs: RUN_WAIT_MS });
  expect(status).toMatchObject({ status: 'FAILED', error: { node: 'Step', error: 'RangeError', cause: expect.stringContaining('n must be a positive integer') } });
  await expect(client.result(id)).rejects.toThrow(UnumRunFailedError);
});

test('wait times out on a run that is still going', async () => {
  const id = await client.start({ n: 97 }); // 118 steps
  await expect(client.wait(id, { timeoutMs: 50, pollIntervalMs: 10 })).rejects.toThrow(UnumWaitTimeoutError);
  expect((await client.wait(id, { timeoutMs: RUN_WAIT_MS })).status).toBe('SUCCEEDED');
});

test('the CLI finds the workflow in cdk.out and reaches the engine through AWS_ENDPOINT_URL_*', async () => {
  const saved = { ...process.env };
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_LAMBDA: engine.lambdaEndpoint, AWS_ENDPOINT_URL_DYNAMODB: engine.dynamoEndpoint,
    AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local',
    // Set when the engine's tables are in the test run's shared DynamoDB Local, under a prefix.
    ...tablePrefixOf(engine),
  });
  let out = '';
  const io: CliIo = {
    stdout: { write: (s: string) => { out += s; return true; } } as CliIo['stdout'],
    stderr: { write: (_s: string) => true } as CliIo['stderr'],
    readStdin: () => '{"n": 6}',
  };
  try {
    const code = await run(['start', '--app', outDir, '--workflow', 'Collatz', '--input', '-', '--id', 'cli-6', '--wait', '--json'], io);
    expect([code, JSON.parse(out).status]).toEqual([0, 'SUCCEEDED']);
    out = '';
    expect(await run(['result', 'cli-6', '--app', outDir, '--workflow', 'Collatz', '--json'], io)).toBe(0);
    expect(JSON.parse(out)).toEqual({ start: 6, steps: 8, peak: 16 });
  } finally {
    process.env = saved;
  }
});

test('fromCloudAssembly with the engine\'s environment: the tables and queue the engine named, reached at its endpoints', async () => {
  const local = UnumClient.fromCloudAssembly(outDir, 'Collatz', { localEngine: engine.environment });
  expect([local.tableName, local.deadLetterQueue]).toEqual([engine.workflow('Collatz').tableName, engine.deadLetterQueueUrl('Collatz')]);
  // Without the option the table of this app, which CloudFormation names at deploy, is unknown.
  expect(() => UnumClient.fromCloudAssembly(outDir, 'Collatz')).toThrow(/named by CloudFormation at deploy/);
  const outcome = await local.startAndWait({ n: 3 }, { workflowId: 'assembly-3', timeoutMs: RUN_WAIT_MS });
  expect(outcome).toEqual({ workflowId: 'assembly-3', result: { start: 3, steps: 7, peak: 16 } });
});

test('fromCloudAssembly with no options, the engine\'s variables exported as unum local start prints them: the same code as the CLI\'s', async () => {
  const saved = { ...process.env };
  Object.assign(process.env, engine.environment);
  try {
    const local = UnumClient.fromCloudAssembly(outDir, 'Collatz');
    expect(local.tableName).toBe(engine.workflow('Collatz').tableName);
    expect(await local.startAndWait({ n: 3 }, { workflowId: 'exported-3', timeoutMs: RUN_WAIT_MS })).toEqual({ workflowId: 'exported-3', result: { start: 3, steps: 7, peak: 16 } });
  } finally {
    process.env = saved;
  }
});

test('unum cost measures runs on the local engine and prices them', async () => {
  let out = '';
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
  const progress = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const fixture = path.join(scratch, 'collatz-6.json');
    fs.writeFileSync(fixture, '{"n": 6}');
    expect(await costMain(['Collatz', '--runs', '2', '--app', outDir, '--input', fixture, '--json'])).toBe(0);
  } finally {
    write.mockRestore();
    progress.mockRestore();
  }
  const report = JSON.parse(out);
  // 6 -> 3 -> 10 -> 5 -> 16 -> 8 -> 4 -> 2 -> 1: 8 Step invocations + Finish, no faults, no retries,
  // + the start node (Step is a loop target, and the entry accepts start requests only).
  expect(report.perRun.unum.lambdaRequests).toBe(10);
  expect(report.perRun.stepFunctions).toMatchObject({ taskRequests: 9, stateTransitions: 9 + 8 }); // + one Choice per Step
  // Every invocation checkpoints (1 WRU each, small values) and the entry writes the run record.
  expect(report.perRun.unum.writeUnits).toBeGreaterThanOrEqual(10);
  expect(report.comparison.options.map((o: { name: string }) => o.name)).toEqual(['unum', 'Step Functions Standard', 'Step Functions Express', 'Lambda durable functions']);
});

test('unum cost of a workflow with a Wait and a callback Task: its tokens answered with --task-success, its cost by mechanism', async () => {
  const examples = path.join(__dirname, '../../examples/approval');
  const args = ['Approval', '--runs', '1', '--app', outDir, '--input', path.join(examples, 'input.json')];
  // Without an answer no run would end: the first run that reaches the callback Task ends the measurement.
  await expect(costMain(args)).rejects.toThrow(/ of Approval waits on callback Task AskApprover: give --task-success/);
  // A run that never reaches it needs no answer: this claim fails its check, and the run is measured until it fails.
  const tooLarge = path.join(scratch, 'too-large-claim.json');
  fs.writeFileSync(tooLarge, JSON.stringify({ claimId: 'exp-9', employee: 'e-1', amountCents: 900_000, description: 'a car' }));
  await expect(costMain(['Approval', '--runs', '1', '--app', outDir, '--input', tooLarge])).rejects.toThrow(/^run \S+ of Approval ended FAILED: .*RangeError/);
  let out = '';
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
  const progress = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(await costMain([...args, '--task-success', path.join(examples, 'task-success.json'), '--json'])).toBe(0);
  } finally {
    write.mockRestore();
    progress.mockRestore();
  }
  const report = JSON.parse(out);
  expect(report.perRun.mechanisms).toMatchObject({
    waits: { schedules: 1, executions: 1 },
    // The answer deleted the timeout's schedule: it neither fires nor runs the Task's function.
    callbacks: { waitingRecords: 1, schedules: 0, responses: 1, completions: 1 },
  });
  expect(report.perRun.unum.scheduledInvocations).toBe(1);
  expect(report.mechanisms.map((m: { mechanism: string }) => m.mechanism)).toEqual(['waits', 'callbacks', 'run record']);
});
