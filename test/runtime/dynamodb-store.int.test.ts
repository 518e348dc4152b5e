/** DynamoDbStore against DynamoDB Local: conditional writes, batches past their limits, run record conditions. */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDbStore } from '../../runtime/aws/dynamodb-store';
import { TABLE_FORMAT } from '../../runtime/contract/table';
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
    expect(await store.putCheckpoint('ckpt#a', '{"x":2}', 3, 100)).toEqual({ json: '{"x":1}', ttl: 100 });
    expect(sent).toEqual(['PutItemCommand', 'PutItemCommand']);
  } finally {
    spy.mockRestore();
  }
  await store.putCheckpoint('ckpt#c', '"caught"', 1, 100);
  expect(await store.getCheckpoint('ckpt#c')).toEqual({ json: '"caught"', catchIndex: 1, ttl: 100 });
  const raw = await db.client.send(new GetItemCommand({ TableName: name, Key: { pk: { S: 'ckpt#a' } } }));
  // The table format (`fv`) beside the key, value and TTL.
  expect(raw.Item).toEqual({ pk: { S: 'ckpt#a' }, fv: { N: String(TABLE_FORMAT) }, v: { S: '{"x":1}' }, ttl: { N: '100' } });
});

test('a value over 700 bytes is stored deflated when that is smaller, and read back byte for byte', async () => {
  const { name } = await db.table();
  const store = new DynamoDbStore(name, db.client);
  const text = JSON.stringify({ words: Array.from({ length: 300 }, (_, i) => ['release', 'notes', 'scheduler', 'worker'][i % 4]) });
  const random = JSON.stringify(Array.from({ length: 120 }, (_, i) => ((i * 2654435761) % 4294967296).toString(36)));
  await store.putCheckpoint('ckpt#text', text, undefined, 100);
  await store.putCheckpoint('ckpt#random', random, undefined, 100);
  const raw = async (key: string) => (await db.client.send(new GetItemCommand({ TableName: name, Key: { pk: { S: key } } }))).Item!;
  const deflated = await raw('ckpt#text');
  expect(deflated.v).toBeUndefined();
  // Under 1 KB stored, so one write unit instead of three.
  expect(Buffer.byteLength(text)).toBeGreaterThan(2048);
  expect(deflated.z.B!.length).toBeLessThan(1000);
  expect((await store.getCheckpoint('ckpt#text'))?.json).toBe(text);
  expect((await store.read(['ckpt#text'], [], { consistent: false })).checkpoints.get('ckpt#text')?.json).toBe(text);
  // A losing writer gets the winner's value back from ALL_OLD, inflated.
  expect((await store.putCheckpoint('ckpt#text', '"other"', undefined, 100))?.json).toBe(text);
  expect((await store.getCheckpoint('ckpt#random'))?.json).toBe(random);
});

test('read: checkpoints and shards in one round trip, eventually consistent or not; one key is a GetItem', async () => {
  const { name } = await db.table();
  const sent: { name: string; consistent?: boolean }[] = [];
  const store = new DynamoDbStore(name, db.client);
  await store.putCheckpoint('ckpt#a', '1', undefined, 100);
  await store.addToShard('fanin#j#0#0', 5, 2, 100);
  const send = db.client.send.bind(db.client);
  const spy = jest.spyOn(db.client, 'send').mockImplementation(((cmd: { constructor: { name: string }; input: { ConsistentRead?: boolean; RequestItems?: Record<string, { ConsistentRead?: boolean }> } }) => {
    sent.push({ name: cmd.constructor.name, consistent: cmd.input.ConsistentRead ?? cmd.input.RequestItems?.[name]?.ConsistentRead });
    return send(cmd as never);
  }) as never);
  try {
    const both = await store.read(['ckpt#a', 'ckpt#none'], ['fanin#j#0#0', 'fanin#j#0#1'], { consistent: true });
    expect(both.checkpoints).toEqual(new Map([['ckpt#a', { json: '1', ttl: 100 }]]));
    expect(both.shards).toEqual(new Map([['fanin#j#0#0', [5]]]));
    expect((await store.read(['ckpt#a'], [], { consistent: false })).checkpoints.get('ckpt#a')).toEqual({ json: '1', ttl: 100 });
    expect(sent).toEqual([{ name: 'BatchGetItemCommand', consistent: true }, { name: 'GetItemCommand', consistent: false }]);
  } finally {
    spy.mockRestore();
  }
});

test('batch reads beyond 100 items', async () => {
  const { store } = await db.table();
  const keys = Array.from({ length: 250 }, (_, i) => `ckpt#k${i}`);
  await Promise.all(keys.map((k, i) => store.putCheckpoint(k, JSON.stringify({ i, pad: 'p'.repeat(1000) }), undefined, 100)));
  const got = await store.getCheckpoints([...keys, 'ckpt#missing']);
  expect(got.size).toBe(250);
  expect(JSON.parse((got.get('ckpt#k199') as { json: string }).json).i).toBe(199);
});

test('shards: the first arrival creates the shard with its TTL, ADD is idempotent, later arrivals keep the TTL', async () => {
  const { store } = await db.table();
  expect(await store.addToShard('fanin#j#0#0', 5, 3, 100)).toEqual({ count: 1, expected: 3, ttl: 100 });
  expect(await store.addToShard('fanin#j#0#0', 5, 3, 100)).toEqual({ count: 1, expected: 3, ttl: 100 });
  expect(await store.addToShard('fanin#j#0#0', 7, 3, 50)).toEqual({ count: 2, expected: 3, ttl: 100 });
  expect((await store.read([], ['fanin#j#0#0', 'fanin#j#0#1'], { consistent: true })).shards).toEqual(new Map([['fanin#j#0#0', [5, 7]]]));
});

test('run record: created once, finished once', async () => {
  const { name, store } = await db.table();
  const w = { workflow: 'W', workflowId: 'w' };
  expect(await store.startRun(w, '2026-01-01T00:00:00Z', 100)).toEqual({ created: true });
  expect(await store.startRun(w, '2026-01-01T00:00:01Z', 100)).toEqual({ created: false, startedAt: '2026-01-01T00:00:00Z' });
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

test('TTL renewals only raise TTLs of items that exist', async () => {
  const { name, store } = await db.table();
  const ttl = async (key: string) => (await db.client.send(new GetItemCommand({ TableName: name, Key: { pk: { S: key } }, ConsistentRead: true }))).Item?.ttl?.N;
  await store.putCheckpoint('ckpt#r', '1', undefined, 500);
  await store.extendTtl('ckpt#r', 400);
  await store.extendTtl('ckpt#gone', 400);
  expect([await ttl('ckpt#r'), await ttl('ckpt#gone')]).toEqual(['500', undefined]);
  expect((await store.getCheckpoint('ckpt#r'))).toEqual({ json: '1', ttl: 500 });

  await store.addToShard('fanin#j#0#0', 5, 2, 100);
  expect(await store.renewShard('fanin#j#0#0', 300)).toEqual({ renewed: true, arrivals: [5] });
  expect(await store.renewShard('fanin#j#0#0', 200)).toEqual({ renewed: false, ttl: 300 });
  expect(await store.renewShard('fanin#none', 300)).toEqual({ renewed: false });
  expect(await ttl('fanin#none')).toBeUndefined();
});

test('a fan-in renewal is claimed once per lease, and again by the claimer', async () => {
  const { store } = await db.table();
  await store.addToShard('fanin#j#0#0', 5, 2, 100);
  // Due: the root expires before 150.
  expect(await store.renewShard('fanin#j#0#0', 400, { by: 'ckpt#a', due: 150 })).toEqual({ renewed: true, arrivals: [5] });
  // Not due for another invocation any more: it learns the TTL.
  expect(await store.renewShard('fanin#j#0#0', 450, { by: 'ckpt#b', due: 160 })).toEqual({ renewed: false, ttl: 400 });
  // The claimer's retry claims again and finishes the renewal.
  expect(await store.renewShard('fanin#j#0#0', 410, { by: 'ckpt#a', due: 160 })).toEqual({ renewed: true, arrivals: [5] });
  // A root that no arrival reached yet is created by the claim, with the lease as its TTL; the first arrival keeps it.
  expect(await store.renewShard('fanin#new', 400, { by: 'ckpt#a', due: 150 })).toEqual({ renewed: true, arrivals: [] });
  expect(await store.addToShard('fanin#new', 1, 2, 100)).toEqual({ count: 1, expected: 2, ttl: 400 });
});
