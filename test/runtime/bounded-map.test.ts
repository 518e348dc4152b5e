/**
 * maxConcurrency (docs/architecture.md "Bounded Maps"): at most N items of a
 * Map run at once, every item runs once in effect, with duplicate deliveries,
 * crashes between an item's arrival and the launch it owes, nested Maps,
 * items that loop or end in a catch handler, a Map inside a loop, and items
 * launched long after the origin wrote the checkpoint they read.
 */
import { compileWorkflow, type CompileOptions } from '../../lib/compiler';
import { Choice, Condition, Definition, Map, Pass, Succeed, Task, type IChainable } from '../../lib/definition';
import type { Envelope } from '../../runtime/contract/ir';
import type { CheckpointStore } from '../../runtime/ports/store';
import { Driver, fromCompiled, type DriverOptions } from '../support/harness';
import { MapWatch } from '../support/map-watch';
import { MemoryStore } from '../support/memory-store';
import { overriding } from '../support/store-overrides';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/bounded.ts';
const task = (name: string, handler: string): Task => new Task(name, { entry: ENTRY, handler, timeoutSeconds: 5 });
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const handlers = {
  same: (x: unknown) => x,
  // Work that yields, so that items launched together overlap.
  times10: async (n: number) => {
    await tick();
    return n * 10;
  },
  sum: (xs: number[]) => xs.reduce((a, b) => a + b, 0),
};

/** Load -> Map (maxConcurrency `n`) of Work -> Check -> Sum. */
const squares = (n: number): IChainable =>
  task('Load', 'same')
    .next(new Map('Each', { maxConcurrency: n }).itemProcessor(task('Work', 'times10').next(task('Check', 'same'))))
    .next(task('Sum', 'sum'));

interface Run {
  readonly store: MemoryStore;
  readonly driver: Driver;
  readonly watch: MapWatch;
}

/** Runs `definition` with the driver, watching how many items of each bounded Map run at once. */
async function run(
  definition: IChainable,
  input: unknown,
  options: { driver?: DriverOptions; compile?: CompileOptions; store?: (s: CheckpointStore) => CheckpointStore; prepare?: (d: Driver) => void } = {},
): Promise<Run> {
  const memory = new MemoryStore();
  const nodes = fromCompiled(compileWorkflow('bounded', Definition.from(definition), options.compile), handlers);
  const watch = new MapWatch(Object.values(nodes).map((n) => n.ir));
  const store = watch.store(options.store ? options.store(memory) : memory);
  const driver = new Driver(store, nodes);
  watch.attach(driver);
  options.prepare?.(driver);
  await driver.run({ workflowId: 'w', input }, options.driver);
  return { store: memory, driver, watch };
}

const items = [1, 2, 3, 4, 5, 6, 7];
const total = items.reduce((a, b) => a + b * 10, 0);

test.each([1, 2, 3, 7, 10])('maxConcurrency %i: at most that many items run, all of them once, with every event delivered twice', async (n) => {
  const { store, watch } = await run(squares(n), items, { driver: { deliveries: 2 } });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: String(total) });
  expect(watch.started('Sum')).toBe(items.length);
  expect(watch.peak('Sum')).toBe(Math.min(n, items.length));
  // Nothing was deleted, and everything left expires by its TTL.
  for (const key of [...store.checkpoints.keys(), ...store.shards.keys()]) expect(store.ttls.get(key)).toBeGreaterThan(0);
});

test('maxConcurrency 0 (the default): the origin launches every item before any item finishes', async () => {
  const definition = task('Load', 'same').next(new Map('Each').itemProcessor(task('Work', 'times10').next(task('Check', 'same')))).next(task('Sum', 'sum'));
  const { store, driver } = await run(definition, items);
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: String(total) });
  const nodes = driver.invoker.sent.map((s) => s.event.unum.node);
  expect(nodes.slice(0, items.length)).toEqual(items.map(() => 'Work'));
  expect(nodes.filter((n) => n === 'Work')).toHaveLength(items.length);
});

/** A store that crashes once in item 0's tail, right after recording its arrival (before the launch it owes). */
const crashAfterArrival = (inner: CheckpointStore): CheckpointStore => {
  let crashed = false;
  return overriding(inner, {
    async addToShard(key, element, expected, ttl) {
      const added = await inner.addToShard(key, element, expected, ttl);
      // Item 0's arrival code (tail 0, iteration 0) is 0.
      if (!crashed && element === 0) {
        crashed = true;
        throw new Error('crash after the arrival, before the launch');
      }
      return added;
    },
  });
};

const launchesOf = (d: Driver, node: string, index: number): Envelope[] =>
  d.invoker.sent.filter((s) => s.event.unum.node === node && s.event.unum.fanOut.at(-1)?.index === index).map((s) => s.event);

test('a crash between an item\'s arrival and its launch: Lambda\'s retry of the tail launches the next item', async () => {
  const { store, driver, watch } = await run(squares(2), items, { store: crashAfterArrival });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: String(total) });
  // The crashed execution never launched item 2; its retry did, once.
  expect(launchesOf(driver, 'Work', 2)).toHaveLength(1);
  expect(launchesOf(driver, 'Work', 2)[0].unum.inputs).toEqual([{ mapItem: { origin: expect.stringMatching(/^ckpt#/), index: 2, state: 'Load' } }]);
  expect(watch.peak('Sum')).toBe(2);
});

test('a crash after the launch: the retry, a duplicate, launches the item again only if it has not started; its checkpoint absorbs a second launch', async () => {
  const spy = jest.spyOn(handlers, 'times10');
  const crashAfterLaunch = (d: Driver): void => {
    const invoke = d.invoker.invoke.bind(d.invoker);
    let crashed = false;
    d.invoker.invoke = async (functionName, event) => {
      await invoke(functionName, event);
      if (!crashed && event.unum.node === 'Work' && event.unum.fanOut.at(-1)?.index === 2) {
        crashed = true;
        throw new Error('crash after the launch');
      }
    };
  };
  const { store, driver, watch } = await run(squares(2), items, { prepare: crashAfterLaunch, driver: { concurrency: 1 } });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: String(total) });
  const launches = launchesOf(driver, 'Work', 2);
  expect(launches.length).toBeGreaterThanOrEqual(1);
  expect(launches.length).toBeLessThanOrEqual(2);
  for (const l of launches) expect(l).toEqual(launches[0]);
  // Each item's work ran once.
  expect(spy).toHaveBeenCalledTimes(items.length);
  expect(watch.peak('Sum')).toBe(2);
});

test('a late duplicate of a one-node item does not relaunch the items after it, one by one', async () => {
  const definition = task('Load', 'same').next(new Map('Each', { maxConcurrency: 1 }).itemProcessor(task('Work', 'times10'))).next(task('Sum', 'sum'));
  const nodes = fromCompiled(compileWorkflow('bounded', Definition.from(definition)), handlers);
  const store = new MemoryStore();
  const driver = new Driver(store, nodes);
  // Hold the last item back, so that the join has not run when the duplicate comes.
  const last = (d: { event: Envelope }) => d.event.unum.node === 'Work' && d.event.unum.fanOut.at(-1)?.index === 3;
  await driver.run({ workflowId: 'w', input: [1, 2, 3, 4] }, { hold: last });
  const sent = driver.invoker.sent.length;
  await driver.deliver('fn-Work', launchesOf(driver, 'Work', 0)[0]);
  // The duplicate re-recorded its arrival and found item 1 committed: it launched nothing.
  expect(driver.invoker.sent.length).toBe(sent);
  await driver.deliver(driver.held[0].functionName, driver.held[0].event);
  await driver.drain();
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '100' });
});

test('an item launched late into an attempt that a failing item decided already does not run, and its slot launches no more', async () => {
  const ran: number[] = [];
  const picky = { ...handlers, picky: (n: number) => (ran.push(n), n < 0 ? Promise.reject(new Error('negative')) : n * 10) };
  const map = new Map('Each', { maxConcurrency: 2 }).itemProcessor(task('Work', 'picky')).addCatch(new Pass('Caught', { result: 'caught' }));
  const nodes = fromCompiled(compileWorkflow('bounded', Definition.from(task('Load', 'same').next(map))), picky);
  const store = new MemoryStore();
  const driver = new Driver(store, nodes);
  // Item 0's tail launches item 2; it is held until item 1 failed the state and the catch committed.
  const item2 = (d: { event: Envelope }) => d.event.unum.node === 'Work' && d.event.unum.fanOut.at(-1)?.index === 2;
  await driver.run({ workflowId: 'w', input: [1, -1, 3, 4] }, { hold: item2 });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify('caught') });
  expect(driver.held).toHaveLength(1);
  const sent = driver.invoker.sent.length;
  await driver.deliver(driver.held[0].functionName, driver.held[0].event);
  await driver.drain();
  expect(ran.sort()).toEqual([-1, 1]);
  expect(driver.invoker.sent.length).toBe(sent);
});

test('nested bounded Maps whose items loop or end in a catch handler, inside a loop: every bound holds in every iteration', async () => {
  const input = { rows: [[2, 1, -1], [0], [1, 3, 2, 1], [2]] };
  type Part = { left: number; round: number };
  const nested = {
    ...handlers,
    // The first round starts from the input; the next from the first round's results, which carry the round.
    round: (x: { rows: number[][] } | Part[][]) => ({ rows: input.rows, round: Array.isArray(x) ? x[0][0].round + 1 : 1 }),
    // A part counts down in a loop; a negative one fails into the catch handler.
    step: async (p: Part) => {
      await tick();
      if (p.left < 0) throw new Error('negative part');
      return { ...p, left: p.left - 1 };
    },
  };
  const step = task('Step', 'step').addCatch(new Pass('Failed', { result: { left: -1, round: 0 } }));
  const again = new Choice('Again').when(Condition.numberGreaterThan('$.left', 0), step).otherwise(new Succeed('PartDone'));
  const parts = new Map('Parts', { itemsPath: '$.parts', maxConcurrency: 2, itemSelector: { 'left.$': '$$.Map.Item.Value', 'round.$': '$.round' } }).itemProcessor(step.next(again));
  const rows = new Map('Rows', { itemsPath: '$.rows', maxConcurrency: 2, itemSelector: { 'parts.$': '$$.Map.Item.Value', 'round.$': '$.round' } });
  rows.itemProcessor(task('Row', 'same').next(parts).next(task('RowDone', 'same')));
  const round = task('Round', 'round');
  const more = new Choice('More').when(Condition.numberLessThan('$[0][0].round', 2), round).otherwise(new Succeed('End'));
  // Round's node is the Rows origin; AfterRows loops back to Round once.
  const definition = task('Start', 'same').next(round).next(rows).next(task('AfterRows', 'same')).next(more);
  const nodes = fromCompiled(compileWorkflow('bounded', Definition.from(definition)), nested);
  const memory = new MemoryStore();
  const watch = new MapWatch(Object.values(nodes).map((n) => n.ir));
  const driver = new Driver(watch.store(memory), nodes);
  watch.attach(driver);
  await driver.run({ workflowId: 'w', input });
  expect(memory.runOf('w')).toMatchObject({ status: 'SUCCEEDED' });
  // Two rounds of 4 rows (Rows joins at AfterRows); per round 4 Parts Maps (joining at RowDone) of 3 + 1 + 4 + 1 items.
  expect(watch.started('AfterRows')).toBe(8);
  expect(watch.started('RowDone')).toBe(18);
  expect(watch.peak('AfterRows')).toBe(2);
  expect(watch.peak('RowDone')).toBe(2);
});

test('items launched long after the origin wrote its checkpoint still read it: lease renewals keep it', async () => {
  let clock = Date.now();
  jest.spyOn(Date, 'now').mockImplementation(() => clock);
  // Every item takes a minute, within one handoff (65 s); seven items one at a time take seven, far past the retention.
  const slow = { ...handlers, times10: (n: number) => ((clock += 60_000), n * 10) };
  const work = new Task('Work', { entry: ENTRY, handler: 'times10', timeoutSeconds: 5 });
  const definition = task('Load', 'same').next(new Map('Each', { maxConcurrency: 1 }).itemProcessor(work)).next(task('Sum', 'sum'));
  const compiled = compileWorkflow('bounded', Definition.from(definition), { maxEventAgeSeconds: 60, checkpointTtlSeconds: 65, runRetentionSeconds: 65 });
  const store = new MemoryStore({ expires: true });
  const nodes = fromCompiled(compiled, slow);
  const watch = new MapWatch(Object.values(nodes).map((n) => n.ir));
  const driver = new Driver(watch.store(store), nodes);
  watch.attach(driver);
  const started = clock;
  await driver.run({ workflowId: 'w', input: items });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: String(total) });
  expect(watch.peak('Sum')).toBe(1);
  // The last item started after the origin's checkpoint would have expired without a renewal: its TTL was at most the first lease.
  const { checkpointTtlSeconds, handoffSeconds } = compiled.nodes.Load.ir.settings;
  expect((clock - started) / 1000 - 60).toBeGreaterThan(Math.max(checkpointTtlSeconds, 2 * handoffSeconds));
});
