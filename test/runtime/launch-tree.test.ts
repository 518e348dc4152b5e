/**
 * The launch tree of a large Map (docs/architecture.md "Launch tree"): no
 * execution sends more than the launch width, every item runs once in effect
 * with launchers delivered twice, crashed mid-launch, or late after the run,
 * inside a bounded Map and with items rebuilt by reference.
 */
import fc from 'fast-check';
import { compileWorkflow, type CompileOptions } from '../../lib/compiler';
import { Definition, Map, Task, type IChainable } from '../../lib/definition';
import { UnumDefinitionError } from '../../lib/compiler/errors';
import type { Envelope } from '../../runtime/contract/ir';
import { launcherRanges } from '../../runtime/step/launch-tree';
import { Driver, fromCompiled, type DriverOptions } from '../support/harness';
import { MapWatch } from '../support/map-watch';
import { MemoryStore } from '../support/memory-store';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/launch.ts';
const task = (name: string, handler: string): Task => new Task(name, { entry: ENTRY, handler, timeoutSeconds: 5 });
const handlers = {
  same: (x: unknown) => x,
  times10: (x: number | { value: number }) => (typeof x === 'number' ? x : x.value) * 10,
  sum: (xs: number[]) => xs.reduce((a, b) => a + b, 0),
};

/** Load -> Map (of Work) -> Sum. */
const mapOf = (props: ConstructorParameters<typeof Map>[1] = {}): IChainable =>
  task('Load', 'same').next(new Map('Each', props).itemProcessor(task('Work', 'times10'))).next(task('Sum', 'sum'));

const isLauncher = (e: Envelope): boolean => 'launch' in e.unum.inputs[0];

interface Run {
  readonly store: MemoryStore;
  readonly driver: Driver;
  readonly watch: MapWatch;
  /** Invokes sent by each execution, in delivery order (deliveries one at a time). */
  readonly sends: number[];
}

async function run(definition: IChainable, input: unknown, options: { compile?: CompileOptions; driver?: DriverOptions; before?: (d: Driver) => void } = {}): Promise<Run> {
  const store = new MemoryStore();
  const nodes = fromCompiled(compileWorkflow('launch', Definition.from(definition), options.compile), handlers);
  const watch = new MapWatch(Object.values(nodes).map((n) => n.ir));
  const driver = new Driver(watch.store(store), nodes);
  watch.attach(driver);
  const sends: number[] = [];
  for (const [name, handler] of driver.handlers) {
    driver.handlers.set(name, async (event, ctx) => {
      const before = driver.invoker.sent.length;
      try {
        return await handler(event, ctx);
      } finally {
        sends.push(driver.invoker.sent.length - before);
      }
    });
  }
  options.before?.(driver);
  await driver.run({ workflowId: 'w', input }, { concurrency: 1, ...options.driver });
  return { store, driver, watch, sends };
}

const items = Array.from({ length: 23 }, (_, i) => i + 1);
const total = String(items.reduce((a, b) => a + b * 10, 0));

/** Every execution of the tree over `n` items: the ranges it launches, by the rule of launch-tree.ts. */
function tree(n: number, width: number): { launchers: number; most: number; items: number[] } {
  const out = { launchers: 0, most: 0, items: [] as number[] };
  const visit = (from: number, to: number): void => {
    if (to - from <= width) {
      for (let i = from; i < to; i++) out.items.push(i);
      out.most = Math.max(out.most, to - from);
      return;
    }
    const parts = launcherRanges(from, to, width);
    out.most = Math.max(out.most, parts.length);
    out.launchers += parts.length;
    for (const [a, b] of parts) visit(a, b);
  };
  visit(0, n);
  return out;
}

test('the tree launches every item once, no execution sends more than the width, at about one launcher per width items', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 2, max: 400 }), (n, width) => {
      const t = tree(n, width);
      expect(t.items).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(t.most).toBeLessThanOrEqual(width);
      const fanOut = Math.min(16, width);
      const depth = Math.ceil(Math.log(Math.max(1, n / width)) / Math.log(fanOut)) + 1;
      expect(t.launchers).toBeLessThanOrEqual((n / width) * (fanOut / (fanOut - 1)) + depth);
    }),
    { verbose: true },
  );
});

test('at the default width, 10,000 and 100,000 items need at most 128 invokes per execution and under 1 % more invocations', () => {
  for (const n of [10_000, 100_000]) {
    const t = tree(n, 128);
    expect(t.most).toBeLessThanOrEqual(128);
    expect(t.launchers / n).toBeLessThan(0.01);
  }
});

test('a Map above the width goes through launchers: the result as without, each item once, at most width invokes per execution', async () => {
  const { store, driver, sends } = await run(mapOf(), items, { compile: { mapLaunchWidth: 2 } });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: total });
  const sent = driver.invoker.sent.map((s) => s.event);
  expect(sent.filter((e) => e.unum.node === 'Work' && !isLauncher(e))).toHaveLength(items.length);
  expect(sent.filter(isLauncher)).toHaveLength(tree(items.length, 2).launchers);
  expect(Math.max(...sends)).toBe(2);
});

test('every event delivered twice: a launcher relaunches the same items, whose checkpoints absorb it', async () => {
  const { store, driver } = await run(mapOf(), items, { compile: { mapLaunchWidth: 3 }, driver: { deliveries: 2, concurrency: 32 } });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: total });
  expect(driver.failures).toEqual([]);
  // Every execution of a launcher sends the same envelopes: 23 items, each launched by several executions.
  const launches = driver.invoker.sent.filter((s) => s.event.unum.node === 'Work' && !isLauncher(s.event));
  expect(launches.length).toBeGreaterThan(items.length);
  expect(new Set(launches.map((s) => JSON.stringify({ ...s.event.unum, lease: 0 }))).size).toBe(items.length);
});

test('a launcher that crashes mid-launch is retried by Lambda and launches the rest', async () => {
  let crashed = false;
  const { store, driver } = await run(mapOf(), items, {
    compile: { mapLaunchWidth: 4 },
    before: (d) => {
      const invoke = d.invoker.invoke.bind(d.invoker);
      d.invoker.invoke = async (fn, event) => {
        // The second send of the first launcher that launches items: one item is out, the others are not.
        if (!crashed && fn === 'fn-Work' && !isLauncher(event) && d.invoker.sent.filter((s) => !isLauncher(s.event) && s.event.unum.node === 'Work').length === 1) {
          crashed = true;
          throw new Error('crash mid-launch');
        }
        return invoke(fn, event);
      };
    },
  });
  expect(crashed).toBe(true);
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: total });
  expect(driver.failures).toEqual([]);
});

test('a late duplicate of a launcher, after the run, launches nothing', async () => {
  const { store, driver } = await run(mapOf(), items, { compile: { mapLaunchWidth: 4 } });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED' });
  const launcher = driver.invoker.sent.find((s) => isLauncher(s.event));
  if (!launcher) throw new Error('no launcher');
  const sent = driver.invoker.sent.length;
  await driver.deliver(launcher.functionName, launcher.event);
  expect(driver.invoker.sent.length).toBe(sent);
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: total });
});

test('a bounded Map whose maxConcurrency is above the width launches its first items through the tree and keeps its bound', async () => {
  const { store, watch, driver } = await run(mapOf({ maxConcurrency: 7 }), items, { compile: { mapLaunchWidth: 2 }, driver: { concurrency: 32 } });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: total });
  expect(watch.peak('Sum')).toBeLessThanOrEqual(7);
  // The tree covers items 0..6; the tails launch the rest.
  const ranges = driver.invoker.sent.filter((s) => isLauncher(s.event)).map((s) => s.event.unum.inputs[0]);
  expect(Math.max(...ranges.map((r) => ('launch' in r ? r.launch.to : 0)))).toBe(7);
});

test('a bounded Map at or below the width launches directly', async () => {
  const { store, driver } = await run(mapOf({ maxConcurrency: 2 }), items, { compile: { mapLaunchWidth: 2 } });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: total });
  expect(driver.invoker.sent.filter((s) => isLauncher(s.event))).toEqual([]);
});

function resultOf(store: MemoryStore): unknown {
  const record = store.runOf('w');
  const ref = record?.resultRef && store.checkpoints.get(record.resultRef);
  return JSON.parse(record?.result ?? (ref ? ref.json : 'null'));
}

test('items rebuilt from the origin by launchers equal the items the origin would send (selector, by reference)', async () => {
  const definition = task('Load', 'same')
    .next(new Map('Each', { itemsPath: '$.xs', itemSelector: { 'value.$': '$$.Map.Item.Value', 'at.$': '$$.Map.Item.Index', 'state.$': '$$.State.Name' } }).itemProcessor(task('Work', 'same')))
    .next(task('Sum', 'same'));
  const input = { xs: [5, 6, 7, 8, 9] };
  const expected = input.xs.map((value, at) => ({ value, at, state: 'Each' }));
  for (const inlineLimitBytes of [32768, 1]) {
    const direct = await run(definition, input, { compile: { inlineLimitBytes } });
    const tree2 = await run(definition, input, { compile: { inlineLimitBytes, mapLaunchWidth: 2 } });
    for (const { store } of [direct, tree2]) expect(resultOf(store)).toEqual(expected);
  }
});

test('the launch width is checked at synth and written to the IR only when set', () => {
  expect(() => compileWorkflow('launch', Definition.from(mapOf()), { mapLaunchWidth: 1 })).toThrow(UnumDefinitionError);
  expect(() => compileWorkflow('launch', Definition.from(mapOf()), { mapLaunchWidth: 2.5 })).toThrow(/options\.mapLaunchWidth.*2\.5 is not an integer in 2-262144/);
  expect(compileWorkflow('launch', Definition.from(mapOf())).nodes.Load.ir.settings.launchWidth).toBeUndefined();
  expect(compileWorkflow('launch', Definition.from(mapOf()), { mapLaunchWidth: 300 }).nodes.Work.ir.settings.launchWidth).toBe(300);
});
