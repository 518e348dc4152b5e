/**
 * A crash Lambda gave up on, on the local engine with the construct's
 * failure recorder (its spec file beside its bundle): inside a Parallel
 * with a Catch, it fails the state, whose Catch routes it, and the run goes
 * on; outside any, it fails the run, and the record names the state (an
 * ASL name with a space), not only its function's node.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { fromAsl } from '../../lib/asl';
import { UnumWorkflow } from '../../lib/construct';
import { LocalEngine } from '../../lib/local/engine';
import { runWorkflow } from '../../lib/local/run-workflow';
import { engineDynamoDb } from '../support/test-dynamodb';

jest.setTimeout(180_000);

const entry = path.join(__dirname, 'fixtures', 'state-failures', 'handlers.ts');
let engine: LocalEngine;
let outDir: string;

const checkout = {
  StartAt: 'Check order',
  States: {
    'Check order': {
      Type: 'Parallel',
      Branches: [
        { StartAt: 'Reserve', States: { Reserve: { Type: 'Task', Resource: 'reserve', End: true } } },
        { StartAt: 'Charge card', States: { 'Charge card': { Type: 'Task', Resource: 'crash', End: true } } },
      ],
      Catch: [{ ErrorEquals: ['States.TaskFailed'], ResultPath: '$.failure', Next: 'Handle failure' }],
      End: true,
    },
    'Handle failure': { Type: 'Task', Resource: 'handle', End: true },
  },
};

const direct = { StartAt: 'Charge card', States: { 'Charge card': { Type: 'Task', Resource: 'crash', End: true } } };

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-state-failures-'));
  const app = new App({ outdir: outDir });
  const stack = new Stack(app, 'StateFailures');
  const defaultTask = (t: { functionName: string }) => ({ entry, handler: t.functionName });
  for (const [name, asl] of Object.entries({ Checkout: checkout, Direct: direct })) {
    new UnumWorkflow(stack, name, { definition: fromAsl(asl, { workflowName: name, defaultTask }), retryAttempts: 0, removalPolicy: RemovalPolicy.DESTROY });
  }
  app.synth();
  engine = await LocalEngine.fromCloudAssembly(outDir, { timeScale: 0.001, ...engineDynamoDb() });
});

afterAll(async () => {
  await engine?.stop();
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

test('a branch whose process dies fails its Parallel, whose Catch (States.TaskFailed) routes the error; the run goes on', async () => {
  const run = await runWorkflow(engine, 'Checkout', { id: 'o-1' }, { workflowId: 'crashed-branch' });
  expect(run.status).toBe('SUCCEEDED');
  expect(run.result).toEqual({ id: 'o-1', failure: { Error: 'Runtime.ExitError', Cause: expect.stringContaining('"errorType":"Runtime.ExitError"') as unknown } });
});

test('outside any state with rules, the crash fails the run, and the record names the state', async () => {
  const run = await runWorkflow(engine, 'Direct', { id: 'o-2' }, { workflowId: 'crashed-task' });
  expect(run.status).toBe('FAILED');
  expect(run.error).toMatchObject({ state: 'Charge card', error: 'Runtime.ExitError' });
  expect(run.error?.node).not.toBe('Charge card');
});
