/**
 * The unum context a handler receives (issue 17, part 1): the same for every
 * execution of one invocation (a Lambda retry, a duplicate delivery), different
 * across invocations; a plain `(input) => output` handler is unaffected.
 */
import { compileWorkflow } from '../../lib/compiler';
import { Definition, Fold, Map, Task } from '../../lib/definition';
import type { UnumContext } from '../../runtime/contract/handler-api';
import type { LambdaContext } from '../../runtime/contract/handler-api';
import { Driver, fromCompiled } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/context.ts';

function driver(definition: Definition, handlers: Record<string, unknown>): { driver: Driver; store: MemoryStore } {
  const store = new MemoryStore();
  return { driver: new Driver(store, fromCompiled(compileWorkflow('ctx', definition), handlers)), store };
}

test('a task handler gets (input, lambdaContext, unum), the same unum context on every execution of its invocation', async () => {
  const seen: UnumContext[] = [];
  let calls = 0;
  const work = (input: { n: number }, lambda: LambdaContext, unum: UnumContext) => {
    seen.push({ ...unum });
    expect(lambda.awsRequestId).toEqual(expect.any(String));
    if (calls++ === 0) throw new Error('crash before the checkpoint: Lambda retries');
    return { n: input.n + 1 };
  };
  const { driver: d, store } = driver(Definition.from(new Task('Work', { entry: ENTRY, handler: 'work' })), { work });
  await d.run({ workflowId: 'run-1', input: { n: 1 } });
  expect(store.runOf('run-1')).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify({ n: 2 }) });
  expect(seen).toHaveLength(2);
  expect(seen[1]).toEqual(seen[0]);
  expect(seen[0]).toMatchObject({ workflow: 'ctx', runId: 'run-1', node: 'Work' });
  expect(seen[0].invocation).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(seen[0].idempotencyKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(seen[0].idempotencyKey).not.toBe(seen[0].invocation);
});

test('map items get different invocations and idempotency keys; fold steps get the context as their fourth argument', async () => {
  const keys: string[] = [];
  const folded: string[] = [];
  const item = (x: number, _lambda: LambdaContext, unum: UnumContext) => {
    keys.push(unum.idempotencyKey);
    return x;
  };
  const add = (acc: number, x: number, index: number, unum: UnumContext) => {
    folded.push(`${index}:${unum.node}`);
    return acc + x;
  };
  const map = new Map('Items', { itemsPath: '$.items' }).itemProcessor(new Task('Item', { entry: ENTRY, handler: 'item' }));
  const definition = Definition.from(map.next(new Fold('Sum', { entry: ENTRY, handler: 'add', initial: 0 })));
  const { driver: d, store } = driver(definition, { item, add });
  await d.run({ workflowId: 'run-2', input: { items: [1, 2, 3] } });
  expect(store.runOf('run-2')).toMatchObject({ status: 'SUCCEEDED', result: '6' });
  expect(new Set(keys).size).toBe(3);
  expect(folded.sort()).toEqual(['0:Sum', '1:Sum', '2:Sum']);
});

test('the same run id in another deployment (another function name) gets another idempotency key', async () => {
  const keys: string[] = [];
  const work = (_input: unknown, _lambda: LambdaContext, unum: UnumContext) => keys.push(unum.idempotencyKey);
  for (const functionName of ['stack-a-Work', 'stack-b-Work']) {
    const { driver: d } = driver(Definition.from(new Task('Work', { entry: ENTRY, handler: 'work' })), { work });
    const handler = d.handlers.get('fn-Work');
    await handler?.({ workflowId: 'same', input: {} }, { awsRequestId: 'r', functionName });
  }
  expect(keys).toHaveLength(2);
  expect(keys[0]).not.toBe(keys[1]);
});

test('a plain (input) => output handler is unaffected', async () => {
  const { driver: d, store } = driver(Definition.from(new Task('Work', { entry: ENTRY, handler: 'work' })), { work: (s: string) => s.toUpperCase() });
  await d.run({ workflowId: 'run-3', input: 'abc' });
  expect(store.runOf('run-3')).toMatchObject({ status: 'SUCCEEDED', result: '"ABC"' });
});
