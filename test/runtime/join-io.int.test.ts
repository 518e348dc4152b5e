/**
 * Parallel/Map output processing with the state input and Retry/Catch on
 * Parallel/Map, compiled from the DSL and run in-process against DynamoDB
 * Local (real conditional writes and batch reads).
 */
import { compileWorkflow } from '../../lib/compiler';
import { Definition, type IChainable, MapState, Parallel, Task } from '../../lib/definition';
import { decodeCheckpoint } from '../../runtime/contract/table';
import { useTestDb } from '../support/dynamodb';
import { Driver, fromCompiled } from '../support/harness';

const db = useTestDb();

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/join-io.ts';
const task = (name: string, handler: string): Task => new Task(name, { entry: ENTRY, handler });

async function run(definition: IChainable, handlers: Record<string, unknown>, input: unknown) {
  const { name, store } = await db.table();
  await new Driver(store, fromCompiled(compileWorkflow('joinio', Definition.from(definition), { inlineLimitBytes: 512 }), handlers)).run({ workflowId: 'r', input }, { deliveries: 2 });
  const item = await db.run(name, 'r');
  const items = await db.scan(name);
  // A result over the inline limit is in the checkpoint the record references.
  const json = item?.result?.S ?? decodeCheckpoint(items.find((i) => i.pk.S === item?.resultRef?.S))?.json;
  return {
    status: item?.status?.S,
    result: json === undefined ? undefined : (JSON.parse(json) as unknown),
    error: item?.error?.M?.error?.S,
    shards: items.filter((i) => (i.pk.S as string).startsWith('fanin#')).length,
  };
}

test('a Parallel merges its branch outputs into its state input; a Map reads a large state input from its origin', async () => {
  const handlers = { echo: (x: unknown) => x, double: (x: number) => x * 2 };
  const order = { id: 'o-1', lines: [1, 2, 3], note: 'n'.repeat(600) };
  const parallel = new Parallel('Check', { parameters: { 'id.$': '$.id' }, resultSelector: { 'a.$': '$[0].id', 'b.$': '$[1].id' }, resultPath: '$.checked' }).branch(task('A', 'echo'), task('B', 'echo'));
  const map = new MapState('Lines', { itemsPath: '$.lines', resultPath: '$.doubled', outputPath: '$' }).itemProcessor(task('D', 'double'));
  const r = await run(task('Load', 'echo').next(parallel).next(map).next(task('Done', 'echo')), handlers, order);
  expect(r).toEqual({ status: 'SUCCEEDED', result: { ...order, checked: { a: 'o-1', b: 'o-1' }, doubled: [2, 4, 6] }, error: undefined, shards: 2 });
});

test('a Map whose item fails is retried as a whole, then caught once with the error merged into the state input', async () => {
  class Busy extends Error {
    override name = 'Busy';
  }
  const handlers = {
    echo: (x: unknown) => x,
    busy: (x: number) => {
      if (x === 2) throw new Busy(`item ${x} is busy`);
      return x;
    },
  };
  const map = new MapState('Items', { itemsPath: '$.items' })
    .itemProcessor(task('Item', 'busy'))
    .addRetry({ errors: ['Busy'], maxAttempts: 1, intervalSeconds: 1 })
    .addCatch(task('Recover', 'echo'), { resultPath: '$.failure' });
  const r = await run(map, handlers, { items: [1, 2, 3] });
  expect(r).toEqual({
    status: 'SUCCEEDED',
    result: { items: [1, 2, 3], failure: { Error: 'Busy', Cause: expect.stringContaining('"errorMessage":"item 2 is busy"') as unknown } },
    error: undefined,
    // One shard per attempt's fan-in, left to its TTL (the failed attempt's never completed).
    shards: 2,
  });
});
