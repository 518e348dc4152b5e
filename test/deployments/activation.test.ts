/**
 * A deployment's activation (runtime/deployments/activation.ts, record.ts,
 * replaced.ts) on fakes of its table and of Lambda: aliases, their settings,
 * the record, `live` last; converging when run again; a revert moving
 * retained aliases and the removal deleting what they named before.
 */
import { activateDeployment } from '../../runtime/deployments/activation';
import { deploymentOf } from '../../runtime/deployments/properties';
import { sweep } from '../../runtime/deployments/sweep';
import type { DeploymentFunction } from '../../runtime/contract/table';
import { D1, D2, D3, HANDOFF_SECONDS, World, at, fn, iso, publish, recorderArn, resourceProperties } from './world';

beforeEach(() => jest.spyOn(process.stdout, 'write').mockImplementation(() => true));
afterEach(() => jest.restoreAllMocks());

/** Deploys `functions` as `deployment` at minute `minutes`: CloudFormation publishes the versions, then the resource activates them. */
function activate(world: World, deployment: string, functions: DeploymentFunction[], minutes: number, properties: unknown = resourceProperties(deployment, functions)) {
  publish(world, properties);
  return activateDeployment(world.records, world.resources, deploymentOf(properties), iso(minutes));
}

const DLQ = 'arn:aws:sqs:us-east-1:123456789012:wf-dead-letters';

test('every alias and its settings first, then the record, and the entry\'s live alias last', async () => {
  const world = new World();
  const recorder = { node: 'unum-failure-recorder', functionName: 'wf-recorder', version: '1', roleName: `wf-recorder-${D1}` };
  const properties = resourceProperties(D1, [fn('A', D1, '1'), fn('B', D1, '1'), recorder]);
  properties.Functions[2].Async = { ...properties.Functions[2].Async, OnFailure: DLQ };
  const put = world.records.put.bind(world.records);
  jest.spyOn(world.records, 'put').mockImplementation(async (record) => {
    world.resources.calls.push('record');
    return put(record);
  });
  const createKey = world.records.createEnvelopeKey.bind(world.records);
  jest.spyOn(world.records, 'createEnvelopeKey').mockImplementation(async () => {
    world.resources.calls.push('envelope key');
    return createKey();
  });
  expect(await activate(world, D1, [], 0, properties)).toBe(`deployment ${D1} recorded; live is wf-A:1`);
  expect(world.records.envelopeKey).toBe(true);
  expect(world.resources.calls).toEqual([
    // Before any alias: no function of the deployment runs without it.
    'envelope key',
    `ensureAlias wf-A:${D1} 1`,
    `ensureAlias wf-B:${D1} 1`,
    `ensureAlias wf-recorder:${D1} 1`,
    `putEventInvokeConfig wf-A:${D1}`,
    `putEventInvokeConfig wf-B:${D1}`,
    `putEventInvokeConfig wf-recorder:${D1}`,
    'record',
    'ensureAlias wf-A:live 1',
    'putEventInvokeConfig wf-A:live',
  ]);
  expect(world.resources.configs.get(`wf-recorder:${D1}`)).toEqual({ maximumRetryAttempts: 2, maximumEventAgeInSeconds: 3600, onFailure: DLQ });
  expect(world.resources.configs.get('wf-A:live')).toEqual({ maximumRetryAttempts: 2, maximumEventAgeInSeconds: 3600, onFailure: recorderArn(D1) });
  // The record holds no async settings: they live on the aliases.
  expect(world.record(D1)?.functions).toEqual([fn('A', D1, '1'), fn('B', D1, '1'), recorder]);
});

test('a function only ever invoked synchronously (the task-response function) gets its alias and no async-invoke settings', async () => {
  const world = new World();
  const responder = { node: 'unum-task-response', functionName: 'wf-responder', version: '1', roleName: `wf-responder-${D1}` };
  const properties = resourceProperties(D1, [fn('A', D1, '1'), responder]);
  const { Async: _async, ...synchronous } = properties.Functions[1];
  await activate(world, D1, [], 0, { ...properties, Functions: [properties.Functions[0], synchronous] });
  expect(world.resources.aliases.get(`wf-responder:${D1}`)).toBe('1');
  expect(world.resources.calls.filter((c) => c.startsWith('putEventInvokeConfig'))).toEqual([`putEventInvokeConfig wf-A:${D1}`, 'putEventInvokeConfig wf-A:live']);
  expect(world.record(D1)?.functions).toEqual([fn('A', D1, '1'), responder]);
});

test('the same request again, or after a crash halfway, converges to the same state', async () => {
  const world = new World();
  await activate(world, D1, [fn('A', D1, '1')], 0);
  const functions = [fn('A', D2, '2'), fn('B', D2, '2')];
  // A crash after the aliases, before the record: live still names D1's version.
  world.resources.failAt = world.resources.calls.length + 3;
  await expect(activate(world, D2, functions, 60)).rejects.toThrow(`setting the async-invoke settings of wf-A:${D2}`);
  expect(world.resources.aliases.get('wf-A:live')).toBe('1');
  world.resources.failAt = undefined;

  expect(await activate(world, D2, functions, 61)).toBe(`deployment ${D2} recorded; superseded ${D1}; live is wf-A:2`);
  const state = async () => ({ aliases: Object.fromEntries(world.resources.aliases), configs: Object.fromEntries(world.resources.configs), records: await world.records.list() });
  const converged = await state();
  expect(await activate(world, D2, functions, 62)).toBe(`deployment ${D2} already current; live is wf-A:2`);
  expect(await state()).toEqual(converged);
  expect(converged.aliases).toEqual({ [`wf-A:${D1}`]: '1', [`wf-A:${D2}`]: '2', [`wf-B:${D2}`]: '2', 'wf-A:live': '2' });
  expect(Object.keys(converged.configs).sort()).toEqual([`wf-A:${D1}`, `wf-A:${D2}`, 'wf-A:live', `wf-B:${D2}`]);
  expect(world.record(D2)?.replaced).toBeUndefined();
});

test('a revert moves the retained aliases to the new versions, and the removal deletes the versions and roles they named before', async () => {
  const world = new World();
  await activate(world, D1, [fn('A', D1, '1'), fn('B', D1, '1')], 0);
  await activate(world, D2, [fn('A', D2, '2')], 60);
  // D1's content again: CloudFormation publishes new versions with new roles, while D1's aliases are retained.
  const again = [{ ...fn('A', D1, '3'), roleName: 'wf-A-revert' }, { ...fn('B', D1, '3'), roleName: 'wf-B-revert' }];
  expect(await activate(world, D1, again, 120)).toBe(`deployment ${D1} activated again; superseded ${D2}; moved its aliases from wf-A:1, wf-B:1; live is wf-A:3`);
  expect(Object.fromEntries(world.resources.aliases)).toEqual({ [`wf-A:${D1}`]: '3', [`wf-B:${D1}`]: '3', [`wf-A:${D2}`]: '2', 'wf-A:live': '3' });
  expect(world.record(D1)).toMatchObject({ activatedAt: iso(0), functions: again, replaced: [fn('A', D1, '1'), fn('B', D1, '1')] });
  expect(world.record(D1)?.supersededAt).toBeUndefined();
  expect(world.record(D2)?.supersededAt).toBe(iso(120));

  // Superseded in turn, then swept: D2 and D1 go, with every version and role they ever named.
  await activate(world, D3, [fn('A', D3, '4')], 180);
  const swept = await sweep({ workflow: 'wf', records: world.records, resources: world.resources, now: () => at(180) + HANDOFF_SECONDS * 1000 + 60_000 });
  expect([...swept.removed].sort()).toEqual([D1, D2].sort());
  expect([...world.resources.versions]).toEqual(['wf-A:4']);
  expect([...world.resources.functions]).toEqual(['wf-A']);
  expect(Object.fromEntries(world.resources.aliases)).toEqual({ [`wf-A:${D3}`]: '4', 'wf-A:live': '4' });
  expect([...world.resources.configs.keys()].sort()).toEqual([`wf-A:${D3}`, 'wf-A:live']);
  expect([...world.resources.roles].sort()).toEqual([`wf-A-${D3}`, `wf-scheduler-${D3}`]);
});

test('a revert retried after its aliases moved still remembers what they named before', async () => {
  const world = new World();
  await activate(world, D1, [fn('A', D1, '1')], 0);
  await activate(world, D2, [fn('A', D2, '2')], 60);
  const again = [{ ...fn('A', D1, '3'), roleName: 'wf-A-revert' }];
  // The alias moves, then the settings fail: nothing recorded, live stays on D2's version.
  world.resources.failAt = world.resources.calls.length + 2;
  await expect(activate(world, D1, again, 120)).rejects.toThrow(`setting the async-invoke settings of wf-A:${D1}`);
  expect(world.resources.aliases.get(`wf-A:${D1}`)).toBe('3');
  expect(world.resources.aliases.get('wf-A:live')).toBe('2');
  expect(world.record(D1)).toMatchObject({ functions: [fn('A', D1, '1')], supersededAt: iso(60) });
  world.resources.failAt = undefined;

  // Run again, the alias already names the new version: the record still knows the one it replaced, and its role.
  expect(await activate(world, D1, again, 121)).toBe(`deployment ${D1} activated again; superseded ${D2}; live is wf-A:3`);
  expect(world.record(D1)?.replaced).toEqual([fn('A', D1, '1')]);
  expect(await activate(world, D1, again, 122)).toBe(`deployment ${D1} already current; live is wf-A:3`);
  expect(world.record(D1)?.replaced).toEqual([fn('A', D1, '1')]);
});

test('an alias found on a version no record lists is remembered without a role', async () => {
  const world = new World();
  world.resources.publish(fn('A', D1, '7'));
  world.resources.aliases.set(`wf-A:${D1}`, '7');
  await activate(world, D1, [fn('A', D1, '8')], 0);
  expect(world.record(D1)?.replaced).toEqual([{ node: 'A', functionName: 'wf-A', version: '7' }]);
});

describe('the run-control function (a member only ever invoked synchronously)', () => {
  const control = (deployment: string, version: string): DeploymentFunction => ({ node: 'unum-run-control', functionName: 'wf-control', version, roleName: `wf-control-${deployment}` });
  /** The deployment's properties with the run-control function, which has no async settings. */
  const withControl = (deployment: string, functions: DeploymentFunction[], version: string) => {
    const properties = resourceProperties(deployment, [...functions, control(deployment, version)]);
    const { Async: _async, ...synchronous } = properties.Functions[functions.length];
    return { ...properties, Functions: [...properties.Functions.slice(0, functions.length), synchronous] };
  };

  test('its stop and redrive aliases move to its version after live, with no settings; they are not remembered as replaced', async () => {
    const world = new World();
    expect(await activate(world, D1, [], 0, withControl(D1, [fn('A', D1, '1')], '1'))).toBe(`deployment ${D1} recorded; live is wf-A:1`);
    expect(world.resources.calls.slice(-4)).toEqual(['ensureAlias wf-A:live 1', 'putEventInvokeConfig wf-A:live', 'ensureAlias wf-control:stop 1', 'ensureAlias wf-control:redrive 1']);
    expect(world.resources.calls.filter((c) => c.startsWith('putEventInvokeConfig wf-control'))).toEqual([]);

    await activate(world, D2, [], 60, withControl(D2, [fn('A', D2, '2')], '2'));
    expect(Object.fromEntries([...world.resources.aliases].filter(([alias]) => alias.startsWith('wf-control:')))).toEqual({ [`wf-control:${D1}`]: '1', [`wf-control:${D2}`]: '2', 'wf-control:stop': '2', 'wf-control:redrive': '2' });
    expect(world.record(D2)?.replaced).toBeUndefined();
  });

  test('a failure moving stop leaves the request failed after live moved; the retry converges', async () => {
    const world = new World();
    world.resources.failing.add('ensureAlias wf-control:stop 1');
    await expect(activate(world, D1, [], 0, withControl(D1, [fn('A', D1, '1')], '1'))).rejects.toThrow('moving wf-control:stop to version 1: AccessDeniedException: not authorized to ensureAlias wf-control:stop 1');
    world.resources.failing.clear();
    expect(await activate(world, D1, [], 1, withControl(D1, [fn('A', D1, '1')], '1'))).toBe(`deployment ${D1} already current; live is wf-A:1`);
    expect(world.resources.aliases.get('wf-control:stop')).toBe('1');
    expect(world.resources.aliases.get('wf-control:redrive')).toBe('1');
  });

  const sweptAfter = (world: World, minutes: number) =>
    sweep({ workflow: 'wf', records: world.records, resources: world.resources, now: () => at(minutes) + HANDOFF_SECONDS * 1000 + 60_000 });

  test('a sweep deletes a superseded deployment\'s alias and version of it, never stop or redrive', async () => {
    const world = new World();
    await activate(world, D1, [], 0, withControl(D1, [fn('A', D1, '1')], '1'));
    await activate(world, D2, [], 60, withControl(D2, [fn('A', D2, '2')], '2'));
    expect([...(await sweptAfter(world, 60)).removed]).toEqual([D1]);
    expect(world.resources.calls.filter((c) => /wf-control:(stop|redrive)/.test(c) && !c.startsWith('ensureAlias'))).toEqual([]);
    expect(Object.fromEntries([...world.resources.aliases].filter(([alias]) => alias.startsWith('wf-control:')))).toEqual({ [`wf-control:${D2}`]: '2', 'wf-control:stop': '2', 'wf-control:redrive': '2' });
    expect([...world.resources.versions].filter((v) => v.startsWith('wf-control:'))).toEqual(['wf-control:2']);
  });

  test('after a rollback to a deployment from before it, the sweep deletes stop and redrive before its version, then the function', async () => {
    const world = new World();
    await activate(world, D1, [fn('A', D1, '1')], 0);
    await activate(world, D2, [], 60, withControl(D2, [fn('A', D2, '2')], '1'));
    // The rollback: CloudFormation activates D1 again, which lists no run-control function, so the aliases stay on D2's version.
    await activate(world, D1, [fn('A', D1, '1')], 61);
    expect(world.resources.aliases.get('wf-control:stop')).toBe('1');
    const before = world.resources.calls.length;
    expect([...(await sweptAfter(world, 61)).removed]).toEqual([D2]);
    const control = world.resources.calls.slice(before).filter((c) => c.includes('wf-control'));
    expect(control).toEqual([
      `deleteEventInvokeConfig wf-control:${D2}`,
      `deleteAlias wf-control:${D2}`,
      'deleteAlias wf-control:stop',
      'deleteAlias wf-control:redrive',
      'deleteVersion wf-control:1',
      'deleteFunction wf-control',
      `deleteRole wf-control-${D2}`,
    ]);
    expect([...world.resources.functions]).toEqual(['wf-A']);
  });
});
