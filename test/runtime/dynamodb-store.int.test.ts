/** DynamoDbStore against DynamoDB Local: conditional writes, batches past their limits, run record conditions. */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDbStore } from '../../runtime/dynamodb-store';
import { useTestDb } from '../support/dynamodb';

const db = useTestDb({ quiet: false });

test('a losing put returns the stored checkpoint from ALL_OLD, with no extra read', async () => {
  const { name } = await db.table();
  const sent: string[] = [];
  const store = new DynamoDbStore(name, db.client);
  const send = db.client.send.bind(db.client);
  const spy = jest.spyOn(db.client, 'send').mockImplementation(((cmd: { constructor: { name: string } }) => {
    sent.push(cmd.constructor.name);
    return send(cmd as never);
  }) as never);
  try {
    expect(await store.putCheckpoint('ckpt#a', '{"x":1}', undefined, 100)).toBeUndefined();
    expect(await store.putCheckpoint('ckpt#a', '{"x":2}', 3, 100)).toEqual({ tombstone: false, json: '{"x":1}' });
    expect(sent).toEqual(['PutItemCommand', 'PutItemCommand']);
  } finally {
    spy.mockRestore();
  }
  await store.putCheckpoint('ckpt#c', '"caught"', 1, 100);
  expect(await store.getCheckpoint('ckpt#c')).toEqual({ tombstone: false, json: '"caught"', catchIndex: 1 });
  await store.tombstone(['ckpt#a', 'ckpt#a'], 200);
  expect(await store.getCheckpoint('ckpt#a')).toEqual({ tombstone: true });
  expect(await store.putCheckpoint('ckpt#a', '1', undefined, 100)).toEqual({ tombstone: true });
  const raw = await db.client.send(new GetItemCommand({ TableName: name, Key: { pk: { S: 'ckpt#a' } } }));
  expect(raw.Item).toEqual({ pk: { S: 'ckpt#a' }, t: { N: '1' }, ttl: { N: '200' } });
});

test('batch reads and writes beyond 100 / 25 items', async () => {
  const { store } = await db.table();
  const keys = Array.from({ length: 250 }, (_, i) => `ckpt#k${i}`);
  await Promise.all(keys.map((k, i) => store.putCheckpoint(k, JSON.stringify({ i, pad: 'p'.repeat(1000) }), undefined, 100)));
  const got = await store.getCheckpoints([...keys, 'ckpt#missing']);
  expect(got.size).toBe(250);
  expect(JSON.parse((got.get('ckpt#k199') as { json: string }).json).i).toBe(199);
  await store.tombstone(keys, 100);
  expect([...(await store.getCheckpoints(keys)).values()].every((c) => c.tombstone)).toBe(true);
});

test('shards: upsert keeps arrivals, ADD is idempotent, a deleted shard refuses arrivals', async () => {
  const { store } = await db.table();
  await store.createShard('fanin#j#0#0', 3, 100);
  expect(await store.addToShard('fanin#j#0#0', 5)).toEqual({ count: 1, expected: 3 });
  expect(await store.addToShard('fanin#j#0#0', 5)).toEqual({ count: 1, expected: 3 });
  await store.createShard('fanin#j#0#0', 3, 100);
  expect(await store.addToShard('fanin#j#0#0', 7)).toEqual({ count: 2, expected: 3 });
  expect(await store.getShards(['fanin#j#0#0', 'fanin#j#0#1'])).toEqual(new Map([['fanin#j#0#0', [5, 7]]]));
  await store.deleteItems(['fanin#j#0#0']);
  expect(await store.addToShard('fanin#j#0#0', 9)).toBeUndefined();
  expect(await store.getShards(['fanin#j#0#0'])).toEqual(new Map());
});

test('run record: created once, finished once', async () => {
  const { name, store } = await db.table();
  const w = { workflow: 'W', workflowId: 'w' };
  expect(await store.startRun(w, '2026-01-01T00:00:00Z', 100)).toBe(true);
  expect(await store.startRun(w, '2026-01-01T00:00:01Z', 100)).toBe(false);
  expect(await store.finishRun(w, { status: 'SUCCEEDED', result: '{"a":1}' }, 'now', 500)).toBe(true);
  expect(await store.finishRun(w, { status: 'FAILED', error: { node: 'n', error: 'E', cause: 'c' } }, 'later', 600)).toBe(false);
  const run = await db.run(name, 'w');
  expect(run).toMatchObject({ status: { S: 'SUCCEEDED' }, result: { S: '{"a":1}' }, startedAt: { S: '2026-01-01T00:00:00Z' }, finishedAt: { S: 'now' }, ttl: { N: '500' } });
  // A run whose record is missing can still finish once.
  expect(await store.finishRun({ workflow: 'W', workflowId: 'x' }, { status: 'FAILED', error: { node: 'n', error: 'E', cause: 'c' } }, 'now', 700)).toBe(true);
  expect(await db.run(name, 'x')).toMatchObject({ error: { M: { node: { S: 'n' }, error: { S: 'E' }, cause: { S: 'c' } } }, ttl: { N: '700' } });
  // A rejected start request never touches an existing record, and records a new one FAILED.
  const rejected = { node: 'n', error: 'UnumEventError', cause: 'malformed start request' };
  expect(await store.rejectRun(w, rejected, 'now', 100)).toBe(false);
  expect((await db.run(name, 'w'))?.status).toEqual({ S: 'SUCCEEDED' });
  expect(await store.rejectRun({ workflow: 'W', workflowId: 'y' }, rejected, 'now', 100)).toBe(true);
  expect(await db.run(name, 'y')).toMatchObject({ status: { S: 'FAILED' }, error: { M: { cause: { S: 'malformed start request' } } }, ttl: { N: '100' } });
  await store.putCheckpoint('ckpt#r', '1', undefined, 100);
  await store.extendTtl('ckpt#r', 999);
  expect((await db.client.send(new GetItemCommand({ TableName: name, Key: { pk: { S: 'ckpt#r' } } }))).Item?.ttl).toEqual({ N: '999' });
});
