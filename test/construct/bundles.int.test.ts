/**
 * The produced bundles really run: synthesize the example app, load every
 * function's asset (`index.js` + `unum-ir.json`) in Node, and drive each
 * example workflow from a start request to its result against DynamoDB Local.
 * Successor invocations go to a small HTTP stand-in for Lambda's Invoke API,
 * which records them; the test then calls the named bundle with the payload.
 * This proves the IR, the successor function names and the runtime were
 * injected, and that every invocation names the alias of the run's deployment.
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { App } from 'aws-cdk-lib';
import { WORKFLOW_METADATA_TYPE, type WorkflowMetadata } from '../../lib/construct';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../lib/local/dynamodb-local';
import { createWorkflowTable } from '../../lib/local/create-tables';
import { keyItem, runKey } from '../../runtime/contract/table';
import { writeTestEnvelopeKey } from '../support/envelope-key';
import { ExamplesStack } from '../../examples/app';
import * as textHandlers from '../../examples/text-pipeline/handlers';

type Handler = (event: unknown, context: unknown) => Promise<unknown>;
interface Deployed {
  readonly handler: Handler;
  readonly environment: Record<string, unknown>;
  readonly dir: string;
}
type Resource = { Type: string; Properties: Record<string, unknown> };

const ROOT = path.join(__dirname, '..', '..');
const TABLE = 'unum-bundle-test';
const examples = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', name, 'input.json'), 'utf8'));

let db: DynamoDbLocal;
let client: DynamoDBClient;
let lambdaApi: http.Server;
let outdir: string;
/** An invocation the stand-in received: the function, the qualifier it named, the event. */
type Invocation = { functionName: string; qualifier?: string; payload: unknown };
const invocations: Invocation[] = [];
const functions = new Map<string, Deployed>();
const workflows = new Map<string, WorkflowMetadata>();
const savedEnv = { ...process.env };

beforeAll(async () => {
  // Under node_modules, so the bundles resolve the external @aws-sdk/* from it, as Lambda's runtime provides them.
  const cache = path.join(ROOT, 'node_modules', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  outdir = fs.mkdtempSync(path.join(cache, 'unum-bundles-'));
  // The runtime logs one JSON line per transition: keep the test output readable.
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const app = new App({ outdir });
  new ExamplesStack(app, 'UnumExamples');
  const artifact = app.synth().getStackByName('UnumExamples');
  const resources = (artifact.template as { Resources: Record<string, Resource> }).Resources;
  for (const entry of artifact.findMetadataByType(WORKFLOW_METADATA_TYPE)) {
    const data = entry.data as unknown as WorkflowMetadata;
    workflows.set(data.workflow, data);
  }
  db = await startDynamoDbLocal();
  client = new DynamoDBClient({ endpoint: db.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await createWorkflowTable(client, TABLE);
  // Each workflow's envelope key, which its deployment resource would create: the functions read it from the table.
  for (const workflow of workflows.keys()) await writeTestEnvelopeKey(client, TABLE, workflow);
  lambdaApi = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '', 'http://lambda');
      // `name`, `name:qualifier` or an ARN, and the Qualifier parameter.
      const ref = decodeURIComponent(url.pathname.split('/')[3] ?? '');
      const [functionName, qualifier] = ref.startsWith('arn:') ? ref.split(':').slice(6) : ref.split(':');
      invocations.push({ functionName, qualifier: qualifier ?? url.searchParams.get('Qualifier') ?? undefined, payload: JSON.parse(body) });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => lambdaApi.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: db.endpoint,
    AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(lambdaApi.address() as AddressInfo).port}`,
  });
  for (const r of Object.values(resources)) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const hash = String((r.Properties.Code as { S3Key: string }).S3Key).replace(/\.zip$/, '');
    const dir = path.join(outdir, `asset.${hash}`);
    const environment = (r.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const handler = (require(path.join(dir, 'index.js')) as { handler: Handler }).handler;
    functions.set(r.Properties.FunctionName as string, { handler, environment, dir });
  }
});

afterAll(async () => {
  lambdaApi?.close();
  await db?.stop();
  process.env = savedEnv;
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

/** Calls a deployed function the way Lambda would, with its template environment (the table ref -> the local table). */
async function call(functionName: string, event: unknown, requestId: string): Promise<unknown> {
  const fn = functions.get(functionName);
  if (!fn) throw new Error(`no function ${functionName}`);
  for (const [k, v] of Object.entries(fn.environment)) process.env[k] = typeof v === 'string' ? v : TABLE;
  const context = { awsRequestId: requestId, functionName, getRemainingTimeInMillis: () => 30_000 };
  return fn.handler(event, context);
}

/** Starts a run at the entry and delivers every recorded invocation until the run is done. */
async function run(workflow: string, workflowId: string, input: unknown): Promise<Record<string, unknown>> {
  const meta = workflows.get(workflow) as WorkflowMetadata;
  invocations.length = 0;
  await call(meta.nodes[meta.entry].functionName, { workflowId, input }, `${workflowId}-start`);
  for (let step = 0; invocations.length > 0; step++) {
    if (step > 500) throw new Error('too many invocations');
    const next = invocations.shift() as Invocation;
    // A run never leaves its deployment: every invocation names its alias.
    expect([next.functionName, next.qualifier]).toEqual([next.functionName, meta.deployment]);
    await call(next.functionName, next.payload, `${workflowId}-${step}`);
  }
  return runRecord(workflow, workflowId);
}

async function runRecord(workflow: string, workflowId: string): Promise<Record<string, unknown>> {
  const { Item } = await client.send(new GetItemCommand({ TableName: TABLE, Key: keyItem(runKey({ workflow, workflowId })), ConsistentRead: true }));
  return Item ? Object.fromEntries(Object.entries(Item).map(([k, v]) => [k, v.S ?? v.N ?? v])) : {};
}

test('every function bundle loads, and each node ships its own IR with successor function names', () => {
  for (const meta of workflows.values()) {
    for (const [node, info] of Object.entries(meta.nodes)) {
      const fn = functions.get(info.functionName) as Deployed;
      expect(typeof fn.handler).toBe('function');
      const ir = JSON.parse(fs.readFileSync(path.join(fn.dir, 'unum-ir.json'), 'utf8'));
      expect(ir).toMatchObject({ workflow: meta.workflow, node, entry: node === meta.entry });
      expect(Object.keys(ir.functionNames)).toEqual(info.successors);
      expect(ir.deployment).toBe(meta.deployment);
      for (const succ of info.successors) expect(ir.functionNames[succ]).toBe(`${meta.nodes[succ].functionName}:${meta.deployment}`);
    }
    expect(typeof functions.get(meta.failureRecorder.functionName)?.handler).toBe('function');
  }
});

test('text pipeline: start request -> parallel analyses -> report', async () => {
  const input = examples('text-pipeline') as textHandlers.Document;
  const record = await run('TextPipeline', 'text-1', input);
  expect(record.status).toBe('SUCCEEDED');
  const doc = await textHandlers.normalize(input);
  const expected = await textHandlers.report([
    await textHandlers.wordStats(doc),
    await textHandlers.sentiment(doc),
    await textHandlers.keywords(doc),
  ]);
  expect(JSON.parse(record.result as string)).toEqual(expected);
});

test('word count: map + fan-in + map + fan-in', async () => {
  const record = await run('WordCount', 'wc-1', examples('wordcount'));
  expect(record.status).toBe('SUCCEEDED');
  const result = JSON.parse(record.result as string);
  expect(result.top[0]).toEqual({ word: 'the', count: 11 });
  expect(result.counts.times).toBe(2);
});

test('collatz: a loop through the same function', async () => {
  const record = await run('Collatz', 'collatz-1', examples('collatz'));
  expect(record.status).toBe('SUCCEEDED');
  expect(JSON.parse(record.result as string)).toEqual({ start: 6, steps: 8, peak: 16 });
});

test('the failure recorder marks a run FAILED from a Lambda destination record', async () => {
  const meta = workflows.get('WordCount') as WorkflowMetadata;
  // A run that is RUNNING (its entry ran), then a node whose retries are exhausted.
  invocations.length = 0;
  await call(meta.nodes[meta.entry].functionName, { workflowId: 'wc-fail', input: examples('wordcount') }, 'wc-fail-start');
  expect((await runRecord('WordCount', 'wc-fail')).status).toBe('RUNNING');
  const failed = invocations[0];
  await call(
    meta.failureRecorder.functionName,
    {
      version: '1.0',
      requestContext: {
        requestId: 'r-1',
        functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${failed.functionName}:${failed.qualifier}`,
        condition: 'RetriesExhausted',
        approximateInvokeCount: 3,
      },
      requestPayload: failed.payload,
      responsePayload: { errorType: 'RangeError', errorMessage: 'boom', trace: ['RangeError: boom'] },
    },
    'recorder-1',
  );
  const record = await runRecord('WordCount', 'wc-fail');
  expect(record.status).toBe('FAILED');
  expect(failed.functionName).toBe(meta.nodes.CountChunk.functionName);
  // The cause is Lambda's error document, as Step Functions reports a failed Lambda task.
  const cause = JSON.stringify({ errorType: 'RangeError', errorMessage: 'boom', trace: ['RangeError: boom'] });
  // The state the node runs, as the runtime's own failure paths name it.
  expect(record.error).toEqual({ M: { node: { S: 'CountChunk' }, state: { S: 'CountChunk' }, error: { S: 'RangeError' }, cause: { S: cause } } });
});
