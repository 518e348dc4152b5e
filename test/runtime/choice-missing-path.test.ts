/**
 * A Choice rule that reads an absent path fails the run with States.Runtime
 * at the Choice state, as in Step Functions, although the compiler folds the
 * Choice into the instructions of the state before it (here PackItems).
 */
import { compileWorkflow } from '../../lib/compiler';
import { Choice, Condition, Definition, Pass, Succeed, Task, type IChainable } from '../../lib/definition';
import type { HistoryItem } from '../../runtime/contract/table';
import { Driver, fromCompiled } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

beforeEach(() => jest.spyOn(process.stdout, 'write').mockImplementation(() => true));
afterEach(() => jest.restoreAllMocks());

const pack = (order: unknown): unknown => order;

/** PackItems, then a Choice on $.weight; the Default is taken only when no rule's path is missing. */
function shipping(): IChainable {
  return new Task('PackItems', { entry: '/project/ship.ts', handler: 'pack' }).next(
    new Choice('PickCarrier')
      .when(Condition.numberGreaterThan('$.weight', 20), new Pass('Freight', { result: 'freight' }))
      .otherwise(new Succeed('Post')),
  );
}

async function run(definition: IChainable, input: unknown): Promise<MemoryStore> {
  const store = new MemoryStore();
  const compiled = compileWorkflow('ship', Definition.from(definition), { history: true });
  await new Driver(store, fromCompiled(compiled, { pack })).run({ workflowId: 'w', input });
  return store;
}

test('a missing path fails the run at the Choice state, not at the state the Choice follows', async () => {
  const store = await run(shipping(), { items: ['kettle'] });
  expect(store.runOf('w')).toMatchObject({
    status: 'FAILED',
    error: { node: 'PackItems', state: 'PickCarrier', error: 'States.Runtime', cause: "Choice state 'PickCarrier': Invalid path '$.weight': the condition path references an invalid value" },
  });
  const failed = store.historyOf('w').find((e) => e.outcome === 'failed') as HistoryItem;
  expect(JSON.parse(failed.error as string)).toMatchObject({ state: 'PickCarrier', error: 'States.Runtime' });
});

test('the history has one transition, PackItems failing at the Choice; a redrive is refused, as it would fail the same way', async () => {
  const store = await run(shipping(), { items: ['kettle'] });
  expect(store.historyOf('w').map((e) => [e.node, e.outcome])).toEqual([['PackItems', 'failed']]);
  expect(store.noRedrive.get('run#ship#w')).toBe("Choice state PickCarrier (a rule's path is missing)");
});

test('with the path present the same Choice decides as usual: a run end through its default, or the rule\'s branch', async () => {
  expect((await run(shipping(), { weight: 3 })).runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify({ weight: 3 }) });
  expect((await run(shipping(), { weight: 30 })).runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify('freight') });
});

test('a Choice that starts the workflow fails at its own state too', async () => {
  const store = await run(new Choice('Sort').when(Condition.stringEquals('$.kind', 'a'), new Succeed('A')).otherwise(new Succeed('B')), {});
  expect(store.runOf('w')).toMatchObject({ status: 'FAILED', error: { state: 'Sort', error: 'States.Runtime', cause: expect.stringMatching(/^Choice state 'Sort': Invalid path '\$\.kind'/) } });
});
