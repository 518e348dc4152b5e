/** Creates a workflow table as the construct deploys it: key `pk` (S), on-demand, TTL on `ttl`. */
import { CreateTableCommand, type DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { TABLE } from '../../runtime/table';

export async function createWorkflowTable(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      AttributeDefinitions: [{ AttributeName: TABLE.partitionKey, AttributeType: 'S' }],
      KeySchema: [{ AttributeName: TABLE.partitionKey, KeyType: 'HASH' }],
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
