/**
 * Reads the workflow's envelope key (runtime/contract/table/envelope-key.ts)
 * from its table: one consistent GetItem, which the function makes once per
 * cold start (runtime/entry/envelope-auth.ts caches it).
 */
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { decodeEnvelopeKey, envelopeKeyKey, keyItem } from '../contract/table';
import type { DynamoDbTarget } from '../ports/store';

export async function readEnvelopeKey(table: DynamoDbTarget, workflow: string): Promise<Uint8Array> {
  const key = envelopeKeyKey(workflow);
  const { Item } = await table.client.send(new GetItemCommand({ TableName: table.tableName, Key: keyItem(key), ConsistentRead: true }));
  const secret = decodeEnvelopeKey(Item);
  if (!secret) throw new Error(`unum: workflow ${workflow} has no envelope key (item ${key} of table ${table.tableName}): its deployment resource creates it at the first deploy, and no envelope can be sealed or verified without it`);
  return secret;
}
