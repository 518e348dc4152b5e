/**
 * The engine's DynamoDB. One it starts ends with it. One it is given (`dynamoDb: { endpoint,
 * tablePrefix }`) it does not own: two engines of the same app side by side in one DynamoDB Local,
 * each on tables of its own prefix, each run reading and writing only its engine's tables; the
 * client finds them through the engine's environment; stopping an engine deletes its tables and
 * leaves the service and the other engine's tables alone.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { UnumClient } from '../../lib/client';
import { LocalEngine } from '../../lib/local/engine';
import { runWorkflow } from '../../lib/local/run-workflow';
import { cachedAssembly } from '../support/cached-assembly';
import { ENGINE_TEST_TIMEOUT_MS, RUN_WAIT_MS } from '../support/load';
import { testDynamoDb, type TestDynamoDb } from '../support/test-dynamodb';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let db: TestDynamoDb;
let dynamodb: DynamoDBClient;
const engines: LocalEngine[] = [];

beforeAll(async () => {
  db = await testDynamoDb();
  dynamodb = new DynamoDBClient({ endpoint: db.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});
afterAll(async () => {
  for (const engine of engines) await engine.stop();
  dynamodb?.destroy();
  await db?.release();
});

async function tableNames(): Promise<string[]> {
  const names: string[] = [];
  let start: string | undefined;
  do {
    const page = await dynamodb.send(new ListTablesCommand(start ? { ExclusiveStartTableName: start } : {}));
    names.push(...(page.TableNames ?? []));
    start = page.LastEvaluatedTableName;
  } while (start);
  return names;
}

test('two engines of one app share a DynamoDB Local on tables of their own prefix', async () => {
  const outDir = await cachedAssembly(path.join(__dirname, '../..'));
  const [first, second] = await Promise.all(
    ['first-', 'second-'].map((prefix) => LocalEngine.fromCloudAssembly(outDir, { dynamoDb: { endpoint: db.endpoint, tablePrefix: `${prefix}${process.pid}-` } })),
  );
  engines.push(first, second);
  const ofFirst = first.workflow('Collatz').tableName;
  const ofSecond = second.workflow('Collatz').tableName;
  expect(ofFirst).toBe(`first-${process.pid}-${ofSecond.slice(`second-${process.pid}-`.length)}`);
  expect(first.dynamoEndpoint).toBe(db.endpoint);
  expect(await tableNames()).toEqual(expect.arrayContaining([ofFirst, ofSecond]));

  // The same run id on both engines: two runs, one in each engine's table.
  const [a, b] = await Promise.all([
    runWorkflow(first, 'Collatz', { n: 3 }, { workflowId: 'shared-1', timeoutMs: RUN_WAIT_MS }),
    runWorkflow(second, 'Collatz', { n: 6 }, { workflowId: 'shared-1', timeoutMs: RUN_WAIT_MS }),
  ]);
  expect([a.status, a.result]).toEqual(['SUCCEEDED', { start: 3, steps: 7, peak: 16 }]);
  expect([b.status, b.result]).toEqual(['SUCCEEDED', { start: 6, steps: 8, peak: 16 }]);

  // The client finds an engine's own table through its environment, which names the prefix.
  const client = UnumClient.fromCloudAssembly(outDir, 'Collatz', { localEngine: second.environment });
  expect(client.tableName).toBe(ofSecond);
  expect(await client.result('shared-1')).toEqual({ start: 6, steps: 8, peak: 16 });

  // Stopping the first engine deletes its tables only; the service and the second engine carry on.
  await first.stop();
  const left = await tableNames();
  expect(left).not.toContain(ofFirst);
  expect(left.filter((t) => t.startsWith(`first-${process.pid}-`))).toEqual([]);
  expect(left).toContain(ofSecond);
  const again = await runWorkflow(second, 'Collatz', { n: 1 }, { workflowId: 'shared-2', timeoutMs: RUN_WAIT_MS });
  expect(again.status).toBe('SUCCEEDED');
});

test('stop() ends the DynamoDB Local the engine started', async () => {
  const engine = await LocalEngine.fromCloudAssembly(await cachedAssembly(path.join(__dirname, '../..')));
  engines.push(engine);
  expect(engine.dynamoEndpoint).not.toBe(db.endpoint);
  const port = new URL(engine.dynamoEndpoint).port;
  const javaRunning = (): boolean => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .some((l) => l.trim().startsWith('java ') && l.includes('DynamoDBLocal.jar') && l.includes(`-port ${port}`));
  expect(javaRunning()).toBe(true);
  await engine.stop();
  expect(javaRunning()).toBe(false);
});
