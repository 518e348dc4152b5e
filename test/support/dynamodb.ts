/** DynamoDB Local for a test file (the run's shared instance, test-dynamodb.ts), a fresh table per test, deleted after the file. */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { createWorkflowTable, deleteTables } from '../../lib/local/create-tables';
import { DynamoDbStore } from '../../runtime/aws/dynamodb-store';
import { keyOf, parseKey } from '../../runtime/contract/table';
import { testDynamoDb } from './test-dynamodb';

export interface TestDb {
  readonly endpoint: string;
  readonly client: DynamoDBClient;
  /** A new table and a store on it. */
  table(): Promise<{ name: string; store: DynamoDbStore }>;
  scan(table: string): Promise<Record<string, AttributeValue>[]>;
  /** The record of run `workflowId` of the one workflow of the table that has such a run (throws when several have). */
  run(table: string, workflowId: string): Promise<Record<string, AttributeValue> | undefined>;
  stop(): Promise<void>;
}

export async function startTestDb(): Promise<TestDb> {
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  const local = await testDynamoDb();
  const client = new DynamoDBClient({ endpoint: local.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const scan = async (table: string): Promise<Record<string, AttributeValue>[]> => {
    const items: Record<string, AttributeValue>[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const r = await client.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
      items.push(...(r.Items ?? []));
      start = r.LastEvaluatedKey;
    } while (start);
    return items;
  };
  const tables: string[] = [];
  return {
    endpoint: local.endpoint,
    client,
    async table() {
      const name = `t-${randomUUID()}`;
      await createWorkflowTable(client, name);
      tables.push(name);
      return { name, store: new DynamoDbStore(name, client) };
    },
    scan,
    async run(table, workflowId) {
      const runs = (await scan(table)).filter((item) => {
        const key = parseKey(keyOf(item) ?? '');
        return key?.kind === 'run' && key.workflowId === workflowId;
      });
      if (runs.length > 1) throw new Error(`runs '${workflowId}' of several workflows in ${table}: ${runs.map(keyOf).join(', ')}`);
      return runs[0];
    },
    async stop() {
      await deleteTables(client, tables);
      client.destroy();
      await local.release();
    },
  };
}

/**
 * The hooks of a test file on DynamoDB Local: its tables deleted after the
 * file, and (unless `quiet: false`) the runtime's log lines kept
 * off the test output (they go straight to stdout). The returned object stands
 * for the started instance inside tests.
 */
export function useTestDb(options: { readonly quiet?: boolean } = {}): TestDb {
  let db: TestDb | undefined;
  beforeAll(async () => {
    db = await startTestDb();
  });
  afterAll(async () => {
    await db?.stop();
  });
  if (options.quiet ?? true) {
    beforeEach(() => {
      jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    });
    afterEach(() => jest.restoreAllMocks());
  }
  return new Proxy({} as TestDb, {
    get(_target, prop) {
      if (!db) throw new Error('DynamoDB Local is not started yet: use the test database inside tests');
      const value = (db as unknown as Record<string | symbol, unknown>)[prop];
      return typeof value === 'function' ? value.bind(db) : value;
    },
  });
}
