/**
 * Two workflows on one table (issue 14, finding 4), on DynamoDB Local: keys
 * carry the workflow, so runs of the same id stay apart, and an envelope of
 * one workflow is rejected by the other's functions.
 */
import { UnumClient } from '../../lib/client';
import { compileWorkflow } from '../../lib/compiler';
import { Definition, Task } from '../../lib/definition';
import type { Envelope } from '../../runtime/contract/ir';
import { keyOf, parseKey } from '../../runtime/contract/table';
import { useTestDb } from '../support/dynamodb';
import { Driver, fromCompiled, lambdaContext } from '../support/harness';

const db = useTestDb();

/** The same shape and node names in both workflows; only the handlers differ. */
function twoSteps(workflow: string, handlers: { first: (x: number) => number; second: (x: number) => number }): Record<string, ReturnType<typeof fromCompiled>[string]> {
  const entry = `/shared/${workflow}.js`;
  const definition = Definition.from(new Task('First', { entry, handler: 'first' }).next(new Task('Second', { entry, handler: 'second' })));
  return fromCompiled(compileWorkflow(workflow, definition), handlers);
}

const orders = (): ReturnType<typeof twoSteps> => twoSteps('Orders', { first: (x) => x + 1, second: (x) => x * 2 });
const refunds = (): ReturnType<typeof twoSteps> => twoSteps('Refunds', { first: (x) => x - 1, second: (x) => x * 100 });
const client = (table: string, workflow: string): UnumClient => UnumClient.forWorkflow({ entryFunction: 'unused', table, workflow, dynamodb: db.client });

test('runs of the same id in two workflows sharing a table each report their own result', async () => {
  const { name, store } = await db.table();
  await new Driver(store, orders()).run({ workflowId: 'same', input: 5 });
  await new Driver(store, refunds()).run({ workflowId: 'same', input: 5 });
  expect(await client(name, 'Orders').result('same')).toBe(12);
  expect(await client(name, 'Refunds').result('same')).toBe(400);
  const runs = (await db.scan(name)).map((item) => parseKey(keyOf(item) ?? '')).filter((k) => k?.kind === 'run');
  expect(runs).toEqual(expect.arrayContaining([{ kind: 'run', workflow: 'Orders', workflowId: 'same' }, { kind: 'run', workflow: 'Refunds', workflowId: 'same' }]));
  expect(runs).toHaveLength(2);
  // The table is shared: a scan counts every workflow's runs, and lists this workflow's in flight.
  expect((await client(name, 'Orders').inspect('same', { scan: true })).table).toMatchObject({ runs: 2, runsInFlight: [], attributable: false });
});

test('an envelope captured in one workflow is rejected by the other, which finishes its own run of that id', async () => {
  const { name, store } = await db.table();
  const a = new Driver(store, orders());
  const b = new Driver(store, refunds());
  await a.run({ workflowId: 'x', input: 1 });
  const captured = a.invoker.sent.find((s) => s.event.unum.node === 'Second')?.event as Envelope;
  // Refunds' run x is in flight when Orders' envelope for x reaches Refunds' Second.
  await b.run({ workflowId: 'x', input: 1 }, { hold: () => true });
  const before = (await db.scan(name)).length;
  await expect(b.handlers.get('fn-Second')!(captured, lambdaContext('fn-Second'))).resolves.toEqual({
    rejected: { error: 'UnumEventError', cause: 'malformed envelope: unum.workflow must be this function\'s workflow "Refunds" (got "Orders")' },
  });
  expect((await db.scan(name)).length).toBe(before);
  expect((await client(name, 'Refunds').status('x')).status).toBe('RUNNING');
  b.invoker.queue.push(...b.held.splice(0));
  await b.drain();
  expect([await client(name, 'Orders').result('x'), await client(name, 'Refunds').result('x')]).toEqual([4, 0]);
});
