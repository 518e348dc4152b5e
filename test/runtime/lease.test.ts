/**
 * The run's lease (docs/architecture.md "Retention"): nothing extra in runs
 * much shorter than the retention, one renewal of a fan-in per lease however
 * many branches find it due, items written after a renewal as long-lived as
 * the lease, and outer fan-ins kept by executions deep inside.
 */
import { compileWorkflow, type CompileOptions } from '../../lib/compiler';
import { Choice, Condition, Definition, Fold, Map, Parallel, Succeed, Task, type IChainable } from '../../lib/definition';
import type { ShardRenewal } from '../../runtime/ports/store';
import { runKey } from '../../runtime/contract/table';
import { fromCompiled, Driver } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/lease.ts';
const task = (name: string): Task => new Task(name, { entry: ENTRY, handler: 'same', timeoutSeconds: 5 });
const handlers = { same: (x: unknown) => x, add: (acc: number, n: number) => acc + n };
const mapThenFold = (): IChainable =>
  task('A').next(new Map('M').itemProcessor(task('I').next(task('I2')))).next(new Fold('F', { entry: ENTRY, handler: 'add', initial: 0, timeoutSeconds: 5 }));
const now = (): number => Math.floor(Date.now() / 1000);

async function run(options: CompileOptions, input: number[]) {
  const store = new MemoryStore();
  const d = new Driver(store, fromCompiled(compileWorkflow('lease', Definition.from(mapThenFold()), options), handlers));
  await d.run({ workflowId: 'w', input });
  return { store, d };
}

test('a run much shorter than the retention renews nothing: every envelope carries the lease of its start', async () => {
  const before = now();
  const { store, d } = await run({}, [1, 2, 3]);
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '6' });
  expect(store.calls.renewShard).toBeUndefined();
  expect(store.calls.extendTtl).toBeUndefined();
  const leases = new Set(d.invoker.sent.map((s) => s.event.unum.lease));
  expect(leases.size).toBe(1);
  // The default checkpoint retention, 7 days, from the start.
  expect([...leases][0]! - before).toBeGreaterThanOrEqual(7 * 86400);
  expect([...leases][0]! - now()).toBeLessThanOrEqual(7 * 86400);
});

test('with the shortest retention, a fan-in due for every branch at once is renewed by one of them', async () => {
  let clock = Date.now();
  jest.spyOn(Date, 'now').mockImplementation(() => clock);
  const store = new MemoryStore();
  const claims: ShardRenewal[] = [];
  const renewShard = store.renewShard.bind(store);
  jest.spyOn(store, 'renewShard').mockImplementation(async (key, ttl, claim) => {
    const r = await renewShard(key, ttl, claim);
    if (claim) claims.push(r);
    return r;
  });
  const options = { maxEventAgeSeconds: 60, checkpointTtlSeconds: 65, runRetentionSeconds: 65 };
  const compiled = compileWorkflow('lease', Definition.from(mapThenFold()), options);
  // The run's lease is two handoffs (130 s) from its start; its first step takes 10 s, so its branches start with less left.
  const d = new Driver(store, fromCompiled(compiled, { ...handlers, same: (x: unknown) => ((clock += Array.isArray(x) ? 10_000 : 0), x) }));
  const items = Array.from({ length: 20 }, (_, i) => i);
  await d.run({ workflowId: 'w', input: items });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: String(items.reduce((s, n) => s + n, 0)) });
  // Each of the 20 first item executions finds the lease due; one claims the fan-in, the others learn its lease (and their successors renew nothing).
  expect(claims).toHaveLength(20);
  expect(claims.filter((c) => c.renewed)).toHaveLength(1);
  // The renewed lease is the retention plus two handoffs (65 + 130 s); later items live that long.
  const lease = Math.max(...d.invoker.sent.map((s) => s.event.unum.lease ?? 0));
  expect(lease - now()).toBeGreaterThan(190);
  // The finished run's record lives the run retention after its end, here two handoffs (the longer), not until the lease.
  const handoff = Object.values(compiled.nodes)[0]?.ir.settings.handoffSeconds ?? NaN;
  expect(store.ttls.get(runKey({ workflow: 'lease', workflowId: 'w' }))).toBe(now() + Math.max(65, 2 * handoff));
});

test('a Map inside a Parallel branch keeps the other branch\'s output for hours, with items deleted as their TTL passes', async () => {
  let clock = Date.now();
  jest.spyOn(Date, 'now').mockImplementation(() => clock);
  const store = new MemoryStore({ expires: true });
  const exports = {
    same: (x: unknown) => x,
    // Each step of an item takes a minute: 5 s of work after 55 s in Lambda's queue, within one handoff (65 s).
    work: (item: { id: number; left: number }) => {
      clock += 60_000;
      return { id: item.id, left: item.left - 1 };
    },
  };
  const work = new Task('Work', { entry: ENTRY, handler: 'work', timeoutSeconds: 5 });
  const again = new Choice('Again').when(Condition.numberGreaterThan('$.left', 0), work).otherwise(new Succeed('ItemDone'));
  const inner = new Map('Items', { itemsPath: '$.items' }).itemProcessor(work.next(again));
  const parallel = new Parallel('Both').branch(task('Quick')).branch(task('Open').next(inner));
  const options = { maxEventAgeSeconds: 60, checkpointTtlSeconds: 65, runRetentionSeconds: 65 };
  const compiled = compileWorkflow('nested', Definition.from(task('Start').next(parallel).next(task('End'))), options);
  const input = { items: [{ id: 0, left: 1 }, { id: 1, left: 200 }] };
  await new Driver(store, fromCompiled(compiled, exports)).run({ workflowId: 'w', input });
  // Quick's output, written at the start, is read by the join 200 minutes later: the inner items renewed the outer fan-in.
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify([input, [{ id: 0, left: 0 }, { id: 1, left: 0 }]]) });
  expect(store.expired.length).toBeGreaterThan(100);
});
