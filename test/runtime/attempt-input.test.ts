/**
 * Every attempt of a handler gets the original input, as in Step Functions
 * (issue 14, finding 8): what a failed attempt changed in its input reaches
 * neither the retry nor the document that ResultPath and catch rules merge into.
 */
import { compileWorkflow } from '../../lib/compiler';
import { Definition, Fold, Map, Task, type IChainable } from '../../lib/definition';
import { Driver, fromCompiled, lambdaCause } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/attempts.ts';
const task = (name: string, handler: string, props: object = {}): Task => new Task(name, { entry: ENTRY, handler, ...props });

/** Runs `definition` on `input` with the given exports; returns the run record. */
async function run(definition: IChainable, handlers: Record<string, unknown>, input: unknown) {
  const store = new MemoryStore();
  await new Driver(store, fromCompiled(compileWorkflow('attempts', Definition.from(definition)), handlers)).run({ workflowId: 'w', input });
  return store.runOf('w');
}

/** A handler that changes its input, then fails on its first call. */
function mutatesThenFailsOnce(): (input: { log: string[] }) => { log: string[] } {
  let calls = 0;
  return (input) => {
    input.log.push('attempt');
    if (calls++ === 0) throw new Error('first attempt fails');
    return input;
  };
}

test('a retried attempt sees the input as it was, not as the failed attempt left it', async () => {
  const work = task('Work', 'work').addRetry({ errors: ['Error'], maxAttempts: 2, intervalSeconds: 1, jitter: 'FULL' });
  const record = await run(work, { work: mutatesThenFailsOnce() }, { log: [] });
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify({ log: ['attempt'] }) });
});

test('ResultPath places the result into the original input, whatever the handler did to its copy', async () => {
  const work = task('Work', 'work', { resultPath: '$.result' });
  const handler = (input: { x: string }) => {
    input.x = 'changed';
    return 'done';
  };
  const record = await run(work, { work: handler }, { x: 'original' });
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify({ x: 'original', result: 'done' }) });
});

test('a catch rule places the error into the original input', async () => {
  const work = task('Work', 'work').addCatch(task('Handle', 'handle'), { resultPath: '$.error' });
  const handler = (input: { x: string }) => {
    input.x = 'changed';
    throw new Error('boom');
  };
  const record = await run(work, { work: handler, handle: (input: unknown) => input }, { x: 'original' });
  expect(record?.status).toBe('SUCCEEDED');
  expect(JSON.parse((record as { result: string }).result)).toEqual({ x: 'original', error: { Error: 'Error', Cause: lambdaCause('Error', 'boom') } });
});

test('a retried fold step sees the accumulator and item as they were', async () => {
  const seen = new Set<number>();
  const add = (acc: { sum: number; seen: number[] }, item: { n: number }, index: number) => {
    acc.sum += item.n;
    acc.seen.push(item.n);
    item.n *= 10;
    if (!seen.has(index)) {
      seen.add(index);
      throw new Error('first attempt fails');
    }
    return acc;
  };
  const map = new Map('Items').itemProcessor(task('Item', 'item'));
  const fold = new Fold('Add', { entry: ENTRY, handler: 'add', initial: { sum: 0, seen: [] } }).addRetry({ errors: ['Error'], maxAttempts: 2, intervalSeconds: 1, jitter: 'FULL' });
  const exports = { start: (input: unknown) => input, item: (n: number) => ({ n }), add };
  const record = await run(task('Start', 'start').next(map).next(fold), exports, [1, 2, 3]);
  expect(record).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify({ sum: 6, seen: [1, 2, 3] }) });
});
