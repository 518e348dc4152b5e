/**
 * Durable steps and exactly-once DynamoDB writes through the handler context
 * (issue 17, parts 2, 3 and 6), on DynamoDB Local: every crash point of
 * Golem's list, and concurrent duplicate executions, leave each write applied
 * exactly once. A crash is a failed I/O call (test/support/effects.ts); the
 * driver runs the invocation again as Lambda's async retry would.
 */
import { GetItemCommand, PutItemCommand, type TransactWriteItem, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { compileWorkflow } from '../../lib/compiler';
import { Definition, Task } from '../../lib/definition';
import { DynamoDbStore } from '../../runtime/aws/dynamodb-store';
import { effects, type UnumContext } from '../../runtime/effects';
import { holdsOperation, keyItem, keyOf, loggedUpdate, parseKey } from '../../runtime/contract/table';
import { useTestDb } from '../support/dynamodb';
import { command, type Crash, crashingClient } from '../support/effects';
import { Driver, fromCompiled } from '../support/harness';

jest.setTimeout(60_000);
const db = useTestDb();

const ENTRY = '/project/effects.ts';
const definition = Definition.from(new Task('Order', { entry: ENTRY, handler: 'order' }));

interface Setup {
  readonly driver: Driver;
  readonly workflowTable: string;
  readonly orders: string;
  readonly sent: { name: string; input: Record<string, unknown> }[];
}

/** A workflow of one task whose handler is `order(orders table)`, on a store whose client crashes as `crashes` say. */
async function setup(order: (orders: string) => (input: { id: string }, lambda: unknown, unum: UnumContext) => unknown, crashes: readonly Crash[] = []): Promise<Setup> {
  const workflow = await db.table();
  const orders = (await db.table()).name;
  const { client, sent } = crashingClient(db.client, crashes);
  const store = new DynamoDbStore(workflow.name, client);
  return { driver: new Driver(store, fromCompiled(compileWorkflow('effects', definition), { order: order(orders) })), workflowTable: workflow.name, orders, sent };
}

async function counter(table: string, key: string): Promise<number> {
  const r = await db.client.send(new GetItemCommand({ TableName: table, Key: keyItem(key), ConsistentRead: true }));
  return Number(r.Item?.n?.N ?? 0);
}

const increment = (table: string, key: string): TransactWriteItem => ({
  Update: { TableName: table, Key: keyItem(key), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } },
});

const isMarker = (input: Record<string, unknown>): boolean =>
  ((input.TransactItems as TransactWriteItem[]) ?? []).some((i) => parseKey(keyOf(i.Put?.Item) ?? '')?.kind === 'effect');
/** Order ends the run: its commit is the run record's final write (runtime/step/run-end.ts), not a checkpoint put. */
const isCommit = (input: Record<string, unknown>): boolean => parseKey(keyOf(input.Key as never) ?? '')?.kind === 'run';

/** `n` deliveries of one start request at once (duplicate async delivery), then the rest of the run. */
async function duplicates(s: Setup, event: unknown, n: number): Promise<void> {
  await Promise.all(Array.from({ length: n }, () => s.driver.deliver('fn-Order', event)));
  await s.driver.drain();
}

async function succeeded(s: Setup, workflowId: string): Promise<unknown> {
  const record = await db.run(s.workflowTable, workflowId);
  expect(record?.status?.S).toBe('SUCCEEDED');
  return JSON.parse(record?.result?.S ?? 'null');
}

describe('durable steps', () => {
  test('a step runs once: a retry after a crash returns the recorded value, with the same idempotency key', async () => {
    const calls: string[] = [];
    const s = await setup(
      () => async (_input, _lambda, unum) => {
        const charge = await effects(unum).step('charge', (key) => {
          calls.push(key);
          return { chargeId: `ch-${calls.length}` };
        });
        return charge;
      },
      [{ match: command('UpdateItemCommand', isCommit), point: 'before' }],
    );
    await s.driver.run({ workflowId: 'step-1', input: { id: '1' } });
    expect(await succeeded(s, 'step-1')).toEqual({ chargeId: 'ch-1' });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.driver.executions).toBe(2);
  });

  test('steps of one name are told apart by their order; concurrent duplicates all return the value recorded first', async () => {
    let calls = 0;
    const returned: number[][] = [];
    const s = await setup(() => async (_input, _lambda, unum) => {
      const fx = effects(unum);
      const a = await fx.step('draw', () => ++calls);
      const b = await fx.step('draw', () => ++calls);
      returned.push([a, b]);
      return [a, b];
    });
    await duplicates(s, { workflowId: 'step-2', input: { id: '2' } }, 3);
    const [a, b] = (await succeeded(s, 'step-2')) as number[];
    expect(a).not.toBe(b);
    expect(returned.length).toBeGreaterThan(0);
    for (const r of returned) expect(r).toEqual([a, b]);
  });

  test('a step name that is not a string of 1-256 characters is an EffectError naming the node', async () => {
    const s = await setup(() => async (_input, _lambda, unum) => effects(unum).step('', () => 1));
    await s.driver.run({ workflowId: 'step-3', input: { id: '3' } }, { retryAttempts: 0 });
    const record = await db.run(s.workflowTable, 'step-3');
    expect(record?.status?.S).toBe('FAILED');
    expect(record?.error?.M?.cause?.S).toMatch(/node Order: an effect's name must be a string of 1-256 characters/);
  });
});

describe('transactWrite: every crash point leaves the write applied exactly once', () => {
  const handler = (outcomes: boolean[]) => (orders: string) => async (input: { id: string }, _lambda: unknown, unum: UnumContext) => {
    const { replayed } = await effects(unum).dynamodb.transactWrite([increment(orders, `order-${input.id}`)]);
    outcomes.push(replayed);
    return { replayed };
  };

  test('crash before the transaction begins: the retry applies it', async () => {
    const outcomes: boolean[] = [];
    const s = await setup(handler(outcomes), [{ match: command('TransactWriteItemsCommand'), point: 'before' }]);
    await s.driver.run({ workflowId: 'tx-1', input: { id: '1' } });
    expect(await counter(s.orders, 'order-1')).toBe(1);
    expect(outcomes).toEqual([false]);
  });

  test('crash after the commit (the marker is the logged identity and outcome): the retry finds the marker and does not apply it again', async () => {
    const outcomes: boolean[] = [];
    const s = await setup(handler(outcomes), [{ match: command('TransactWriteItemsCommand', isMarker), point: 'after' }]);
    await s.driver.run({ workflowId: 'tx-2', input: { id: '2' } });
    expect(await counter(s.orders, 'order-2')).toBe(1);
    expect(outcomes).toEqual([true]);
    expect(await succeeded(s, 'tx-2')).toEqual({ replayed: true });
  });

  test('crash after the outcome, before the commit: the retry is told the write was applied before', async () => {
    const outcomes: boolean[] = [];
    const s = await setup(handler(outcomes), [{ match: command('UpdateItemCommand', isCommit), point: 'before' }]);
    await s.driver.run({ workflowId: 'tx-3', input: { id: '3' } });
    expect(await counter(s.orders, 'order-3')).toBe(1);
    expect(outcomes).toEqual([false, true]);
  });

  test('crash after a rollback (a condition of the transaction failed): nothing was recorded, the retry applies it once', async () => {
    const outcomes: boolean[] = [];
    let rolledBack = 0;
    const s = await setup((orders) => async (input, _lambda, unum) => {
      const gate = keyItem(`gate-${input.id}`);
      const check: TransactWriteItem = { ConditionCheck: { TableName: orders, Key: gate, ConditionExpression: 'attribute_exists(n)' } };
      try {
        const { replayed } = await effects(unum).dynamodb.transactWrite([check, increment(orders, `order-${input.id}`)]);
        outcomes.push(replayed);
        return { replayed };
      } catch (e) {
        // Cancelled by the gate: open it, then die as a crash after the rollback would.
        rolledBack++;
        await db.client.send(new PutItemCommand({ TableName: orders, Item: { ...gate, n: { N: '1' } } }));
        throw e;
      }
    });
    await s.driver.run({ workflowId: 'tx-4', input: { id: '4' } });
    expect(rolledBack).toBe(1);
    expect(await counter(s.orders, 'order-4')).toBe(1);
    expect(outcomes).toEqual([false]);
  });

  test('concurrent duplicate executions apply it once; every execution returns', async () => {
    const outcomes: boolean[] = [];
    const s = await setup(handler(outcomes));
    await duplicates(s, { workflowId: 'tx-5', input: { id: '5' } }, 4);
    expect(await counter(s.orders, 'order-5')).toBe(1);
    expect(outcomes.filter((r) => !r)).toHaveLength(1);
  });
});

describe('updateItem: the operation logged in the item (Beldi)', () => {
  const handler = (outcomes: boolean[]) => (orders: string) => async (input: { id: string }, _lambda: unknown, unum: UnumContext) => {
    const { replayed } = await effects(unum).dynamodb.updateItem({
      TableName: orders,
      Key: keyItem(`stock-${input.id}`),
      UpdateExpression: 'SET updatedBy = :me ADD n :one',
      ConditionExpression: 'attribute_not_exists(closed)',
      ExpressionAttributeValues: { ':one': { N: '1' }, ':me': { S: unum.node } },
    });
    outcomes.push(replayed);
    return { replayed };
  };

  test('crash after the update: the retry finds the operation in the item and does not apply it again', async () => {
    const outcomes: boolean[] = [];
    const s = await setup(handler(outcomes), [{ match: command('UpdateItemCommand', (i) => String(i.UpdateExpression).includes('#unumOpsNow')), point: 'after' }]);
    await s.driver.run({ workflowId: 'up-1', input: { id: '1' } });
    expect(await counter(s.orders, 'stock-1')).toBe(1);
    expect(outcomes).toEqual([true]);
    // One UpdateItem per execution: the price of a plain update.
    expect(s.sent.filter((c) => c.name === 'UpdateItemCommand' && c.input.TableName === s.orders)).toHaveLength(1);
  });

  test('concurrent duplicate executions apply it once', async () => {
    const outcomes: boolean[] = [];
    const s = await setup(handler(outcomes));
    await duplicates(s, { workflowId: 'up-2', input: { id: '2' } }, 4);
    expect(await counter(s.orders, 'stock-2')).toBe(1);
    expect(outcomes.filter((r) => !r)).toHaveLength(1);
  });

  test("the user's own condition failing is their ConditionalCheckFailedException, not a replay", async () => {
    const s = await setup(handler([]));
    await db.client.send(new PutItemCommand({ TableName: s.orders, Item: { ...keyItem('stock-3'), closed: { BOOL: true } } }));
    await s.driver.run({ workflowId: 'up-3', input: { id: '3' } }, { retryAttempts: 0 });
    const record = await db.run(s.workflowTable, 'up-3');
    expect(record?.status?.S).toBe('FAILED');
    expect(record?.error?.M?.error?.S).toBe('ConditionalCheckFailedException');
  });

  test('tags rotate through three window sets: a re-execution within a window finds its tag, the item keeps at most three windows', async () => {
    const table = (await db.table()).name;
    const key = keyItem('rotating');
    const W = 64;
    const apply = async (tag: string, now: number): Promise<boolean> => {
      const request = loggedUpdate({ TableName: table, Key: key, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } }, tag, now, W);
      try {
        await db.client.send(new UpdateItemCommand(request));
        return true;
      } catch (e) {
        if ((e as Error).name !== 'ConditionalCheckFailedException') throw e;
        return false;
      }
    };
    const t0 = 1000 * W;
    expect(await apply('a', t0)).toBe(true);
    expect(await apply('a', t0 + W - 1)).toBe(false);
    expect(await apply('a', t0 + W)).toBe(false);
    expect(await apply('b', t0 + W)).toBe(true);
    expect(await apply('c', t0 + 2 * W)).toBe(true);
    const item = (await db.client.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
    expect(Number(item?.n?.N)).toBe(3);
    // The window of `a` is two windows old at t0 + 2W: its set was removed by the update that added `c`.
    expect(holdsOperation(item, 'a', t0 + W, W)).toBe(false);
    expect(holdsOperation(item, 'b', t0 + 2 * W, W)).toBe(true);
    const opSets = Object.keys(item ?? {}).filter((name) => name.startsWith('unumOps_'));
    expect(opSets.length).toBeLessThanOrEqual(3);
  });
});
