/** The workflow deleted with its stack (runtime/deployments/workflow-deletion.ts) on fakes of its table and of Lambda and IAM. */
import { namedResourcesOf } from '../../runtime/deployments/properties';
import { deleteWorkflow } from '../../runtime/deployments/workflow-deletion';
import { D1, D2, D3, RETENTION_SECONDS, World, at, captureLogLines, fn, iso, publish, resourceProperties } from './world';

const log = captureLogLines();

/**
 * D1 (nodes A and B) removed by a sweep long ago, D2 (A and B) superseded and
 * retained, D3 (A only, its aliases moved by a revert) current.
 */
function deployed(): World {
  const world = new World();
  world.deploy(D1, [fn('A', D1, '1'), fn('B', D1, '1')], 0, 60, `wf-scheduler-${D1}`);
  world.records.deployments.get(D1)!.removingAt = iso(100);
  world.records.deployments.get(D1)!.removedAt = iso(100);
  world.deploy(D2, [fn('A', D2, '2'), fn('B', D2, '2')], 60, 120, `wf-scheduler-${D2}`);
  world.deploy(D3, [fn('A', D3, '4')], 120, undefined, `wf-scheduler-${D3}`);
  world.records.deployments.get(D3)!.replaced = [{ ...fn('A', D3, '3'), roleName: 'wf-A-before-revert' }];
  world.resources.publish({ ...fn('A', D3, '3'), roleName: 'wf-A-before-revert' });
  return world;
}

/** The Delete's properties: the current deployment's. */
const deleteProperties = (functions = [fn('A', D3, '4')]) => resourceProperties(D3, functions);

const deleteAt = (world: World, minutes: number, properties: unknown = deleteProperties()) =>
  deleteWorkflow({ records: () => world.records, resources: world.resources, named: namedResourcesOf(properties), now: () => at(minutes) });

test('every function and role the records not yet removed list goes; the records say removed and stay', async () => {
  const world = deployed();
  expect(await deleteAt(world, 500)).toBe(`workflow deleted: 2 functions, 6 roles; recorded ${D2}, ${D3} removed`);
  const { resources } = world;
  expect(resources.calls).toEqual([
    'deleteFunction wf-A',
    'deleteFunction wf-B',
    `deleteRole wf-A-${D2}`,
    `deleteRole wf-B-${D2}`,
    `deleteRole wf-scheduler-${D2}`,
    `deleteRole wf-A-${D3}`,
    'deleteRole wf-A-before-revert',
    `deleteRole wf-scheduler-${D3}`,
  ]);
  // Deleting a function deletes its versions, aliases (live too) and async-invoke settings.
  for (const what of [resources.functions, resources.versions, resources.aliases, resources.configs]) expect([...what.keys()]).toEqual([]);
  // D1's roles went with its sweep; the fakes still hold them only because World.deploy made them.
  expect([...resources.roles].sort()).toEqual([`wf-A-${D1}`, `wf-B-${D1}`, `wf-scheduler-${D1}`]);
  const ttl = Math.floor(at(500) / 1000) + RETENTION_SECONDS;
  expect(world.record(D2)).toMatchObject({ supersededAt: iso(120), removingAt: iso(500), removedAt: iso(500), ttl });
  expect(world.record(D3)).toMatchObject({ supersededAt: iso(500), removingAt: iso(500), removedAt: iso(500), ttl });
  expect(world.record(D1)).toMatchObject({ removedAt: iso(100) });
  expect(log.lines).toEqual([]);
});

test('a deletion that fails is logged and the others go on; a deployment with something left stays marked removing', async () => {
  const world = deployed();
  world.resources.failing.add('deleteFunction wf-B');
  world.resources.failing.add(`deleteRole wf-scheduler-${D3}`);
  expect(await deleteAt(world, 500)).toBe(
    'workflow deleted: 1 function, 5 roles; not done: '
      + 'deleting function wf-B (AccessDeniedException: not authorized to deleteFunction wf-B); '
      + `deleting role wf-scheduler-${D3} (AccessDeniedException: not authorized to deleteRole wf-scheduler-${D3})`,
  );
  expect([...world.resources.functions]).toEqual(['wf-B']);
  expect([...world.resources.roles].filter((r) => !r.endsWith(D1))).toEqual([`wf-scheduler-${D3}`]);
  // D2 lists B's function, D3 its scheduler role: neither is recorded removed, both stay marked for a later sweeper or deletion to finish.
  for (const d of [D2, D3]) {
    expect(world.record(d)).toMatchObject({ supersededAt: expect.any(String), removingAt: iso(500) });
    expect(world.record(d)?.removedAt).toBeUndefined();
  }
  expect(log.lines.map((l) => [l.level, l.message, l.step])).toEqual([
    ['ERROR', 'unum workflow deletion: a step failed, the others go on', 'deleting function wf-B'],
    ['ERROR', 'unum workflow deletion: a step failed, the others go on', `deleting role wf-scheduler-${D3}`],
  ]);

  // Deleted again (a later stack's deletion): only what was left is deleted, then the records say removed.
  world.resources.failing.clear();
  expect(await deleteAt(world, 600)).toBe(`workflow deleted: 1 function, 1 role; recorded ${D2}, ${D3} removed`);
  expect(world.record(D2)).toMatchObject({ removingAt: iso(500), removedAt: iso(600) });
});

test('a failed Create\'s rollback deletes what its properties name, though no record lists it', async () => {
  const world = new World();
  const properties = resourceProperties(D1, [fn('A', D1, '1')]);
  publish(world, properties);
  expect(await deleteAt(world, 0, properties)).toBe('workflow deleted: 1 function, 2 roles');
  expect(world.resources.calls).toEqual(['deleteFunction wf-A', `deleteRole wf-A-${D1}`, `deleteRole wf-scheduler-${D1}`]);
  expect(world.records.deployments.size).toBe(0);
});

test('what is already gone is not counted', async () => {
  const world = new World();
  expect(await deleteAt(world, 0, resourceProperties(D1, [fn('A', D1, '1')]))).toBe('workflow deleted: 0 functions, 0 roles');
  expect(world.resources.calls).toEqual(['deleteFunction wf-A', `deleteRole wf-A-${D1}`, `deleteRole wf-scheduler-${D1}`]);
});

test('records that cannot be read leave only what the properties name to delete, and say so', async () => {
  const world = deployed();
  jest.spyOn(world.records, 'list').mockRejectedValue(Object.assign(new Error('Requested resource not found'), { name: 'ResourceNotFoundException' }));
  expect(await deleteAt(world, 500)).toBe(
    `workflow deleted: 1 function, 2 roles; not done: reading the deployment records, so only what the resource's properties name was deleted (ResourceNotFoundException: Requested resource not found)`,
  );
  expect([...world.resources.functions]).toEqual(['wf-B']);
});

test.each([
  ['no properties', undefined, { functionNames: [], roleNames: [] }],
  ['properties not as declared', { Functions: [{ FunctionName: 7 }, 'x', { FunctionName: 'wf-A', RoleName: '' }], SchedulerRoleName: 3 }, { functionNames: ['wf-A'], roleNames: [] }],
])('a Delete with %s names only what it holds', (_name, properties, named) => {
  expect(namedResourcesOf(properties)).toEqual(named);
});
