/** `Custom::UnumDeployment` (runtime/deployments/custom-resource.ts, record.ts, workflow-deletion.ts): every request done as it says and answered by a PUT to its ResponseURL. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleCustomResource } from '../../runtime/deployments/custom-resource';
import { createSweeperHandler } from '../../runtime/deployments/handler';
import { ENV } from '../../runtime/contract/ir';
import { D1, D2, HANDOFF_SECONDS, RETENTION_SECONDS, World, at, fn, iso, publish, recorderArn, resourceProperties } from './world';

interface Received {
  readonly method?: string;
  readonly contentType?: string;
  readonly body: Record<string, unknown>;
}

let server: http.Server;
let url: string;
let received: Received[];
/** Status codes the next PUTs are answered with (then 200). */
let failures: number[];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      received.push({ method: req.method, contentType: req.headers['content-type'], body: JSON.parse(text) as Record<string, unknown> });
      res.writeHead(failures.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/response?signed=1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let logs: Record<string, unknown>[];
beforeEach(() => {
  received = [];
  failures = [];
  logs = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    logs.push(JSON.parse(String(chunk)) as Record<string, unknown>);
    return true;
  });
});
afterEach(() => jest.restoreAllMocks());

const properties = resourceProperties;

const request = (requestType: 'Create' | 'Update' | 'Delete', props: unknown, physical?: string) => ({
  RequestType: requestType,
  ResponseURL: url,
  StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/app/1',
  RequestId: `req-${requestType}`,
  ResourceType: 'Custom::UnumDeployment',
  LogicalResourceId: 'WfDeployments',
  ...(physical === undefined ? {} : { PhysicalResourceId: physical }),
  ResourceProperties: props,
});

const sweeperAt = (world: World, minutes: number) => createSweeperHandler({ workflow: 'wf', records: world.records, resources: world.resources, now: () => at(minutes) });

/** The sweeper at minute `minutes`, sent a request once CloudFormation has published what its properties name. */
const handlerAt = (world: World, minutes: number) => (event: ReturnType<typeof request> | Record<string, unknown>) => {
  publish(world, (event as { ResourceProperties?: unknown }).ResourceProperties);
  return sweeperAt(world, minutes)(event);
};

test('Create gives the deployment its aliases, records it, moves live, and answers SUCCESS by a PUT of the response document', async () => {
  const world = new World();
  await handlerAt(world, 0)(request('Create', properties(D1)));
  expect(Object.fromEntries(world.resources.aliases)).toEqual({ [`wf-A:${D1}`]: '3', 'wf-A:live': '3' });
  const settings = { maximumRetryAttempts: 2, maximumEventAgeInSeconds: 3600, onFailure: recorderArn(D1) };
  expect(Object.fromEntries(world.resources.configs)).toEqual({ [`wf-A:${D1}`]: settings, 'wf-A:live': settings });
  expect(received).toEqual([{
    method: 'PUT',
    contentType: '',
    body: {
      Status: 'SUCCESS',
      Reason: `deployment ${D1} recorded; live is wf-A:3`,
      PhysicalResourceId: 'wf-deployments',
      StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/app/1',
      RequestId: 'req-Create',
      LogicalResourceId: 'WfDeployments',
    },
  }]);
  expect(world.record(D1)).toEqual({
    deployment: D1,
    activatedAt: iso(0),
    functions: [{ node: 'A', functionName: 'wf-A', version: '3', roleName: `wf-A-${D1}` }],
    schedulerRoleName: `wf-scheduler-${D1}`,
    graph: { A: ['B'], B: [] },
    handoffSeconds: HANDOFF_SECONDS,
    runRetentionSeconds: RETENTION_SECONDS,
  });
  expect(logs).toEqual([expect.objectContaining({ level: 'INFO', message: 'unum deployment resource', workflow: 'wf', requestType: 'Create', status: 'SUCCESS' })]);
});

test('Update supersedes the current deployment; the same request again changes nothing', async () => {
  const world = new World();
  await handlerAt(world, 0)(request('Create', properties(D1)));
  await handlerAt(world, 60)(request('Update', properties(D2), 'wf-deployments'));
  await handlerAt(world, 61)(request('Update', properties(D2), 'wf-deployments'));
  expect(received.map((r) => r.body.Reason)).toEqual([
    `deployment ${D1} recorded; live is wf-A:3`,
    `deployment ${D2} recorded; superseded ${D1}; live is wf-A:3`,
    `deployment ${D2} already current; live is wf-A:3`,
  ]);
  expect(world.record(D1)?.supersededAt).toBe(iso(60));
  expect(world.record(D2)).toMatchObject({ activatedAt: iso(60) });
  expect(world.record(D2)?.supersededAt).toBeUndefined();
});

test('a rollback to a superseded deployment makes it current again, keeping its first activation', async () => {
  const world = new World();
  await handlerAt(world, 0)(request('Create', properties(D1)));
  await handlerAt(world, 60)(request('Update', properties(D2), 'wf-deployments'));
  await handlerAt(world, 62)(request('Update', properties(D1), 'wf-deployments'));
  expect(received.at(-1)?.body).toMatchObject({ Status: 'SUCCESS', Reason: `deployment ${D1} activated again; superseded ${D2}; live is wf-A:3` });
  expect(world.record(D1)).toMatchObject({ activatedAt: iso(0) });
  expect(world.record(D1)?.supersededAt).toBeUndefined();
  expect(world.record(D2)?.supersededAt).toBe(iso(62));
});

test('a deployment the sweeper is removing cannot be made current: FAILED, with why, before any alias is touched', async () => {
  const world = new World();
  world.deploy(D1, [fn('A', D1, '1')], 0, 60);
  world.deploy(D2, [fn('A', D2, '2')], 60);
  world.resources.aliases.set('wf-A:live', '2');
  await world.records.markRemoving(D1, iso(80));
  await handlerAt(world, 81)(request('Update', properties(D1), 'wf-deployments'));
  expect(received[0].body).toMatchObject({ Status: 'FAILED', Reason: expect.stringContaining(`deployment ${D1} was superseded at ${iso(60)} and the sweeper is removing its versions and aliases`) });
  expect(world.record(D2)?.supersededAt).toBeUndefined();
  expect(world.resources.calls).toEqual([]);
});

test('a deployment removed long ago and deployed again is recorded anew', async () => {
  const world = new World();
  world.deploy(D1, [fn('A', D1, '1')], 0, 60);
  world.deploy(D2, [fn('A', D2, '2')], 60);
  await world.records.markRemoving(D1, iso(80));
  await world.records.markRemoved(D1, iso(80), 1);
  world.resources.aliases.delete(`wf-A:${D1}`);
  await handlerAt(world, 500)(request('Update', properties(D1, [fn('A', D1, '9')]), 'wf-deployments'));
  expect(received[0].body).toMatchObject({ Status: 'SUCCESS', Reason: `deployment ${D1} recorded; superseded ${D2}; live is wf-A:9` });
  expect(world.record(D1)).toMatchObject({ activatedAt: iso(500), functions: [{ version: '9' }] });
  expect(world.record(D1)?.removedAt).toBeUndefined();
  expect(world.record(D1)?.replaced).toBeUndefined();
  expect(world.resources.aliases.get(`wf-A:${D1}`)).toBe('9');
});

test('Delete deletes the workflow\'s functions and roles, and answers SUCCESS with the id it names', async () => {
  const world = new World();
  await handlerAt(world, 0)(request('Create', properties(D1)));
  await handlerAt(world, 60)(request('Delete', properties(D1), 'wf-deployments'));
  expect(received[1].body).toMatchObject({ Status: 'SUCCESS', Reason: `workflow deleted: 1 function, 2 roles; recorded ${D1} removed`, PhysicalResourceId: 'wf-deployments' });
  expect([...world.resources.functions, ...world.resources.roles]).toEqual([]);
  expect(world.record(D1)).toMatchObject({ supersededAt: iso(60), removedAt: iso(60) });
  expect(logs.at(-1)).toMatchObject({ level: 'INFO', requestType: 'Delete', status: 'SUCCESS' });
});

test('a Delete that leaves something, or of a failed Create named by another id, still answers SUCCESS: FAILED would block the stack\'s deletion', async () => {
  const world = new World();
  world.resources.failing.add('deleteFunction wf-A');
  await handlerAt(world, 0)(request('Delete', properties(D1), 'WfDeployments'));
  expect(received[0].body).toMatchObject({ Status: 'SUCCESS', Reason: expect.stringContaining('not done: deleting function wf-A (AccessDeniedException'), PhysicalResourceId: 'WfDeployments' });
  expect(world.resources.roles.size).toBe(0);

  const noResources = () => {
    throw new Error('no Lambda client');
  };
  await handleCustomResource(request('Delete', properties(D1), 'WfDeployments'), { workflow: () => 'wf', records: () => world.records, resources: noResources });
  expect(received[1].body).toMatchObject({ Status: 'SUCCESS', Reason: 'nothing deleted: no Lambda client', PhysicalResourceId: 'WfDeployments' });
});

test('a Delete without its environment answers SUCCESS, having deleted what its properties name', async () => {
  const world = new World();
  publish(world, properties(D1));
  const saved = process.env[ENV.workflow];
  delete process.env[ENV.workflow];
  try {
    await createSweeperHandler({ resources: world.resources })(request('Delete', properties(D1), 'WfDeployments'));
  } finally {
    if (saved !== undefined) process.env[ENV.workflow] = saved;
  }
  expect(received[0].body).toMatchObject({ Status: 'SUCCESS', Reason: expect.stringContaining(`reading the deployment records, so only what the resource's properties name was deleted (Error: unum sweeper: environment variable`) });
  expect(world.resources.functions.size).toBe(0);
});

test.each([
  ['a deployment id of another form', { ...properties(D1), Deployment: 'latest' }, 'Deployment must match'],
  ['no functions', { ...properties(D1), Functions: 'A' }, 'Functions must be a list'],
  ['a handoff that is not a number of seconds', { ...properties(D1), HandoffSeconds: 'soon' }, 'HandoffSeconds must be a whole number of seconds, got "soon"'],
  ['no graph', { ...properties(D1), Graph: undefined }, 'Graph must be an object of successor lists'],
  ['an entry node no function runs', { ...properties(D1), EntryNode: 'Z' }, `EntryNode 'Z' must be the Node of exactly one of Functions, found 0`],
  ['an entry without async-invoke settings', { ...properties(D1), Functions: [{ Node: 'A', FunctionName: 'wf-A', Version: '3' }] }, 'Functions[0] (the entry node A) must have Async settings: clients start runs by invoking its live alias asynchronously'],
  ['async-invoke settings that are not an object', { ...properties(D1), Functions: [properties(D1).Functions[0], { Node: 'B', FunctionName: 'wf-B', Version: '3', Async: 'x' }] }, 'Functions[1].Async must be an object of async-invoke settings'],
  ['retries that are not a number', { ...properties(D1), Functions: [{ ...properties(D1).Functions[0], Async: { MaximumRetryAttempts: 'x', MaximumEventAgeInSeconds: '60', OnFailure: 'arn' } }] }, 'Functions[0].Async.MaximumRetryAttempts must be a whole number, got "x"'],
])('properties with %s answer FAILED with the reason', async (_name, props, reason) => {
  const world = new World();
  await handlerAt(world, 0)(request('Create', props));
  expect(received[0].body).toMatchObject({ Status: 'FAILED', Reason: expect.stringContaining(reason), PhysicalResourceId: 'wf-deployments' });
  expect(world.records.deployments.size).toBe(0);
  expect(world.resources.calls).toEqual([]);
  expect(logs[0]).toMatchObject({ level: 'ERROR', status: 'FAILED' });
});

test.each([
  ['an alias', 1, `giving version 3 of wf-B the alias ${D2}: Error: ensureAlias failed: throttled`],
  ['async-invoke settings', 2, `setting the async-invoke settings of wf-A:${D2}: Error: putEventInvokeConfig failed: throttled`],
])('a failure to set %s answers FAILED with the reason, records nothing and leaves live where it was', async (_name, failing, reason) => {
  const world = new World();
  await handlerAt(world, 0)(request('Create', properties(D1)));
  const calls = world.resources.calls.length;
  world.resources.failAt = calls + 1 + failing;
  await handlerAt(world, 60)(request('Update', properties(D2, [fn('A', D2, '3'), fn('B', D2, '3')]), 'wf-deployments'));
  expect(received[1].body).toMatchObject({ Status: 'FAILED', Reason: reason });
  expect(world.record(D2)).toBeUndefined();
  expect(world.record(D1)?.supersededAt).toBeUndefined();
  expect(world.resources.aliases.get('wf-A:live')).toBe('3');
  expect(world.resources.calls.slice(calls).some((c) => c.includes(':live'))).toBe(false);
});

test('a table that cannot be written answers FAILED rather than leave CloudFormation waiting', async () => {
  const world = new World();
  jest.spyOn(world.records, 'put').mockRejectedValue(Object.assign(new Error('Requested resource not found'), { name: 'ResourceNotFoundException' }));
  await handlerAt(world, 0)(request('Create', properties(D1)));
  expect(received[0].body).toMatchObject({ Status: 'FAILED', Reason: 'Requested resource not found' });
  expect(world.resources.aliases.has('wf-A:live')).toBe(false);
});

test('without its environment the sweeper still answers, FAILED, naming the variable', async () => {
  const saved = process.env[ENV.workflow];
  delete process.env[ENV.workflow];
  try {
    await createSweeperHandler()(request('Create', properties(D1)));
  } finally {
    if (saved !== undefined) process.env[ENV.workflow] = saved;
  }
  expect(received[0].body).toMatchObject({ Status: 'FAILED', Reason: `unum sweeper: environment variable ${ENV.workflow} is not set`, PhysicalResourceId: 'WfDeployments' });
});

test('a response URL that fails is tried again', async () => {
  failures = [503];
  await handlerAt(new World(), 0)(request('Create', properties(D1)));
  expect(received.map((r) => r.body.Status)).toEqual(['SUCCESS', 'SUCCESS']);
});

test('a scheduled event sweeps; another event is logged and ignored', async () => {
  const world = new World();
  world.deploy(D1, [fn('A', D1, '1')], 0, 60);
  world.deploy(D2, [fn('A', D2, '2')], 60);
  await handlerAt(world, 30)({ source: 'aws.events', 'detail-type': 'Scheduled Event' });
  expect(world.record(D1)?.removedAt).toBeUndefined();
  await handlerAt(world, 100)({ unumSweep: true });
  expect(world.record(D1)?.removedAt).toBe(iso(100));
  await handlerAt(world, 100)({ hello: 1 });
  expect(logs.at(-1)).toMatchObject({ level: 'WARN', keys: ['hello'] });
  expect(received).toEqual([]);
});
