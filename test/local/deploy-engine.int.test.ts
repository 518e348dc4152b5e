/**
 * `LocalEngine.deploy` on an assembly of plain functions shaped as the
 * construct deploys a workflow's (versions, deployment aliases, the entry's
 * `live`, a `Custom::UnumDeployment`): the first deploy sends the custom
 * resource Create and later ones Update; a half-finished deploy has the new
 * aliases and `$LATEST` on the new code while `live` still names the old
 * version; tables and their items stay; a deploy whose custom resource
 * answers FAILED fails with its reason and leaves the last deployment as it was;
 * a custom resource function may make the aliases through Lambda's API instead;
 * the watcher of `unum local start` deploys a synth written over the
 * assembly, and with `--watch` synthesizes the app when its sources change.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { LocalEngine } from '../../lib/local/engine';
import { synthesize } from '../../lib/local/synth';
import { AppWatcher } from '../../lib/local/watch';
import { engineDynamoDb } from '../support/test-dynamodb';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';
import { writeVersionedAssembly } from './fixtures/versioned-assembly/build';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const D1 = 'd11111111111111111111';
const D2 = 'd22222222222222222222';
const D3 = 'd33333333333333333333';
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-deploy-engine-'));
const v1 = writeVersionedAssembly(path.join(root, 'v1'), { deployment: D1, code: 'v1', tables: ['Table'] });
const v2 = writeVersionedAssembly(path.join(root, 'v2'), { deployment: D2, code: 'v2', tables: ['Table', 'Extra'] });
const v3 = writeVersionedAssembly(path.join(root, 'v3'), { deployment: D3, code: 'v3', tables: ['Table', 'Extra'], sweeperFails: true });

const requests: Array<Record<string, unknown>> = [];
let engine: LocalEngine;
beforeAll(async () => {
  engine = await LocalEngine.fromCloudAssembly(v1, {
    ...engineDynamoDb(),
    onLog: (line) => {
      if (line.startsWith('{"request"')) requests.push((JSON.parse(line) as { request: Record<string, unknown> }).request);
    },
  });
});
afterAll(async () => {
  await engine?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const who = async (ref: string): Promise<{ code: string; version: string }> => {
  const reply = await engine.emulator.invoke({ functionRef: ref, invocationType: 'RequestResponse', payload: '{}' });
  if (reply.statusCode !== 200) throw new Error(`${ref}: ${reply.statusCode} ${reply.body}`);
  return JSON.parse(reply.body) as { code: string; version: string };
};
const tableName = (logicalId: string): string => engine.app.tables.find((t) => t.logicalId === logicalId)?.tableName as string;

test('deploys while the old deployment keeps running; live moves last; Create then Update; tables and items stay; a FAILED custom resource fails the deploy', async () => {
  expect(requests.map((r) => [r.RequestType, (r.ResourceProperties as { Deployment: string }).Deployment])).toEqual([['Create', D1]]);
  expect(await who('dep-entry:live')).toMatchObject({ code: 'v1', version: '1' });
  await engine.dynamo.send(new PutItemCommand({ TableName: tableName('Table'), Item: { pk: { S: 'kept' } } }));

  const pending = await engine.beginDeploy(v2);
  expect(await who('dep-entry:live')).toMatchObject({ code: 'v1', version: '1' });
  expect(await who(`dep-entry:${D2}`)).toMatchObject({ code: 'v2', version: '2' });
  expect(await who('dep-entry')).toMatchObject({ code: 'v2', version: '$LATEST' });
  // The custom resource runs as the deploy finishes, just before live moves.
  expect(requests.map((r) => r.RequestType)).toEqual(['Create']);
  await pending.finish();
  expect(requests.map((r) => r.RequestType)).toEqual(['Create', 'Update']);
  expect(requests[1]).toMatchObject({ OldResourceProperties: { Deployment: D1 }, ResourceProperties: { Deployment: D2 }, PhysicalResourceId: `sweeper-${D1}` });
  // The versions the engine published, as CloudFormation gives the custom resource the numbers Lambda gave.
  const functions = (r: Record<string, unknown>, key: string): unknown => (r[key] as { Functions: unknown }).Functions;
  const listed = (version: string): unknown => ['Entry', 'Fail', 'Recorder'].map((id) => ({ FunctionName: `dep-${id.toLowerCase()}`, Version: version, Role: `${id}Role` }));
  expect(functions(requests[1] as Record<string, unknown>, 'ResourceProperties')).toEqual(listed('2'));
  expect(functions(requests[1] as Record<string, unknown>, 'OldResourceProperties')).toEqual(listed('1'));
  expect(await who('dep-entry:live')).toMatchObject({ code: 'v2', version: '2' });
  expect(await who(`dep-entry:${D1}`)).toMatchObject({ code: 'v1', version: '1' });

  expect((await engine.dynamo.send(new GetItemCommand({ TableName: tableName('Table'), Key: { pk: { S: 'kept' } } }))).Item).toBeDefined();
  expect((await engine.dynamo.send(new GetItemCommand({ TableName: tableName('Extra'), Key: { pk: { S: 'none' } } }))).Item).toBeUndefined();

  await expect(engine.deploy(v3)).rejects.toThrow(`custom resource DepStack/Deployment (Custom::UnumDeployment, function dep-sweeper) failed: sweeper refused ${D3}`);
  expect(await who('dep-entry:live')).toMatchObject({ code: 'v2' });
  expect(await who('dep-entry')).toMatchObject({ code: 'v2' });
  const gone = await engine.emulator.invoke({ functionRef: `dep-entry:${D3}`, invocationType: 'RequestResponse', payload: '{}' });
  expect(gone.statusCode).toBe(404);
  // The next deploy of the same synth updates from the last deploy that succeeded.
  expect(await engine.deploy(v2)).toEqual({});
  expect(requests).toHaveLength(3);
});

test('a custom resource function that makes the aliases through Lambda\'s API: live and the new aliases appear as the deploy finishes; failures go to the recorder its settings name', async () => {
  const d1 = writeVersionedAssembly(path.join(root, 'api-v1'), { deployment: D1, code: 'v1', aliasesByFunction: true });
  const d2 = writeVersionedAssembly(path.join(root, 'api-v2'), { deployment: D2, code: 'v2', aliasesByFunction: true });
  const recorded: unknown[] = [];
  const api = await LocalEngine.fromCloudAssembly(d1, {
    ...engineDynamoDb(),
    onLog: (line) => {
      if (line.startsWith('{"recorded"')) recorded.push((JSON.parse(line) as { recorded: unknown }).recorded);
    },
  });
  try {
    const invoke = (ref: string): Promise<{ statusCode: number; body: string }> => api.emulator.invoke({ functionRef: ref, invocationType: 'RequestResponse', payload: '{}' });
    expect(JSON.parse((await invoke('dep-entry:live')).body)).toMatchObject({ code: 'v1', version: '1' });
    const pending = await api.beginDeploy(d2);
    expect(JSON.parse((await invoke('dep-entry:live')).body)).toMatchObject({ code: 'v1' });
    expect(JSON.parse((await invoke('dep-entry:2')).body)).toMatchObject({ code: 'v2', version: '2' });
    expect((await invoke(`dep-entry:${D2}`)).statusCode).toBe(404);
    await pending.finish();
    expect(JSON.parse((await invoke('dep-entry:live')).body)).toMatchObject({ code: 'v2', version: '2', invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:dep-entry:live' });
    expect(JSON.parse((await invoke(`dep-entry:${D1}`)).body)).toMatchObject({ code: 'v1', version: '1' });
    await api.emulator.invoke({ functionRef: `dep-fail:${D2}`, invocationType: 'Event', payload: JSON.stringify({ workflowId: 'api-run', input: 1 }) });
    await api.idle('api-run');
    expect(recorded).toEqual([expect.objectContaining({ requestContext: expect.objectContaining({ functionArn: `arn:aws:lambda:us-east-1:000000000000:function:dep-fail:${D2}` }) })]);
  } finally {
    await api.stop();
  }
});

test('the watcher deploys each new synth written over the assembly; older deployments keep running their own copy of it', async () => {
  const dir = writeVersionedAssembly(path.join(root, 'watched'), { deployment: D1, code: 'v1' });
  const lines: string[] = [];
  const watcher = new AppWatcher({ assembly: dir, log: (line) => lines.push(line) });
  const watched = await LocalEngine.fromCloudAssembly(watcher.first, engineDynamoDb());
  try {
    watcher.watch(watched);
    writeVersionedAssembly(dir, { deployment: D2, code: 'v2' });
    for (let i = 0; i < 2400 && !lines.some((l) => l.startsWith('deployed')); i++) await new Promise((r) => setTimeout(r, 50));
    await watcher.settled();
    expect(lines).toEqual([expect.stringMatching(/^deployed the new synth of .*watched: live now \(no workflow\); runs in flight finish on the deployment they started on$/)]);
    const run = async (ref: string): Promise<unknown> => JSON.parse((await watched.emulator.invoke({ functionRef: ref, invocationType: 'RequestResponse', payload: '{}' })).body);
    expect(await run('dep-entry:live')).toMatchObject({ code: 'v2', version: '2' });
    // The synth of v2 overwrote the assembly's bundle: v1 runs from the copy it was deployed from.
    expect(await run(`dep-entry:${D1}`)).toMatchObject({ code: 'v1', version: '1' });
  } finally {
    watcher.stop();
    await watched.stop();
    watcher.removeCopies();
  }
});

test('with the app directory, the watcher synthesizes the app again when its sources change, and deploys that synth', async () => {
  // A CDK app whose synth copies the assembly its source `version.json` names.
  const appDir = path.join(root, 'app');
  fs.mkdirSync(appDir);
  fs.symlinkSync(path.resolve(__dirname, '../../node_modules'), path.join(appDir, 'node_modules'));
  fs.writeFileSync(path.join(appDir, 'cdk.json'), JSON.stringify({ app: 'node app.js', notices: false, versionReporting: false }));
  fs.writeFileSync(path.join(appDir, 'app.js'), "require('fs').cpSync(require('./version.json').from, process.env.CDK_OUTDIR, { recursive: true });\n");
  const version = (code: string, deployment: string): void =>
    fs.writeFileSync(path.join(appDir, 'version.json'), JSON.stringify({ from: writeVersionedAssembly(path.join(root, `app-${code}`), { code, deployment }) }));
  version('v1', D1);
  const assembly = path.join(appDir, 'cdk.out');
  await synthesize({ appDir, outDir: assembly });
  const lines: string[] = [];
  const watcher = new AppWatcher({ assembly, appDir, log: (line) => lines.push(line) });
  const watched = await LocalEngine.fromCloudAssembly(watcher.first, engineDynamoDb());
  try {
    watcher.watch(watched);
    version('v2', D2);
    for (let i = 0; i < 6000 && !lines.some((l) => l.startsWith('deployed')); i++) await new Promise((r) => setTimeout(r, 50));
    await watcher.settled();
    expect(lines).toEqual([expect.stringMatching(/^sources changed: synthesizing /), expect.stringMatching(/^deployed the new synth of /)]);
    const reply = await watched.emulator.invoke({ functionRef: 'dep-entry:live', invocationType: 'RequestResponse', payload: '{}' });
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'v2', version: '2' });
  } finally {
    watcher.stop();
    await watched.stop();
    watcher.removeCopies();
  }
});
