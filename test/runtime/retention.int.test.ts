/**
 * Runs that last longer than the checkpoint retention (issue 14, finding 7):
 * with the shortest retention the construct accepts (max event age 60 s +
 * timeout 5 s), a Map whose slowest item runs ~70 s and a 36-step Fold
 * (~72 s) must complete with the right result while a TTL reaper deletes
 * every item as soon as its TTL passes (as DynamoDB may). The workflows are
 * compiled from the DSL as the construct compiles them, and run in-process
 * against DynamoDB Local; the clock runs 5 times as fast (runtime TTLs and
 * the reaper alike) to keep the suite fast.
 */
import { compileWorkflow } from '../../lib/compiler';
import { retentionProblem } from '../../lib/construct/validation';
import { Choice, Condition, Definition, Fold, Map, Succeed, Task, type IChainable } from '../../lib/definition';
import { TtlReaper } from '../../lib/local/ttl-reaper';
import { counting } from '../support/counting-store';
import { useTestDb } from '../support/dynamodb';
import { fromCompiled, Driver } from '../support/harness';
import { scaleClock, type ScaledClock } from '../support/scaled-clock';

jest.setTimeout(180_000);
const db = useTestDb();

const ENTRY = '/project/long.ts';
const MAX_EVENT_AGE = 60;
const TIMEOUT = 5;
/** The shortest checkpoint retention the construct accepts for these settings. */
const RETENTION = MAX_EVENT_AGE + TIMEOUT;

let clock: ScaledClock;
beforeEach(() => {
  clock = scaleClock(5);
});

const task = (name: string, handler: string): Task => new Task(name, { entry: ENTRY, handler, timeoutSeconds: TIMEOUT });

/** Compiles with the minimum retention and checks that the construct's rules accept it, and nothing shorter. */
function compileLong(name: string, definition: IChainable): ReturnType<typeof fromCompiled> {
  const compiled = compileWorkflow(name, Definition.from(definition), {
    maxEventAgeSeconds: MAX_EVENT_AGE,
    checkpointTtlSeconds: RETENTION,
    runRetentionSeconds: RETENTION,
  });
  for (const c of Object.values(compiled.nodes)) {
    expect(retentionProblem(c.ir.settings, c.async)).toBeUndefined();
    expect(retentionProblem({ ...c.ir.settings, checkpointTtlSeconds: RETENTION - 1 }, c.async)).toBeDefined();
  }
  return fromCompiled(compiled, handlers);
}

interface Item {
  readonly id: number;
  readonly left: number;
  readonly steps?: number;
}

const handlers: Record<string, unknown> = {
  prepare: (input: unknown) => input,
  /** One step of an item: 3 s of work. */
  async work(item: Item): Promise<Item> {
    await clock.sleep(3000);
    return { id: item.id, left: item.left - 1, steps: (item.steps ?? 0) + 1 };
  },
  summarize: (items: Item[]) => items.map((i) => `${i.id}:${i.steps}`),
  square: (n: number) => n * n,
  /** One fold step: 2 s of work. */
  async add(acc: number, n: number): Promise<number> {
    await clock.sleep(2000);
    return acc + n;
  },
};

/**
 * Runs to the end with the reaper deleting expired items every 50 ms (real
 * time); returns the run record and the store calls.
 */
async function runWithReaper(nodes: ReturnType<typeof compileLong>, workflowId: string, input: unknown) {
  const { name, store } = await db.table();
  const counted = counting(store);
  const reaper = new TtlReaper(db.client, [{ tableName: name }], 50);
  reaper.start();
  try {
    await new Driver(counted.store, nodes).run({ workflowId, input });
  } finally {
    await reaper.stop();
  }
  const record = await db.run(name, workflowId);
  const run = { status: record?.status?.S, result: record?.result?.S && JSON.parse(record.result.S), error: record?.error?.M?.cause?.S };
  return { run, calls: counted.calls };
}

test('a Map whose slowest item outlasts the checkpoint retention completes with every item', async () => {
  const work = task('Work', 'work');
  const again = new Choice('Again').when(Condition.numberGreaterThan('$.left', 0), work).otherwise(new Succeed('ItemDone'));
  const map = new Map('Items', { itemsPath: '$.items' }).itemProcessor(work.next(again));
  const nodes = compileLong('long-map', task('Prepare', 'prepare').next(map).next(task('Summarize', 'summarize')));
  // Steps of 3 s each: the slowest item (27 steps) runs about 81 s, well past the 65 s retention.
  const steps = [1, 6, 12, 18, 27];
  const { run, calls } = await runWithReaper(nodes, 'long-map-1', { items: steps.map((left, id) => ({ id, left })) });
  expect(run).toEqual({ status: 'SUCCEEDED', result: steps.map((n, id) => `${id}:${n}`), error: undefined });
  // The fan-in was renewed while the slow items ran.
  expect(calls.renewShard).toBeGreaterThan(0);
});

test('a 36-step Fold that outlasts the checkpoint retention folds every item', async () => {
  const map = new Map('Squares', {}).itemProcessor(task('Square', 'square'));
  const nodes = compileLong('long-fold', task('Prepare', 'prepare').next(map).next(new Fold('Add', { entry: ENTRY, handler: 'add', initial: 0, timeoutSeconds: TIMEOUT })));
  const numbers = Array.from({ length: 36 }, (_, i) => i + 1);
  const { run, calls } = await runWithReaper(nodes, 'long-fold-1', numbers);
  expect(run).toEqual({ status: 'SUCCEEDED', result: numbers.reduce((s, n) => s + n * n, 0), error: undefined });
  // The fold steps renewed the items still to fold.
  expect(calls.extendTtl).toBeGreaterThan(0);
});
