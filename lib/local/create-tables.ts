/**
 * Creates a table as the template declares it: its keys and global secondary
 * indexes, on-demand, TTL on `ttl`. Without a template (tests, tools), the
 * workflow table as the construct deploys it: key `pk` (S) and the runs index.
 */
import { type AttributeDefinition, CreateTableCommand, DeleteTableCommand, type DynamoDBClient, type GlobalSecondaryIndex, type KeySchemaElement, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { TABLE } from '../../runtime/contract/table';

/** A table's keys and indexes, named as both CreateTable and an `AWS::DynamoDB::Table` resource name them. */
export interface TableSchema {
  readonly AttributeDefinitions: readonly AttributeDefinition[];
  readonly KeySchema: readonly KeySchemaElement[];
  readonly GlobalSecondaryIndexes?: readonly GlobalSecondaryIndex[];
}

const string = (name: string): AttributeDefinition => ({ AttributeName: name, AttributeType: 'S' });
const runs = TABLE.runsIndex;

/** The workflow table's schema (lib/construct/workflow-table.ts makes the same table). */
export const WORKFLOW_TABLE_SCHEMA: TableSchema = {
  AttributeDefinitions: [string(TABLE.partitionKey), string(runs.partitionKey), string(runs.sortKey)],
  KeySchema: [{ AttributeName: TABLE.partitionKey, KeyType: 'HASH' }],
  GlobalSecondaryIndexes: [{
    IndexName: runs.name,
    KeySchema: [{ AttributeName: runs.partitionKey, KeyType: 'HASH' }, { AttributeName: runs.sortKey, KeyType: 'RANGE' }],
    Projection: { ProjectionType: 'KEYS_ONLY' },
  }],
};

export async function createWorkflowTable(client: DynamoDBClient, tableName: string, schema: TableSchema = WORKFLOW_TABLE_SCHEMA): Promise<void> {
  // Only what defines an on-demand index: a template's index may also carry capacity or contributor insights settings.
  const indexes = schema.GlobalSecondaryIndexes?.map(({ IndexName, KeySchema, Projection }) => ({ IndexName, KeySchema, Projection }));
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      AttributeDefinitions: [...schema.AttributeDefinitions],
      KeySchema: [...schema.KeySchema],
      ...(indexes?.length ? { GlobalSecondaryIndexes: indexes } : {}),
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
    }),
  );
}

/** Deletes the tables (those already gone too): what an engine made in a DynamoDB it does not own. */
export async function deleteTables(client: DynamoDBClient, tableNames: readonly string[]): Promise<void> {
  await Promise.all(
    tableNames.map((TableName) =>
      client.send(new DeleteTableCommand({ TableName })).catch((e: unknown) => {
        if ((e as { name?: string }).name !== 'ResourceNotFoundException') throw e;
      }),
    ),
  );
}
