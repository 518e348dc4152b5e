/**
 * The local engine on the example app, synthesized by the real pipeline
 * (`cdk synth` of examples/app.ts): every example runs to its result on the same
 * bundles that deploy; the engine expires TTL items.
 */
import * as fs from 'fs';
import * as path from 'path';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { Json } from '../../runtime/contract/ir';
import { main as demo } from '../../examples/demo';
import { main as localRun } from '../../lib/cli/local';
import type { LocalWorkflow } from '../../lib/local/assembly';
import { LocalEngine } from '../../lib/local/engine';
import { exampleInput } from '../../examples/inputs';
import { summarize } from '../../lib/local/report';
import { reapExpired } from '../../lib/local/ttl-reaper';
import { cachedAssembly } from '../support/cached-assembly';
import { ENGINE_TEST_TIMEOUT_MS, RUN_WAIT_MS } from '../support/load';
import { type OrdersDatabase, startOrdersDatabase } from '../support/orders-database';
import { engineDynamoDb } from '../support/test-dynamodb';

const ROOT = path.join(__dirname, '..', '..');
jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let engine: LocalEngine;
let outDir: string;
let database: OrdersDatabase | undefined;

beforeAll(async () => {
  outDir = await cachedAssembly(ROOT);
  // The Orders example writes PostgreSQL: its functions get the database's address.
  database = await startOrdersDatabase('the local engine test');
  engine = await LocalEngine.fromCloudAssembly(outDir, { timeScale: 0.001, functionEnvironment: database.environment, ...engineDynamoDb() });
});

afterAll(async () => {
  await engine?.stop();
  await database?.stop();
});

test('finds the example workflows, their entries, tables and failure recorders', () => {
  expect(engine.workflows.length).toBeGreaterThanOrEqual(2);
  for (const wf of engine.workflows) {
    expect(wf.nodes[wf.entryNode]?.functionName).toBe(wf.entryFunction);
    expect(engine.app.tables.map((t) => t.tableName)).toContain(wf.tableName);
    expect(wf.failureRecorder && engine.app.functions.has(wf.failureRecorder)).toBeTruthy();
    for (const fn of Object.values(wf.nodes)) expect(fs.existsSync(path.join(fn.assetDir, 'index.js'))).toBe(true);
  }
});

/** A workflow with a callback Task waits for an answer: the Approval example's own test (test/examples/approval.int.test.ts) is its approver. */
const needsApprover = (wf: LocalWorkflow): boolean => Object.values(wf.nodes).some((fn) => fn.ir?.callback !== undefined);
/** The first example that runs to its end on its input alone. */
const selfRunning = (): LocalWorkflow => engine.workflows.find((w) => exampleInput(ROOT, w.name) && !needsApprover(w)) as LocalWorkflow;

test('every example runs to SUCCEEDED on its input, one execution per invocation', async () => {
  for (const wf of engine.workflows) {
    const file = exampleInput(ROOT, wf.name);
    if (!file || needsApprover(wf)) continue;
    const workflowId = engine.startRun(wf.name, JSON.parse(fs.readFileSync(file, 'utf8')) as Json);
    const record = await engine.waitForRun(workflowId, { timeoutMs: RUN_WAIT_MS });
    await engine.idle(workflowId);
    expect(record).toMatchObject({ workflowId, status: 'SUCCEEDED' });
    expect(record.result).toBeDefined();
    const s = summarize(engine.emulator.timeline.of(workflowId));
    expect(s).toMatchObject({ retries: 0, duplicates: 0, failedAttempts: 0 });
    expect(s.executions).toBeGreaterThanOrEqual(Object.keys(wf.nodes).length - 1);
  }
});

test('starting the same workflowId twice gives one run', async () => {
  const wf = selfRunning();
  const input = JSON.parse(fs.readFileSync(exampleInput(ROOT, wf.name) as string, 'utf8')) as Json;
  engine.startRun(wf.name, input, { workflowId: 'twice' });
  engine.startRun(wf.name, input, { workflowId: 'twice' });
  const record = await engine.waitForRun('twice', { timeoutMs: RUN_WAIT_MS });
  await engine.idle('twice');
  expect(record.status).toBe('SUCCEEDED');
  expect(await engine.readRun('twice')).toEqual(record);
});

test('the public Invoke endpoint runs an entry function synchronously', async () => {
  const wf = selfRunning();
  const input = JSON.parse(fs.readFileSync(exampleInput(ROOT, wf.name) as string, 'utf8')) as Json;
  const lambda = new LambdaClient({ endpoint: engine.lambdaEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  try {
    const out = await lambda.send(new InvokeCommand({ FunctionName: wf.entryFunction, Payload: Buffer.from(JSON.stringify({ workflowId: 'sync-start', input })) }));
    expect(out.FunctionError).toBeUndefined();
    expect(JSON.parse(Buffer.from(out.Payload ?? []).toString())).toEqual({ workflowId: 'sync-start' });
    expect((await engine.waitForRun('sync-start', { timeoutMs: RUN_WAIT_MS })).status).toBe('SUCCEEDED');
    await engine.idle('sync-start');
  } finally {
    lambda.destroy();
  }
});

test('expired items are deleted by the engine (DynamoDB Local keeps them)', async () => {
  const table = engine.app.tables[0] as (typeof engine.app.tables)[number];
  const past = String(Math.floor(Date.now() / 1000) - 10);
  const future = String(Math.floor(Date.now() / 1000) + 3600);
  await engine.dynamo.send(new PutItemCommand({ TableName: table.tableName, Item: { pk: { S: 'ckpt#expired' }, ttl: { N: past } } }));
  await engine.dynamo.send(new PutItemCommand({ TableName: table.tableName, Item: { pk: { S: 'ckpt#alive' }, ttl: { N: future } } }));
  expect(await reapExpired(engine.dynamo, table)).toBeGreaterThanOrEqual(1);
  const get = (pk: string) => engine.dynamo.send(new GetItemCommand({ TableName: table.tableName, Key: { pk: { S: pk } }, ConsistentRead: true }));
  expect((await get('ckpt#expired')).Item).toBeUndefined();
  expect((await get('ckpt#alive')).Item).toBeDefined();
});


/** Runs a CLI main with stdout and stderr captured. */
async function capture(run: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => { out += String(chunk); return true; });
  const e = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => { err += String(chunk); return true; });
  try {
    return { code: await run(), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

test('the demo runs every example and prints result, timeline and Mermaid diagram', async () => {
  const r = await capture(() => demo(['--app', outDir]));
  expect(r.code).toBe(0);
  for (const name of ['TextPipeline', 'WordCount', 'Collatz', 'Orders', 'Approval']) expect(r.out).toContain(name);
  // The demo is the Approval example's approver, on an engine where its day's wait passes in seconds.
  expect(r.out).toContain('HoldOneDay waits 1 day (scaled x0.0001 on the local engine: 8.6 s here)');
  expect(r.out).toMatch(/approval requested \(the wait took \d+\.\d s\): claim exp-2041/);
  expect(r.out).toMatch(/run demo-Approval-\d+: SUCCEEDED/);
  // PostgreSQL is installed here, so the demo started one and ran Orders too.
  expect(r.out).toContain('starting PostgreSQL for the Orders example');
  expect(r.out).not.toContain('skipped, it needs PostgreSQL');
  expect(r.out).toMatch(/SUCCEEDED in \d+ ms/);
  expect(r.out).toContain('timeline:');
  expect(r.out).toContain('flowchart TD');
  expect(r.out).toMatch(/engine stopped/);
});

test('without PostgreSQL the demo skips Orders, saying why, and runs the other examples it is given', async () => {
  const saved = process.env.UNUM_PG_BIN;
  process.env.UNUM_PG_BIN = path.join(outDir, 'no-postgres-here');
  try {
    const r = await capture(() => demo(['--app', outDir, '--only', 'Orders,Collatz']));
    expect(r.code).toBe(0);
    expect(r.out).toContain(`== Orders: skipped, it needs PostgreSQL: PostgreSQL is not installed here: no initdb or pg_ctl in ${process.env.UNUM_PG_BIN}`);
    expect(r.out).toMatch(/run demo-Collatz-\d+: SUCCEEDED/);
    // --only ran Collatz alone of the others.
    for (const name of ['TextPipeline', 'WordCount', 'Approval']) expect(r.out).not.toContain(`demo-${name}-`);
    await expect(capture(() => demo(['--app', outDir, '--only', 'Nope']))).rejects.toThrow(/--only Nope: the app's workflows are .*Collatz/);
  } finally {
    if (saved === undefined) delete process.env.UNUM_PG_BIN;
    else process.env.UNUM_PG_BIN = saved;
  }
});

test('unum local run prints the result; with --faults it checks the invariants', async () => {
  const input = exampleInput(ROOT, 'Collatz') as string;
  const r = await capture(() => localRun(['run', 'Collatz', '--input', input, '--app', outDir, '--faults', '3']));
  expect(r.code).toBe(0);
  expect(JSON.parse(r.out)).toEqual(expect.objectContaining({ steps: expect.any(Number) }));
  expect(r.err).toContain('invariants hold');
  await expect(capture(() => localRun(['run', 'Nope', '--input', input, '--app', outDir]))).rejects.toThrow(/no workflow 'Nope'/);
});
