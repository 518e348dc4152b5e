/** Reads and writes of effect records (runtime/contract/table/) on the workflow table. */
import { GetItemCommand, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDbTarget } from '../ports/store';
import { decodeEffect, effectClaim, effectCommit, effectOutcome, effectResult, type EffectRecord, type Item, keyItem } from '../contract/table';

const conditionFailed = (e: unknown): e is Error & { Item?: Item } => e instanceof Error && e.name === 'ConditionalCheckFailedException';

export async function readEffect(t: DynamoDbTarget, key: string): Promise<EffectRecord | undefined> {
  const r = await t.client.send(new GetItemCommand({ TableName: t.tableName, Key: keyItem(key), ConsistentRead: true }));
  return decodeEffect(r.Item);
}

/** Records a committed effect unless one is recorded; returns the one already there (the value to return), else undefined. */
export async function commitEffect(t: DynamoDbTarget, key: string, result: string | undefined, ttl: number): Promise<EffectRecord | undefined> {
  try {
    await t.client.send(new PutItemCommand({ TableName: t.tableName, ...effectCommit(key, result, ttl), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
    return undefined;
  } catch (e) {
    if (!conditionFailed(e)) throw e;
    return decodeEffect(e.Item) ?? (await readEffect(t, key));
  }
}

/** Logs transaction `xid` as the effect's (over `replaces`, which aborted); false when another execution's record is there. */
export async function claimEffect(t: DynamoDbTarget, key: string, xid: string, replaces: string | undefined, ttl: number): Promise<boolean> {
  try {
    await t.client.send(new UpdateItemCommand({ TableName: t.tableName, ...effectClaim(key, xid, replaces, ttl) }));
    return true;
  } catch (e) {
    if (conditionFailed(e)) return false;
    throw e;
  }
}

export async function logEffectResult(t: DynamoDbTarget, key: string, xid: string, result: string): Promise<void> {
  await t.client.send(new UpdateItemCommand({ TableName: t.tableName, ...effectResult(key, xid, result) }));
}

export async function logEffectOutcome(t: DynamoDbTarget, key: string, result: string | undefined, ttl: number): Promise<void> {
  await t.client.send(new UpdateItemCommand({ TableName: t.tableName, ...effectOutcome(key, result, ttl) }));
}
