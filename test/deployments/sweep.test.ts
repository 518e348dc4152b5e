/** The sweeper's decisions (runtime/deployments/sweep.ts, hold.ts, removal.ts) on fakes of its table and of Lambda and IAM. */
import { sweep } from '../../runtime/deployments/sweep';
import { D1, D2, D3, HANDOFF_SECONDS, RETENTION_SECONDS, World, at, captureLogLines, fn, iso } from './world';

const log = captureLogLines();

const sweepAt = (world: World, minutes: number, current?: string) =>
  sweep({ workflow: 'wf', records: world.records, resources: world.resources, now: () => at(minutes), ...(current === undefined ? {} : { current }) });

/** D1 (nodes A and B) superseded at minute 60 by D2 (node A only). */
function twoDeployments(): World {
  const world = new World();
  world.deploy(D1, [fn('A', D1, '1'), fn('B', D1, '1')], 0, 60, `wf-scheduler-${D1}`);
  world.deploy(D2, [fn('A', D2, '2')], 60, undefined, `wf-scheduler-${D2}`);
  return world;
}

test('a superseded deployment stays for a handoff, then its aliases, settings, versions, roles and the function of its removed node go', async () => {
  const world = twoDeployments();
  const early = await sweepAt(world, 65);
  expect(early.removed).toEqual([]);
  expect(early.kept).toEqual([{ deployment: D1, reason: expect.stringContaining(`events addressed to it may be delivered until ${iso(70)}`) }]);
  expect(world.resources.calls).toEqual([]);

  const later = await sweepAt(world, 71);
  expect(later).toEqual({ kept: [], removed: [D1] });
  // The runs that may be of D1 are those started while it was current, a handoff either side.
  expect(world.records.windows.at(-1)).toEqual({ after: new Date(at(0) - HANDOFF_SECONDS * 1000 - 1).toISOString(), before: new Date(at(70) + 1).toISOString() });
  const { resources } = world;
  expect([...resources.aliases.keys()]).toEqual([`wf-A:${D2}`]);
  expect([...resources.configs.keys()]).toEqual([`wf-A:${D2}`]);
  expect([...resources.versions]).toEqual(['wf-A:2']);
  expect([...resources.functions]).toEqual(['wf-A']);
  expect([...resources.roles]).toEqual([`wf-A-${D2}`, `wf-scheduler-${D2}`]);
  expect(world.record(D1)).toMatchObject({ removingAt: iso(71), removedAt: iso(71), ttl: Math.floor(at(71) / 1000) + RETENTION_SECONDS });
  expect(world.record(D2)?.removedAt).toBeUndefined();
  expect(log.lines.map((l) => [l.message, l.deployment])).toEqual([['unum deployment kept', D1], ['unum deployment removed', D1]]);
  expect(log.lines[1]).toMatchObject({ workflow: 'wf', aliases: 2, versions: 2, functions: ['wf-B'], roles: [`wf-A-${D1}`, `wf-B-${D1}`, `wf-scheduler-${D1}`] });

  // Nothing is left to sweep, and a removed deployment is not looked at again.
  expect(await sweepAt(world, 72)).toEqual({ kept: [], removed: [] });
});

test('a RUNNING run holds its deployment, and its end releases it a handoff later; runs of other deployments do not hold it', async () => {
  const world = twoDeployments();
  const run = world.records.addRun('r1', D1, iso(30));
  world.records.addRun('r2', D2, iso(65));
  expect((await sweepAt(world, 200)).kept).toEqual([{ deployment: D1, reason: 'run r1 is RUNNING' }]);

  Object.assign(run.record, { status: 'SUCCEEDED', finishedAt: iso(300) });
  expect((await sweepAt(world, 305)).kept).toEqual([{ deployment: D1, reason: `run r1 is SUCCEEDED since ${iso(300)}: invocations of it may be in flight until ${iso(310)}` }]);
  expect((await sweepAt(world, 310)).removed).toEqual([D1]);
});

test('a run started just before the live alias moved on, within a handoff, holds the deployment; one started earlier than that is not read', async () => {
  const world = twoDeployments();
  world.records.addRun('late', D1, iso(69));
  world.records.addRun('before', D1, iso(-11), { status: 'RUNNING' });
  expect((await sweepAt(world, 100)).kept).toEqual([{ deployment: D1, reason: 'run late is RUNNING' }]);
});

test('a FAILED run holds its deployment while a redrive would resume it', async () => {
  const world = twoDeployments();
  world.records.addRun('r1', D1, iso(30), { status: 'FAILED', finishedAt: iso(40) }, ['inv-a', 'inv-b']);
  world.records.park('r1', 'inv-a', at(500) / 1000);
  world.records.park('r1', 'inv-b', at(900) / 1000);
  // The earliest window decides: a redrive needs every parked invocation's inputs.
  expect((await sweepAt(world, 200)).kept).toEqual([{ deployment: D1, reason: `run r1 is FAILED and can be redriven until ${iso(500)}` }]);
  expect((await sweepAt(world, 500)).removed).toEqual([D1]);
});

test.each([
  ['TIMED_OUT (past its deadline: a redrive gives it a new one)', { status: 'TIMED_OUT' as const, finishedAt: iso(40), deadline: at(30) }],
  ['ABORTED', { status: 'ABORTED' as const, finishedAt: iso(40) }],
  ['FAILED past its timeout', { status: 'FAILED' as const, finishedAt: iso(40), deadline: at(35) }],
] as const)('a run %s with an invocation parked holds its deployment while a redrive would resume it', async (_name, record) => {
  const world = twoDeployments();
  world.records.addRun('r1', D1, iso(30), record, ['inv']);
  world.records.park('r1', 'inv', at(500) / 1000);
  expect((await sweepAt(world, 200)).kept).toEqual([{ deployment: D1, reason: `run r1 is ${record.status} and can be redriven until ${iso(500)}` }]);
  expect((await sweepAt(world, 500)).removed).toEqual([D1]);
});

test.each([
  ['a failure a redrive would reach again', { status: 'FAILED' as const, finishedAt: iso(40) }, ['inv'], 'a committed value led there'],
  ['a FAILED run with nothing parked', { status: 'FAILED' as const, finishedAt: iso(40) }, [], undefined],
  ['a TIMED_OUT run with nothing parked', { status: 'TIMED_OUT' as const, finishedAt: iso(40) }, [], undefined],
  ['an ABORTED run with nothing parked', { status: 'ABORTED' as const, finishedAt: iso(40) }, [], undefined],
  ['a SUCCEEDED run', { status: 'SUCCEEDED' as const, finishedAt: iso(40) }, ['inv'], undefined],
])('%s does not hold its deployment', async (_name, record, redo, never) => {
  const world = twoDeployments();
  world.records.addRun('r1', D1, iso(30), record, redo, never);
  world.records.park('r1', 'inv', at(900) / 1000);
  expect((await sweepAt(world, 200)).removed).toEqual([D1]);
});

test('the function of a removed node goes only with the last deployment still retained that lists it', async () => {
  const world = new World();
  world.deploy(D1, [fn('A', D1, '1'), fn('B', D1, '1')], 0, 60);
  world.deploy(D2, [fn('A', D2, '2'), fn('B', D2, '2')], 60, 120);
  world.deploy(D3, [fn('A', D3, '3')], 120);
  const run = world.records.addRun('r1', D2, iso(100));
  const first = await sweepAt(world, 200);
  expect(first).toEqual({ kept: [{ deployment: D2, reason: 'run r1 is RUNNING' }], removed: [D1] });
  expect(world.resources.functions.has('wf-B')).toBe(true);
  expect([...world.resources.versions].sort()).toEqual(['wf-A:2', 'wf-A:3', 'wf-B:2']);

  Object.assign(run.record, { status: 'SUCCEEDED', finishedAt: iso(210) });
  expect((await sweepAt(world, 300)).removed).toEqual([D2]);
  expect([...world.resources.functions]).toEqual(['wf-A']);
  expect([...world.resources.aliases.keys()]).toEqual([`wf-A:${D3}`]);
});

test('a version or a role that another deployment not removed lists stays', async () => {
  const world = new World();
  const sharedRole = { roleName: 'wf-shared-role' };
  world.deploy(D1, [{ ...fn('A', D1, '7'), ...sharedRole }], 0, 60, 'wf-scheduler');
  world.deploy(D2, [{ ...fn('A', D2, '7'), ...sharedRole }], 60, undefined, 'wf-scheduler');
  expect((await sweepAt(world, 100)).removed).toEqual([D1]);
  expect([...world.resources.versions]).toEqual(['wf-A:7']);
  expect([...world.resources.aliases.keys()]).toEqual([`wf-A:${D2}`]);
  expect([...world.resources.roles]).toEqual(['wf-shared-role', 'wf-scheduler']);
  expect(world.resources.calls.filter((c) => c.startsWith('deleteRole') || c.startsWith('deleteVersion'))).toEqual([]);
});

test('a sweep that crashed halfway is finished by the next one, without judging the deployment again', async () => {
  const world = twoDeployments();
  // The calls go: A's settings, alias, version; B's settings, alias, version, then B's function, which fails.
  world.resources.failAt = 7;
  await expect(sweepAt(world, 100)).rejects.toThrow(`unum sweeper: 1 deployment(s) of wf could not be swept: ${D1}: Error: deleteFunction failed: throttled`);
  expect(world.record(D1)).toMatchObject({ removingAt: iso(100) });
  expect(world.record(D1)?.removedAt).toBeUndefined();
  expect(log.lines.at(-1)).toMatchObject({ level: 'ERROR', message: 'unum deployment sweep failed', deployment: D1 });

  world.resources.failAt = undefined;
  const windows = world.records.windows.length;
  expect(await sweepAt(world, 101)).toEqual({ kept: [], removed: [D1] });
  expect(world.records.windows.length).toBe(windows);
  expect(world.record(D1)).toMatchObject({ removingAt: iso(100), removedAt: iso(101) });
  expect([...world.resources.functions]).toEqual(['wf-A']);
  expect([...world.resources.versions]).toEqual(['wf-A:2']);
  // The second sweep makes the first one's calls again: those that deleted find nothing, the one that failed deletes.
  expect(world.resources.calls.slice(7, 14)).toEqual(world.resources.calls.slice(0, 7));
});

test('a deployment removed by another sweep meanwhile, or activated again, is left alone', async () => {
  const world = twoDeployments();
  const markRemoving = world.records.markRemoving.bind(world.records);
  jest.spyOn(world.records, 'markRemoving').mockImplementation(async (d, when) => {
    await world.records.reactivate(d);
    return markRemoving(d, when);
  });
  expect(await sweepAt(world, 100)).toEqual({ kept: [{ deployment: D1, reason: 'it was activated again, or another sweep is removing it' }], removed: [] });
  expect(world.resources.calls).toEqual([]);
});

test('nothing is removed without a current deployment on record, nor the deployment the sweeper runs with', async () => {
  const world = new World();
  world.deploy(D1, [fn('A', D1, '1')], 0, 60);
  world.deploy(D2, [fn('A', D2, '2')], 60, 120);
  expect((await sweepAt(world, 500)).kept).toEqual([
    { deployment: D1, reason: 'no current deployment is recorded' },
    { deployment: D2, reason: 'no current deployment is recorded' },
  ]);

  const rolledBack = twoDeployments();
  expect((await sweepAt(rolledBack, 500, D1)).kept).toEqual([{ deployment: D1, reason: 'it is the deployment the sweeper runs with' }]);
  expect(rolledBack.resources.calls).toEqual([]);
});
