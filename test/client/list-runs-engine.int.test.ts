/**
 * listRuns and `unum runs` against the local engine running the example app:
 * the engine creates the table's runs index from the template, the real
 * runtime and failure recorder write the run records, the client lists them.
 */
import * as path from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { UnumClient, UnumClientError, type RunSummary } from '../../lib/client';
import { LocalEngine } from '../../lib/local/engine';
import { cachedAssembly } from '../support/cached-assembly';
import { runClientCommand } from '../support/cli';
import { ENGINE_TEST_TIMEOUT_MS, RUN_WAIT_MS } from '../support/load';
import { engineDynamoDb } from '../support/test-dynamodb';
import { DEPLOYMENT_ID_PATTERN } from '../../runtime/contract/ir';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let engine: LocalEngine;
let outDir: string;
let client: UnumClient;
/** The runs started, oldest first: n = 0 fails (step throws RangeError), others succeed. */
const started: { id: string; n: number }[] = [2, 0, 3, 4, 0, 6].map((n, i) => ({ id: `list-${i}`, n }));

beforeAll(async () => {
  outDir = await cachedAssembly(path.join(__dirname, '../..'));
  engine = await LocalEngine.fromCloudAssembly(outDir, engineDynamoDb());
  client = UnumClient.fromCloudAssembly(outDir, 'Collatz', { localEngine: engine.environment });
  // One at a time, each record written before the next start: start times follow the list.
  for (const { id, n } of started) {
    await client.start({ n }, { workflowId: id });
    await client.wait(id, { timeoutMs: RUN_WAIT_MS });
  }
});
afterAll(async () => {
  await engine?.stop();
});

const ids = (runs: readonly RunSummary[]): string[] => runs.map((r) => r.workflowId);

test('the engine creates each table with the keys and indexes its template declares', async () => {
  const { Table } = await engine.dynamo.send(new DescribeTableCommand({ TableName: engine.workflow('Collatz').tableName }));
  expect(Table?.KeySchema).toEqual([{ AttributeName: 'pk', KeyType: 'HASH' }]);
  expect(Table?.GlobalSecondaryIndexes?.map((i) => [i.IndexName, i.KeySchema, i.Projection])).toEqual([[
    'runs',
    [{ AttributeName: 'runs', KeyType: 'HASH' }, { AttributeName: 'runsSk', KeyType: 'RANGE' }],
    { ProjectionType: 'KEYS_ONLY' },
  ]]);
  // The orders example's ledger, a table of the user's: no index, as its template says.
  const ledger = engine.app.tables.find((t) => t.logicalId.startsWith('Ledger')) as (typeof engine.app.tables)[number];
  expect((await engine.dynamo.send(new DescribeTableCommand({ TableName: ledger.tableName }))).Table?.GlobalSecondaryIndexes).toBeUndefined();
});
const newestFirst = [...started].reverse();

test('every run, newest first, failed ones with the error the failure recorder wrote', async () => {
  const { runs, nextToken } = await client.listRuns();
  expect(nextToken).toBeUndefined();
  expect(ids(runs)).toEqual(newestFirst.map((r) => r.id));
  for (const r of runs) {
    expect(r).toEqual(await client.status(r.workflowId));
    expect(r.status).toBe(started.find((s) => s.id === r.workflowId)?.n === 0 ? 'FAILED' : 'SUCCEEDED');
  }
  expect(runs.find((r) => r.status === 'FAILED')?.error).toMatchObject({ node: 'Step', error: 'RangeError' });
});

test('by status, by start time, and in pages of 2 with no run twice or missing', async () => {
  expect(ids((await client.listRuns({ status: 'FAILED' })).runs)).toEqual(['list-4', 'list-1']);
  expect(ids((await client.listRuns({ status: 'SUCCEEDED', limit: 2 })).runs)).toEqual(['list-5', 'list-3']);
  const third = await client.status('list-2');
  expect(ids((await client.listRuns({ startedAfter: third.startedAt })).runs)).toEqual(['list-5', 'list-4', 'list-3']);
  expect(ids((await client.listRuns({ startedBefore: third.startedAt })).runs)).toEqual(['list-1', 'list-0']);
  const pages: string[][] = [];
  let nextToken: string | undefined;
  do {
    const page = await client.listRuns({ limit: 2, ...(nextToken ? { nextToken } : {}) });
    pages.push(ids(page.runs));
    nextToken = page.nextToken;
  } while (nextToken);
  expect(pages.flat()).toEqual(newestFirst.map((r) => r.id));
  expect(pages.slice(0, 3)).toEqual([['list-5', 'list-4'], ['list-3', 'list-2'], ['list-1', 'list-0']]);
  await expect(client.listRuns({ nextToken: 'eyJwayI6MX0' })).rejects.toThrow(UnumClientError);
});

test('a running run is listed RUNNING, and keeps its place once it finished', async () => {
  await client.start({ n: 97 }, { workflowId: 'list-long' }); // 118 steps
  let listed: RunSummary | undefined;
  for (let i = 0; i < 2000 && listed?.status !== 'RUNNING'; i++) {
    listed = (await client.listRuns({ limit: 1 })).runs[0];
    if (listed?.workflowId !== 'list-long') listed = undefined;
    if (listed?.status !== 'RUNNING') await new Promise((r) => setTimeout(r, 5));
  }
  expect(listed).toMatchObject({ workflowId: 'list-long', status: 'RUNNING' });
  expect(ids((await client.listRuns({ status: 'RUNNING' })).runs)).toEqual(['list-long']);
  await client.wait('list-long', { timeoutMs: RUN_WAIT_MS });
  const { runs } = await client.listRuns({ limit: 2 });
  expect(runs.map((r) => [r.workflowId, r.status])).toEqual([['list-long', 'SUCCEEDED'], ['list-5', 'SUCCEEDED']]);
});

test('unum runs: a table, or JSON with --json; bad options are errors', async () => {
  const saved = { ...process.env };
  Object.assign(process.env, engine.environment);
  const unum = (...argv: string[]) => runClientCommand(['runs', '--app', outDir, '--workflow', 'Collatz', ...argv]);
  try {
    const failed = await unum('--status', 'failed', '--json');
    expect([failed.code, ids(JSON.parse(failed.out).runs)]).toEqual([0, ['list-4', 'list-1']]);
    const newest = await unum('--limit', '2');
    expect(newest.code).toBe(0);
    const lines = newest.out.trimEnd().split('\n');
    expect(lines[0].split(/\s+/)).toEqual(['run', 'status', 'deployment', 'started', 'finished', 'duration', 'error']);
    expect(lines.slice(1, 3).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([['list-long', 'SUCCEEDED', expect.stringMatching(DEPLOYMENT_ID_PATTERN)], ['list-5', 'SUCCEEDED', expect.stringMatching(DEPLOYMENT_ID_PATTERN)]]);
    expect(lines[3]).toMatch(/^more: --next-token \S+$/);
    const token = lines[3].split(' ').pop() as string;
    const since = (await client.status('list-2')).startedAt as string;
    const next = await unum('--limit', '2', '--next-token', token, '--since', since);
    expect([next.code, next.out.split('\n').slice(1, 3).map((l) => l.split(/\s+/)[0])]).toEqual([0, ['list-4', 'list-3']]);
    const badTime = await unum('--status', 'FAILED', '--since', 'never');
    expect([badTime.code, badTime.err]).toEqual([1, "unum: listRuns of workflow Collatz: startedAfter is not a time: 'never'\n"]);
    const badLimit = await unum('--limit', 'ten');
    expect([badLimit.code, badLimit.err]).toEqual([2, expect.stringContaining("--limit must be a positive integer, got 'ten'")]);
  } finally {
    process.env = saved;
  }
});
