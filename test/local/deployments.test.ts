/**
 * Deployments on the local engine's Lambda side, without DynamoDB: the reader
 * gives each function per qualifier (its version, aliases, async settings per
 * qualifier), a deploy publishes new versions beside the old ones with `live`
 * moved last, the Invoke API resolves qualifiers as Lambda does, and the
 * deployment custom resource is sent Create, then Update, and can fail a deploy.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  CreateAliasCommand, DeleteAliasCommand, DeleteFunctionCommand, DeleteFunctionEventInvokeConfigCommand, GetAliasCommand, InvokeCommand, LambdaClient,
  PutFunctionEventInvokeConfigCommand, ResourceConflictException, ResourceNotFoundException, UpdateAliasCommand,
} from '@aws-sdk/client-lambda';
import { readCloudAssembly, type LocalCustomResource } from '../../lib/local/assembly';
import { Traffic } from '../../lib/local/call-records';
import { CustomResourceResponses, deployCustomResource, type CustomResourceState } from '../../lib/local/custom-resources';
import { DeployedFunctions } from '../../lib/local/deployed-functions';
import { LambdaEmulator } from '../../lib/local/emulator';
import { handleManagement } from '../../lib/local/lambda-management';
import { FaultProxy } from '../../lib/local/fault-proxy';
import { FunctionRunner } from '../../lib/local/function-runner';
import { SchedulerEmulator } from '../../lib/local/scheduler-emulator';
import { SqsEmulator } from '../../lib/local/sqs-emulator';
import { writeVersionedAssembly } from './fixtures/versioned-assembly/build';

const D1 = 'd11111111111111111111';
const D2 = 'd22222222222222222222';
const ARN = 'arn:aws:lambda:us-east-1:000000000000:function:';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-deployments-'));
const v1 = readCloudAssembly(writeVersionedAssembly(path.join(root, 'v1'), { deployment: D1, code: 'v1' }));
const v2 = readCloudAssembly(writeVersionedAssembly(path.join(root, 'v2'), { deployment: D2, code: 'v2' }));
const v3 = readCloudAssembly(writeVersionedAssembly(path.join(root, 'v3'), { deployment: 'd33333333333333333333', code: 'v3', sweeperFails: true }));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('reading an assembly with versions and aliases', () => {
  test('each function by name ($LATEST), by its version and by each alias, with the async settings of that qualifier', () => {
    const fail = v1.functions.get(`dep-fail:${D1}`);
    expect(fail).toMatchObject({ functionName: 'dep-fail', qualifier: D1, version: '1', deployment: D1, async: { retryAttempts: 0, onFailure: { function: 'dep-recorder', qualifier: D1 } } });
    // The entry's destination is a Fn::Join of the recorder's ARN and the deployment: the same alias.
    expect(v1.functions.get(`dep-entry:${D1}`)?.async.onFailure).toEqual({ function: 'dep-recorder', qualifier: D1 });
    expect(v1.functions.get('dep-entry:live')).toMatchObject({ qualifier: 'live', version: '1', deployment: D1 });
    expect(v1.functions.get('dep-entry')).toMatchObject({ qualifier: '$LATEST', version: '$LATEST', async: { retryAttempts: 2 } });
    expect(v1.functions.get('dep-entry')?.async.onFailure).toBeUndefined();
    // The sweeper has no alias: only $LATEST.
    expect([...v1.functions.keys()].filter((k) => k.startsWith('dep-sweeper'))).toEqual(['dep-sweeper']);
  });

  test('the deployment custom resource, its properties resolved', () => {
    expect(v1.customResources).toEqual([{
      stack: 'DepStack', logicalId: 'Deployment', type: 'Custom::UnumDeployment',
      serviceToken: { functionName: 'dep-sweeper' },
      properties: {
        ServiceToken: `${ARN}dep-sweeper`,
        Deployment: D1,
        Functions: ['entry', 'fail', 'recorder'].map((f) => ({ FunctionName: `dep-${f}`, Version: '1', Role: `${f[0]?.toUpperCase()}${f.slice(1)}Role` })),
        Fail: 'no',
        MakeAliases: 'no',
      },
      // The engine writes the version it publishes there.
      versions: ['entry', 'fail', 'recorder'].map((f, i) => ({ path: ['Functions', i, 'Version'], functionName: `dep-${f}` })),
    }]);
  });
});

describe('deploying on the Lambda emulator', () => {
  const logs: string[] = [];
  let endpoint = '';
  const deployed = new DeployedFunctions();
  const runner = new FunctionRunner({ get endpoint() { return endpoint; }, region: 'us-east-1', onLog: (line) => logs.push(line) });
  const emulator = new LambdaEmulator(deployed.functions, runner, { timeScale: 0.0005 });
  const scheduler = new SchedulerEmulator({ timeScale: 0.0005, pending: emulator.pending, deliver: () => undefined });
  const responses = new CustomResourceResponses();
  const proxy = new FaultProxy({
    dynamoEndpoint: 'http://127.0.0.1:9', emulator, runner, sqs: new SqsEmulator([]), scheduler, traffic: new Traffic(), planFor: () => undefined, timeoutHoldMs: 1, customResourceResponses: responses,
    lambdaManagement: (method, pathname, query, body) => handleManagement(deployed, method, pathname, query, body),
  });
  let lambda: LambdaClient;
  const text = (p: Uint8Array | undefined): unknown => JSON.parse(Buffer.from(p ?? []).toString('utf8'));
  const who = async (FunctionName: string, Qualifier?: string): Promise<unknown> =>
    text((await lambda.send(new InvokeCommand({ FunctionName, ...(Qualifier ? { Qualifier } : {}), Payload: Buffer.from('{}') }))).Payload);

  beforeAll(async () => {
    endpoint = await proxy.start();
    lambda = new LambdaClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, maxAttempts: 1 });
  });
  afterAll(async () => {
    emulator.stop();
    scheduler.stop();
    await runner.close();
    await proxy.stop();
    lambda.destroy();
  });

  test('a second deploy adds versions and aliases beside the first; live moves last; qualifiers resolve as in Lambda', async () => {
    deployed.publish(v1);
    deployed.moveLive(v1);
    expect(await who('dep-entry', 'live')).toEqual({ code: 'v1', version: '1', contextVersion: '1', invokedFunctionArn: `${ARN}dep-entry:live` });

    deployed.publish(v2);
    // Half deployed: the new alias and $LATEST run the new code, live still the old version.
    expect(await who(`dep-entry:${D2}`)).toEqual({ code: 'v2', version: '2', contextVersion: '2', invokedFunctionArn: `${ARN}dep-entry:${D2}` });
    expect(await who('dep-entry')).toEqual({ code: 'v2', version: '$LATEST', contextVersion: '$LATEST', invokedFunctionArn: `${ARN}dep-entry` });
    expect(await who(`${ARN}dep-entry:live`)).toMatchObject({ code: 'v1', version: '1' });
    expect(await who(`${ARN}dep-entry`, D1)).toMatchObject({ code: 'v1', version: '1' });
    expect(await who('dep-entry', '1')).toMatchObject({ code: 'v1', version: '1' });

    deployed.moveLive(v2);
    expect(await who('dep-entry:live')).toMatchObject({ code: 'v2', version: '2', invokedFunctionArn: `${ARN}dep-entry:live` });
    expect(await who(`dep-entry:${D1}`)).toMatchObject({ code: 'v1', version: '1' });

    const unknown = lambda.send(new InvokeCommand({ FunctionName: 'dep-entry:d99999999999999999999', Payload: Buffer.from('{}') }));
    await expect(unknown).rejects.toBeInstanceOf(ResourceNotFoundException);
    await expect(unknown).rejects.toThrow(`Function not found: ${ARN}dep-entry:d99999999999999999999`);
  });

  test('a failed async event of an older deployment goes to that deployment\'s recorder, naming the qualified ARN and the version', async () => {
    logs.length = 0;
    await lambda.send(new InvokeCommand({ FunctionName: `dep-fail:${D1}`, InvocationType: 'Event', Payload: Buffer.from(JSON.stringify({ workflowId: 'old-run', input: 1 })) }));
    await emulator.pending.idle('old-run');
    const recorded = logs.map((l) => JSON.parse(l) as { recorded?: Record<string, unknown> }).flatMap((l) => (l.recorded ? [l.recorded] : []));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      requestContext: { functionArn: `${ARN}dep-fail:${D1}`, condition: 'RetriesExhausted', approximateInvokeCount: 1 },
      responseContext: { executedVersion: '1' },
      responsePayload: { errorType: 'BoomError', errorMessage: 'failed in v1' },
    });
    expect(emulator.timeline.of('old-run').map((e) => e.functionName)).toEqual(['dep-fail', 'dep-recorder']);
  });

  test('the custom resource gets Create, then Update with the old properties; FAILED fails with its reason and the deploy is undone', async () => {
    const context = { endpoint, responses, invoke: (req: Parameters<LambdaEmulator['invoke']>[0]) => emulator.invoke(req) };
    const [r1, r2, r3] = [v1, v2, v3].map((a) => a.customResources[0] as LocalCustomResource) as [LocalCustomResource, LocalCustomResource, LocalCustomResource];
    logs.length = 0;
    const created = await deployCustomResource(r1, undefined, context) as CustomResourceState;
    expect(created).toEqual({ properties: r1.properties, physicalResourceId: `sweeper-${D1}` });
    expect(await deployCustomResource(r1, created, context)).toBeUndefined();
    const updated = await deployCustomResource(r2, created, context);
    expect(updated).toEqual({ properties: r2.properties, physicalResourceId: `sweeper-${D1}` });
    const requests = logs.map((l) => JSON.parse(l) as { request?: Record<string, unknown> }).flatMap((l) => (l.request ? [l.request] : []));
    expect(requests.map((r) => r.RequestType)).toEqual(['Create', 'Update']);
    expect(requests[1]).toMatchObject({
      PhysicalResourceId: `sweeper-${D1}`, LogicalResourceId: 'Deployment', ResourceType: 'Custom::UnumDeployment',
      ResourceProperties: { Deployment: D2 }, OldResourceProperties: { Deployment: D1 },
    });

    const undo = deployed.publish(v3);
    expect(await who('dep-entry')).toMatchObject({ code: 'v3' });
    await expect(deployCustomResource(r3, updated, context)).rejects.toThrow('custom resource DepStack/Deployment (Custom::UnumDeployment, function dep-sweeper) failed: sweeper refused d33333333333333333333');
    undo();
    expect(await who('dep-entry')).toMatchObject({ code: 'v2' });
    await expect(lambda.send(new InvokeCommand({ FunctionName: 'dep-entry:d33333333333333333333', Payload: Buffer.from('{}') }))).rejects.toBeInstanceOf(ResourceNotFoundException);
  });

  test('aliases, async settings and deletions through Lambda\'s API, with its errors', async () => {
    await lambda.send(new CreateAliasCommand({ FunctionName: 'dep-entry', Name: 'made', FunctionVersion: '1' }));
    await expect(lambda.send(new CreateAliasCommand({ FunctionName: 'dep-entry', Name: 'made', FunctionVersion: '2' }))).rejects.toBeInstanceOf(ResourceConflictException);
    await expect(lambda.send(new CreateAliasCommand({ FunctionName: 'dep-entry', Name: 'other', FunctionVersion: '9' }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    expect(await who('dep-entry:made')).toMatchObject({ code: 'v1', version: '1' });
    expect(await lambda.send(new UpdateAliasCommand({ FunctionName: 'dep-entry', Name: 'made', FunctionVersion: '2' }))).toMatchObject({ Name: 'made', FunctionVersion: '2' });
    expect(await lambda.send(new GetAliasCommand({ FunctionName: `${ARN}dep-entry`, Name: 'made' }))).toMatchObject({ AliasArn: `${ARN}dep-entry:made`, FunctionVersion: '2' });
    expect(await who('dep-entry:made')).toMatchObject({ code: 'v2', version: '2', invokedFunctionArn: `${ARN}dep-entry:made` });

    await lambda.send(new PutFunctionEventInvokeConfigCommand({ FunctionName: 'dep-entry', Qualifier: 'made', MaximumRetryAttempts: 1, MaximumEventAgeInSeconds: 600 }));
    expect(deployed.functions.get('dep-entry:made')?.async).toEqual({ retryAttempts: 1, maxEventAgeSeconds: 600 });
    await lambda.send(new DeleteFunctionEventInvokeConfigCommand({ FunctionName: 'dep-entry', Qualifier: 'made' }));
    expect(deployed.functions.get('dep-entry:made')?.async).toEqual({ retryAttempts: 2, maxEventAgeSeconds: 21600 });

    // A version an alias names cannot go; once the alias is gone it can.
    await expect(lambda.send(new DeleteFunctionCommand({ FunctionName: 'dep-entry', Qualifier: '2' }))).rejects.toBeInstanceOf(ResourceConflictException);
    await lambda.send(new DeleteAliasCommand({ FunctionName: 'dep-entry', Name: 'made' }));
    await expect(lambda.send(new GetAliasCommand({ FunctionName: 'dep-entry', Name: 'made' }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    await lambda.send(new DeleteAliasCommand({ FunctionName: 'dep-fail', Name: D1 }));
    await lambda.send(new DeleteFunctionCommand({ FunctionName: 'dep-fail', Qualifier: '1' }));
    await expect(who(`dep-fail:1`)).rejects.toBeInstanceOf(ResourceNotFoundException);
    await lambda.send(new DeleteFunctionCommand({ FunctionName: 'dep-fail' }));
    expect([...deployed.functions.keys()].filter((k) => k.startsWith('dep-fail'))).toEqual([]);
    await expect(lambda.send(new DeleteFunctionCommand({ FunctionName: 'dep-fail' }))).rejects.toBeInstanceOf(ResourceNotFoundException);
  });
});
