/**
 * Bounded input (issue 35, A), on the local engine: a start whose input nests
 * 10,000 levels deep (beyond what recursive JSON code survives) is refused
 * before anything is written, and its run ends FAILED naming the workflow,
 * node and field, never RUNNING; so is a start request too large for its
 * failure record; a handler result nested that deeply fails its run at
 * once, naming the node; a forged envelope that deep to another node ends no
 * run; and the engine runs on after each.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { RemovalPolicy } from 'aws-cdk-lib';
import { UnumWorkflow } from '../../lib/construct';
import { Definition, Task } from '../../lib/definition';
import { ENVELOPE_VERSION, LIVE_ALIAS, qualifiedName } from '../../runtime/contract/ir';
import type { LocalFunction } from '../../lib/local/assembly';
import { START_EVENT_LIMIT_BYTES } from '../../runtime/entry/input-bounds';
import { HANDLERS, useAppEngine } from './fixtures/bounds/engine';

const task = (id: string, handler: string): Task => new Task(id, { entry: HANDLERS, handler });
const engine = useAppEngine('InputDepth', (stack) => {
  new UnumWorkflow(stack, 'Echo', { definition: Definition.from(task('Take', 'same').next(task('Then', 'same'))), removalPolicy: RemovalPolicy.DESTROY });
  new UnumWorkflow(stack, 'Deepens', { definition: Definition.from(task('Take', 'same').next(task('Deepen', 'deep')).next(task('After', 'same'))), removalPolicy: RemovalPolicy.DESTROY });
});

let lambda: LambdaClient | undefined;
afterAll(() => lambda?.destroy());

/** Invokes a function of `workflow` (the entry at its live alias, another node unqualified) with `payload` (JSON text), as any client does. */
async function invoke(workflow: string, node: string | undefined, payload: string, type: 'Event' | 'RequestResponse' = 'Event'): Promise<unknown> {
  const wf = engine().workflow(workflow);
  lambda ??= new LambdaClient({ endpoint: engine().lambdaEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const functionName = node === undefined ? wf.entryFunction : (wf.nodes[node]?.functionName as string);
  const qualifier = node === undefined ? { Qualifier: LIVE_ALIAS } : {};
  const out = await lambda.send(new InvokeCommand({ FunctionName: functionName, ...qualifier, InvocationType: type, Payload: Buffer.from(payload) }));
  return out.Payload && out.Payload.length > 0 ? JSON.parse(Buffer.from(out.Payload).toString('utf8')) : undefined;
}

/** `[[[...1...]]]`, `levels` deep, as JSON text (built without recursion). */
const deepJson = (levels: number): string => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

/** The run's items in its workflow's table: what the refusal wrote. */
async function runItems(workflow: string, workflowId: string): Promise<string[]> {
  const { Items = [] } = await engine().dynamo.send(new ScanCommand({ TableName: engine().workflow(workflow).tableName, ConsistentRead: true }));
  return Items.map((i) => i.pk?.S ?? '').filter((pk) => pk.includes(workflowId) || pk.startsWith('ckpt#'));
}

test('a start nested 10,000 levels deep ends FAILED before anything runs, naming workflow, node and field', async () => {
  await invoke('Echo', undefined, `{"workflowId":"deep-start","input":${deepJson(10_000)}}`);
  await engine().idle();
  const run = await engine().readRun('Echo', 'deep-start');
  expect(run).toMatchObject({ status: 'FAILED', error: { node: 'Take', error: 'UnumEventError' } });
  expect(run.error?.cause).toMatch(/^workflow Echo, node Take: the start input nests deeper than 512 levels \(at \$\.input\[0\]\[0\]/);
  // Nothing but the FAILED record: no checkpoint, no other run.
  expect(await runItems('Echo', 'deep-start')).toEqual(['run#Echo#deep-start']);
});

test('a raw start that deep ends FAILED under its request id; a synchronous caller gets the refusal', async () => {
  const entry = engine().app.functions.get(qualifiedName(engine().workflow('Echo').entryFunction, LIVE_ALIAS)) as LocalFunction;
  const requestId = engine().emulator.accept(entry, deepJson(10_000));
  await engine().idle();
  expect(await engine().readRun('Echo', requestId)).toMatchObject({ status: 'FAILED', error: { error: 'UnumEventError', cause: expect.stringMatching(/the start input \(the raw event\) nests deeper than 512 levels/) as string } });

  const answer = await invoke('Echo', undefined, `{"workflowId":"deep-sync","input":{"a":${deepJson(10_000)}}}`, 'RequestResponse');
  expect(answer).toEqual({ workflowId: 'deep-sync', rejected: { error: 'UnumEventError', cause: expect.stringMatching(/at \$\.input\.a\[0\]/) as string } });
  expect(await engine().readRun('Echo', 'deep-sync')).toMatchObject({ status: 'FAILED' });
});

test('a start request larger than a failed start\'s record keeps ends FAILED, refused before it runs', async () => {
  await invoke('Echo', undefined, JSON.stringify({ workflowId: 'too-large', input: 'x'.repeat(START_EVENT_LIMIT_BYTES) }));
  await engine().idle();
  const run = await engine().readRun('Echo', 'too-large');
  expect(run).toMatchObject({ status: 'FAILED', error: { error: 'UnumEventError' } });
  expect(run.error?.cause).toMatch(new RegExp(`a start request of \\d+ bytes exceeds ${START_EVENT_LIMIT_BYTES} bytes`));
  expect(await runItems('Echo', 'too-large')).toEqual(['run#Echo#too-large']);
});

test('a handler result nested 10,000 levels deep fails the run at once, naming the node', async () => {
  const id = engine().startRun('Deepens', { x: 1 });
  const run = await engine().waitForRun('Deepens', id);
  expect(run).toMatchObject({ status: 'FAILED', error: { node: 'Deepen', error: 'States.DataLimitExceeded' } });
  expect(run.error?.cause).toMatch(/^workflow Deepens, node Deepen: the handler's result nests deeper than 512 levels \(at \$\[0\]\[0\]/);
});

test('a forged envelope that deep to a later node ends no run and is not retried; the engine runs on', async () => {
  const envelope = `{"unum":{"v":${ENVELOPE_VERSION},"workflow":"Echo","deployment":"","workflowId":"victim","node":"Then","iteration":0,"fanOut":[],"inputs":[{"value":${deepJson(10_000)}}]},"mac":"${'A'.repeat(43)}"}`;
  await invoke('Echo', 'Then', envelope);
  const victim = engine().startRun('Echo', { ok: 1 }, { workflowId: 'victim' });
  expect(await engine().waitForRun('Echo', victim)).toMatchObject({ status: 'SUCCEEDED', result: { ok: 1 } });
  await engine().idle();
  expect(await engine().readRun('Echo', 'victim')).toMatchObject({ status: 'SUCCEEDED' });
  // Refused at once: no retry, nothing sent to the failure recorder.
  const forged = engine().emulator.timeline.of('victim').filter((e) => e.outcome !== 'ok');
  expect(forged).toEqual([]);
});
