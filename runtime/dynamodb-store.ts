/**
 * CheckpointStore on DynamoDB (low-level client, default config so that
 * AWS_ENDPOINT_URL_DYNAMODB works). Reads are consistent; batches are chunked
 * (100 keys per BatchGetItem, 25 per BatchWriteItem) and unprocessed parts retried.
 */
import {
  type AttributeValue,
  BatchGetItemCommand,
  type BatchGetItemCommandOutput,
  BatchWriteItemCommand,
  type BatchWriteItemCommandOutput,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { TABLE } from './ir';
import { historyKey, runKey } from './naming';
import { chunks, forEachLimit, sleep } from './pool';
import type { Checkpoint, CheckpointStore, HistoryItem, RunOutcome } from './store';

type Item = Record<string, AttributeValue>;

const PK = TABLE.partitionKey;
const TTL = { '#ttl': TABLE.ttlAttribute };
/** Parallel batch calls per operation. */
const BATCH_CONCURRENCY = 8;
const MAX_UNPROCESSED_ROUNDS = 12;

const key = (pk: string): Item => ({ [PK]: { S: pk } });

/** By name, not instanceof: robust to more than one copy of the SDK in a process. */
const conditionFailed = (e: unknown): e is Error & { Item?: Item } => e instanceof Error && e.name === 'ConditionalCheckFailedException';

function toCheckpoint(item: Item | undefined): Checkpoint | undefined {
  if (!item) return undefined;
  if (item.t) return { tombstone: true };
  const c = item.c?.N;
  return { tombstone: false, json: item.v?.S ?? 'null', ...(c === undefined ? {} : { catchIndex: Number(c) }) };
}

/** Exponential backoff between rounds of unprocessed batch items (DynamoDB's advice). */
async function backoff(round: number, what: string): Promise<void> {
  if (round >= MAX_UNPROCESSED_ROUNDS) throw new Error(`DynamoDB left ${what} unprocessed after ${round} rounds`);
  await sleep(Math.min(1000, 10 * 2 ** round) * Math.random());
}

export class DynamoDbStore implements CheckpointStore {
  private readonly client: DynamoDBClient;

  constructor(
    private readonly tableName: string,
    client?: DynamoDBClient,
  ) {
    this.client = client ?? new DynamoDBClient({});
  }

  async getCheckpoint(pk: string): Promise<Checkpoint | undefined> {
    const r = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: key(pk), ConsistentRead: true }));
    return toCheckpoint(r.Item);
  }

  async putCheckpoint(pk: string, json: string, catchIndex: number | undefined, ttl: number): Promise<Checkpoint | undefined> {
    const item: Item = { ...key(pk), v: { S: json }, [TABLE.ttlAttribute]: { N: String(ttl) } };
    if (catchIndex !== undefined) item.c = { N: String(catchIndex) };
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': PK },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return undefined;
    } catch (e) {
      if (!conditionFailed(e)) throw e;
      // ALL_OLD returns the winner's item in the same round trip; re-read only if an emulator omits it.
      return toCheckpoint(e.Item) ?? (await this.getCheckpoint(pk));
    }
  }

  private async batchGet(pks: readonly string[]): Promise<Map<string, Item>> {
    const out = new Map<string, Item>();
    await forEachLimit(chunks([...new Set(pks)], 100), BATCH_CONCURRENCY, async (chunk) => {
      let keys: Item[] | undefined = chunk.map(key);
      for (let round = 0; keys && keys.length > 0; round++) {
        if (round > 0) await backoff(round, 'keys');
        const r: BatchGetItemCommandOutput = await this.client.send(
          new BatchGetItemCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of r.Responses?.[this.tableName] ?? []) out.set(item[PK].S as string, item);
        keys = r.UnprocessedKeys?.[this.tableName]?.Keys;
      }
    });
    return out;
  }

  private async batchWrite(requests: WriteRequest[]): Promise<void> {
    await forEachLimit(chunks(requests, 25), BATCH_CONCURRENCY, async (chunk) => {
      let pending: WriteRequest[] | undefined = chunk;
      for (let round = 0; pending && pending.length > 0; round++) {
        if (round > 0) await backoff(round, 'writes');
        const r: BatchWriteItemCommandOutput = await this.client.send(new BatchWriteItemCommand({ RequestItems: { [this.tableName]: pending } }));
        pending = r.UnprocessedItems?.[this.tableName];
      }
    });
  }

  async getCheckpoints(pks: readonly string[]): Promise<Map<string, Checkpoint>> {
    const items = await this.batchGet(pks);
    return new Map([...items].map(([k, item]) => [k, toCheckpoint(item) as Checkpoint]));
  }

  async tombstone(pks: readonly string[], ttl: number): Promise<void> {
    const items = [...new Set(pks)].map((pk) => ({
      PutRequest: { Item: { ...key(pk), t: { N: '1' }, [TABLE.ttlAttribute]: { N: String(ttl) } } },
    }));
    await this.batchWrite(items);
  }

  async extendTtl(pk: string, ttl: number): Promise<void> {
    await this.client.send(
      new UpdateItemCommand({
        TableName: this.tableName,
        Key: key(pk),
        UpdateExpression: 'SET #ttl = :t',
        ConditionExpression: 'attribute_exists(#pk)',
        ExpressionAttributeNames: { ...TTL, '#pk': PK },
        ExpressionAttributeValues: { ':t': { N: String(ttl) } },
      }),
    );
  }

  async createShard(pk: string, expected: number, ttl: number): Promise<void> {
    // UpdateItem, not a put: an origin that runs again must not wipe arrivals already recorded.
    await this.client.send(
      new UpdateItemCommand({
        TableName: this.tableName,
        Key: key(pk),
        UpdateExpression: 'SET n = :n, #ttl = :t',
        ExpressionAttributeNames: TTL,
        ExpressionAttributeValues: { ':n': { N: String(expected) }, ':t': { N: String(ttl) } },
      }),
    );
  }

  async addToShard(pk: string, element: number): Promise<{ count: number; expected: number } | undefined> {
    try {
      const r = await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: key(pk),
          UpdateExpression: 'ADD a :x',
          ConditionExpression: 'attribute_exists(#pk)',
          ExpressionAttributeNames: { '#pk': PK },
          ExpressionAttributeValues: { ':x': { NS: [String(element)] } },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { count: r.Attributes?.a?.NS?.length ?? 0, expected: Number(r.Attributes?.n?.N) };
    } catch (e) {
      if (conditionFailed(e)) return undefined;
      throw e;
    }
  }

  async getShards(pks: readonly string[]): Promise<Map<string, readonly number[]>> {
    const items = await this.batchGet(pks);
    return new Map([...items].map(([k, item]) => [k, (item.a?.NS ?? []).map(Number)]));
  }

  async deleteItems(pks: readonly string[]): Promise<void> {
    await this.batchWrite([...new Set(pks)].map((pk) => ({ DeleteRequest: { Key: key(pk) } })));
  }

  async startRun(workflowId: string, startedAt: string, ttl: number): Promise<boolean> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: {
            ...key(runKey(workflowId)),
            status: { S: 'RUNNING' },
            startedAt: { S: startedAt },
            [TABLE.ttlAttribute]: { N: String(ttl) },
          },
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': PK },
        }),
      );
      return true;
    } catch (e) {
      if (conditionFailed(e)) return false;
      throw e;
    }
  }

  async finishRun(workflowId: string, outcome: RunOutcome, finishedAt: string, ttl?: number): Promise<boolean> {
    const values: Item = { ':s': { S: outcome.status }, ':f': { S: finishedAt }, ':running': { S: 'RUNNING' } };
    const sets = ['#s = :s', 'finishedAt = :f'];
    const names: Record<string, string> = { '#s': 'status', '#pk': PK };
    if (ttl !== undefined) {
      sets.push('#ttl = :t');
      values[':t'] = { N: String(ttl) };
      names['#ttl'] = TABLE.ttlAttribute;
    }
    if (outcome.status === 'FAILED') {
      sets.push('#e = :e');
      names['#e'] = 'error';
      const { node, error, cause } = outcome.error;
      values[':e'] = { M: { node: { S: node }, error: { S: error }, cause: { S: cause } } };
    } else if (outcome.result !== undefined) {
      sets.push('#r = :r');
      names['#r'] = 'result';
      values[':r'] = { S: outcome.result };
    } else if (outcome.resultRef !== undefined) {
      sets.push('resultRef = :r');
      values[':r'] = { S: outcome.resultRef };
    }
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: key(runKey(workflowId)),
          UpdateExpression: `SET ${sets.join(', ')}`,
          // A run whose record is missing (entry write lost to TTL or never made) may still finish once.
          ConditionExpression: 'attribute_not_exists(#pk) OR #s = :running',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (e) {
      if (conditionFailed(e)) return false;
      throw e;
    }
  }

  async nextHistorySeq(workflowId: string, ttl: number): Promise<number> {
    const r = await this.client.send(
      new UpdateItemCommand({
        TableName: this.tableName,
        Key: key(historyKey(workflowId)),
        UpdateExpression: 'ADD n :n SET #ttl = if_not_exists(#ttl, :t)',
        ExpressionAttributeNames: TTL,
        ExpressionAttributeValues: { ':n': { N: '1' }, ':t': { N: String(ttl) } },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(r.Attributes?.n?.N);
  }

  async putHistoryEntry(workflowId: string, seq: number, entry: HistoryItem, ttl: number): Promise<void> {
    const item: Item = { ...key(historyKey(workflowId, seq)), [TABLE.ttlAttribute]: { N: String(ttl) } };
    for (const [k, v] of Object.entries(entry)) if (v !== undefined) item[k] = typeof v === 'number' ? { N: String(v) } : { S: v };
    await this.client.send(new PutItemCommand({ TableName: this.tableName, Item: item }));
  }
}
