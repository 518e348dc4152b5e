/**
 * listRuns on DynamoDB Local: run records written by the runtime's store (every
 * way a record is created), read back through the runs index.
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { UnumClient, UnumClientError, type RunSummary } from '../../lib/client';
import type { DynamoDbStore } from '../../runtime/aws/dynamodb-store';
import type { RunRecordStatus } from '../../runtime/contract/table';
import { useTestDb } from '../support/dynamodb';

const db = useTestDb();
const TTL = Math.floor(Date.now() / 1000) + 3600;
const at = (second: number): string => new Date(Date.UTC(2026, 10, 23, 12, 0, second)).toISOString();
const failure = { node: 'Charge', error: 'Card.Declined', cause: 'expired' };

function clientOf(table: string, workflow = 'Orders'): UnumClient {
  return UnumClient.forWorkflow({ entryFunction: 'unused', table, workflow, dynamodb: db.client });
}

/** Every page of a listing, following its tokens; fails on a page over the limit. */
async function allPages(client: UnumClient, options: Parameters<UnumClient['listRuns']>[0] & { limit: number }): Promise<{ runs: RunSummary[]; pages: number }> {
  const runs: RunSummary[] = [];
  let nextToken: string | undefined;
  let pages = 0;
  do {
    const page = await client.listRuns({ ...options, ...(nextToken ? { nextToken } : {}) });
    expect(page.runs.length).toBeLessThanOrEqual(options.limit);
    runs.push(...page.runs);
    nextToken = page.nextToken;
    pages++;
  } while (nextToken);
  return { runs, pages };
}

async function startRuns(store: DynamoDbStore, workflow: string, ends: readonly RunRecordStatus[]): Promise<void> {
  for (const [i, end] of ends.entries()) {
    const run = { workflow, workflowId: `run-${i}` };
    await store.startRun(run, at(i), TTL);
    if (end === 'SUCCEEDED') await store.finishRun(run, { status: 'SUCCEEDED', result: String(i) }, at(i + 1), TTL);
    if (end === 'FAILED') await store.finishRun(run, { status: 'FAILED', error: failure }, at(i + 1), TTL);
    if (end === 'ABORTED' || end === 'TIMED_OUT') await store.interruptRun(run, { status: end, error: failure }, at(i + 1));
  }
}

test('newest first, with status, times and error; a finished run keeps its place; other workflows and items are not listed', async () => {
  const { name, store } = await db.table();
  await startRuns(store, 'Orders', ['SUCCEEDED', 'FAILED', 'RUNNING']);
  await startRuns(store, 'Other', ['SUCCEEDED']);
  await store.putCheckpoint('ckpt#x', '1', undefined, TTL);
  const { runs, nextToken } = await clientOf(name).listRuns();
  expect(nextToken).toBeUndefined();
  expect(runs).toEqual([
    { workflowId: 'run-2', status: 'RUNNING', startedAt: at(2) },
    { workflowId: 'run-1', status: 'FAILED', startedAt: at(1), finishedAt: at(2), error: failure },
    { workflowId: 'run-0', status: 'SUCCEEDED', startedAt: at(0), finishedAt: at(1) },
  ]);
  // The index holds run records only, keys only: nothing but the four runs' keys, of both workflows.
  const indexed = [];
  for (const workflow of ['Orders', 'Other']) {
    const out = await db.client.send(new QueryCommand({ TableName: name, IndexName: 'runs', KeyConditionExpression: 'runs = :w', ExpressionAttributeValues: { ':w': { S: workflow } } }));
    for (const item of out.Items ?? []) expect(Object.keys(item).sort()).toEqual(['pk', 'runs', 'runsSk']);
    indexed.push(...(out.Items ?? []).map((i) => i.pk.S));
  }
  expect(indexed.sort()).toEqual(['run#Orders#run-0', 'run#Orders#run-1', 'run#Orders#run-2', 'run#Other#run-0']);
});

test('a page is one Query of the index and one eventually consistent BatchGetItem of its runs\' status, times and error', async () => {
  const { name, store } = await db.table();
  await store.startRun({ workflow: 'Orders', workflowId: 'big' }, at(0), TTL);
  await store.finishRun({ workflow: 'Orders', workflowId: 'big' }, { status: 'SUCCEEDED', result: JSON.stringify('r'.repeat(3000)) }, at(1), TTL);
  await startRuns(store, 'Orders', ['FAILED', 'RUNNING']);
  const send = jest.spyOn(db.client, 'send');
  try {
    const { runs } = await clientOf(name).listRuns();
    expect(runs.map((r) => r.workflowId)).toEqual(['run-1', 'run-0', 'big']);
    const calls = send.mock.calls.map(([command]) => command as unknown as { constructor: { name: string }; input: Record<string, unknown> });
    expect(calls.map((c) => c.constructor.name)).toEqual(['QueryCommand', 'BatchGetItemCommand']);
    const { ConsistentRead, ProjectionExpression, ExpressionAttributeNames } = (calls[1].input.RequestItems as Record<string, Record<string, unknown>>)[name];
    expect(ConsistentRead).toBe(false);
    const read = String(ProjectionExpression).split(', ').map((n) => (ExpressionAttributeNames as Record<string, string>)[n]);
    // The summary (and the format, to refuse a newer one), never the result, which may be large.
    expect(read).toEqual(expect.arrayContaining(['pk', 'status', 'startedAt', 'finishedAt', 'error']));
    expect(read).not.toContain('result');
  } finally {
    send.mockRestore();
  }
});

test('a rejected start and a run whose record its end created are listed too', async () => {
  const { name, store } = await db.table();
  await store.rejectRun({ workflow: 'Orders', workflowId: 'rejected' }, failure, at(5), TTL);
  // The entry's record lost (or never written): the terminal write creates the record, listed at its finish time.
  await store.finishRun({ workflow: 'Orders', workflowId: 'orphan' }, { status: 'FAILED', error: failure }, at(9), TTL);
  const { runs } = await clientOf(name).listRuns();
  expect(runs.map((r) => [r.workflowId, r.status])).toEqual([['orphan', 'FAILED'], ['rejected', 'FAILED']]);
});

test('time bounds exclude runs started at exactly the bound; a filtered listing reads on until it has the limit', async () => {
  const { name, store } = await db.table();
  // 30 runs: every fifth FAILED, so a FAILED listing skips four runs for each it returns.
  await startRuns(store, 'Orders', Array.from({ length: 30 }, (_, i) => (i % 5 === 0 ? 'FAILED' : 'SUCCEEDED')));
  const client = clientOf(name);
  const ids = (runs: readonly RunSummary[]): string[] => runs.map((r) => r.workflowId);
  expect(ids((await client.listRuns({ startedAfter: at(26) })).runs)).toEqual(['run-29', 'run-28', 'run-27']);
  expect(ids((await client.listRuns({ startedBefore: new Date(at(2)) })).runs)).toEqual(['run-1', 'run-0']);
  expect(ids((await client.listRuns({ startedAfter: at(3), startedBefore: at(7) })).runs)).toEqual(['run-6', 'run-5', 'run-4']);
  const failed = await client.listRuns({ status: 'FAILED', limit: 3 });
  expect(ids(failed.runs)).toEqual(['run-25', 'run-20', 'run-15']);
  const rest = await client.listRuns({ status: 'FAILED', limit: 3, nextToken: failed.nextToken });
  expect(ids(rest.runs)).toEqual(['run-10', 'run-5', 'run-0']);
  expect((await client.listRuns({ status: 'RUNNING' })).runs).toEqual([]);
});

test('pages of any size, any filter, together list each matching run once, newest first (property)', async () => {
  const { name, store } = await db.table();
  const ends: RunRecordStatus[] = Array.from({ length: 23 }, (_, i) => (['SUCCEEDED', 'FAILED', 'RUNNING', 'ABORTED'] as const)[(i * 7) % 4]);
  await startRuns(store, 'Orders', ends);
  const client = clientOf(name);
  const all = (await client.listRuns({ limit: 1000 })).runs;
  expect(all.map((r) => r.workflowId)).toEqual(ends.map((_, i) => `run-${i}`).reverse());
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
  process.stderr.write(`list-runs property: seed ${seed} (FC_SEED=${seed} to replay)\n`);
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 9 }),
      fc.option(fc.constantFrom<RunRecordStatus>('SUCCEEDED', 'FAILED', 'RUNNING', 'ABORTED'), { nil: undefined }),
      fc.option(fc.integer({ min: 0, max: 23 }), { nil: undefined }),
      async (limit, status, after) => {
        const options = { limit, ...(status ? { status } : {}), ...(after !== undefined ? { startedAfter: at(after) } : {}) };
        const { runs } = await allPages(client, options);
        const expected = all.filter((r) => (!status || r.status === status) && (after === undefined || (r.startedAt ?? '') > at(after)));
        expect(runs).toEqual(expected);
      },
    ),
    { numRuns: 25, seed },
  );
});

test('bad options and tokens get errors naming the workflow and the field', async () => {
  const { name, store } = await db.table();
  await startRuns(store, 'Orders', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
  const client = clientOf(name);
  const { nextToken } = await client.listRuns({ limit: 1 });
  expect(nextToken).toBeDefined();
  await expect(client.listRuns({ nextToken: 'not-a-token' })).rejects.toThrow(new UnumClientError('listRuns of workflow Orders: nextToken is not a token a listing of this workflow returned'));
  // A token of another workflow, and one whose keys were edited to name another run.
  await expect(clientOf(name, 'Other').listRuns({ nextToken })).rejects.toThrow(/listRuns of workflow Other: nextToken/);
  const edited = Buffer.from(Buffer.from(nextToken as string, 'base64url').toString().replace('#run-2"', '#run-1"')).toString('base64url');
  await expect(client.listRuns({ nextToken: edited })).rejects.toThrow(/nextToken is not a token/);
  await expect(client.listRuns({ limit: 0 })).rejects.toThrow(/listRuns of workflow Orders: limit must be a positive integer, got 0/);
  await expect(client.listRuns({ status: 'DONE' as RunRecordStatus })).rejects.toThrow(/status must be one of RUNNING, SUCCEEDED, FAILED, ABORTED, TIMED_OUT, got 'DONE'/);
  await expect(client.listRuns({ startedAfter: 'yesterday' })).rejects.toThrow(/startedAfter is not a time: 'yesterday'/);
  await expect(client.listRuns({ startedAfter: at(5), startedBefore: at(5) })).rejects.toThrow(/startedAfter \(.*\) must be before startedBefore/);
});
