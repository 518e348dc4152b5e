/**
 * CheckpointStore on DynamoDB (low-level client, default config so that
 * AWS_ENDPOINT_URL_DYNAMODB works). Reads are consistent; batches are chunked
 * (100 keys per BatchGetItem, 25 per BatchWriteItem) and unprocessed parts retried.
 *
 * Every request goes through the few private helpers below (put, update,
 * batch): this file is the largest part of the bundle shipped to each
 * function, so the command plumbing is written once.
 */
import {
  type AttributeValue,
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  type ReturnValue,
  type ReturnValuesOnConditionCheckFailure,
  UpdateItemCommand,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { TABLE } from './ir';
import { historyKey, runKey } from './naming';
import { chunks, forEachLimit, sleep } from './pool';
import type { Checkpoint, CheckpointStore, HistoryItem, RunOutcome } from './store';

type Item = Record<string, AttributeValue>;

const PK = TABLE.partitionKey;
/** Parallel batch calls per operation. */
const BATCH_CONCURRENCY = 8;
const MAX_UNPROCESSED_ROUNDS = 12;

const str = (s: string): AttributeValue => ({ S: s });
const num = (n: number): AttributeValue => ({ N: String(n) });
const key = (pk: string): Item => ({ [PK]: str(pk) });
/** A new item's key and TTL: every item this store creates expires. */
const newItem = (pk: string, ttl: number): Item => ({ ...key(pk), [TABLE.ttlAttribute]: num(ttl) });

const ABSENT = 'attribute_not_exists(#pk)';
const PRESENT = 'attribute_exists(#pk)';

/**
 * What the `#placeholders` in our expressions stand for: the table's
 * configured attribute names and DynamoDB reserved words. DynamoDB rejects
 * unused names, so a request gets exactly those its expressions mention.
 */
const NAMES: Record<string, string> = { '#pk': PK, '#ttl': TABLE.ttlAttribute, '#s': 'status', '#e': 'error', '#r': 'result' };
function namesIn(...expressions: (string | undefined)[]): Record<string, string> | undefined {
  const used = expressions.join(' ').match(/#\w+/g);
  return used ? Object.fromEntries(used.map((n) => [n, NAMES[n]])) : undefined;
}

/**
 * Awaits a conditional write; a failed condition becomes `onFailed(e)`.
 * Matched by name, not instanceof: robust to more than one copy of the SDK in a process.
 */
async function conditional<T, F>(write: Promise<T>, onFailed: (e: Error & { Item?: Item }) => F | Promise<F>): Promise<T | F> {
  try {
    return await write;
  } catch (e) {
    if (e instanceof Error && e.name === 'ConditionalCheckFailedException') return onFailed(e);
    throw e;
  }
}

/** True when a conditional write was made, false when its condition failed. */
const wrote = (write: Promise<unknown>): Promise<boolean> => conditional(write.then(() => true), () => false);

function toCheckpoint(item: Item | undefined): Checkpoint | undefined {
  if (!item) return undefined;
  if (item.t) return { tombstone: true };
  const c = item.c?.N;
  return { tombstone: false, json: item.v?.S ?? 'null', ...(c === undefined ? {} : { catchIndex: Number(c) }) };
}

export class DynamoDbStore implements CheckpointStore {
  private readonly client: DynamoDBClient;

  constructor(
    private readonly tableName: string,
    client?: DynamoDBClient,
  ) {
    this.client = client ?? new DynamoDBClient({});
  }

  private put(item: Item, condition?: string, onConditionFailure?: ReturnValuesOnConditionCheckFailure) {
    return this.client.send(
      new PutItemCommand({
        TableName: this.tableName,
        Item: item,
        ConditionExpression: condition,
        ExpressionAttributeNames: namesIn(condition),
        ReturnValuesOnConditionCheckFailure: onConditionFailure,
      }),
    );
  }

  private update(pk: string, expression: string, values: Item, condition?: string, returnValues?: ReturnValue) {
    return this.client.send(
      new UpdateItemCommand({
        TableName: this.tableName,
        Key: key(pk),
        UpdateExpression: expression,
        ConditionExpression: condition,
        ExpressionAttributeNames: namesIn(expression, condition),
        ExpressionAttributeValues: values,
        ReturnValues: returnValues,
      }),
    );
  }

  /**
   * Sends `requests` in chunks of `size` (BATCH_CONCURRENCY chunks at a time);
   * `send` returns what DynamoDB left unprocessed, which is sent again after an
   * exponential backoff (DynamoDB's advice).
   */
  private async batch<T>(requests: T[], size: number, send: (chunk: T[]) => Promise<T[] | undefined>): Promise<void> {
    await forEachLimit(chunks(requests, size), BATCH_CONCURRENCY, async (chunk) => {
      let pending: T[] | undefined = chunk;
      for (let round = 0; pending && pending.length > 0; round++) {
        if (round >= MAX_UNPROCESSED_ROUNDS) throw new Error(`DynamoDB left ${this.tableName} items unprocessed after ${round} rounds`);
        if (round > 0) await sleep(Math.min(1000, 10 * 2 ** round) * Math.random());
        pending = await send(pending);
      }
    });
  }

  /** Consistent batch read of the distinct keys, by key; absent items are missing. */
  private async batchGet<V>(pks: readonly string[], value: (item: Item) => V): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    await this.batch([...new Set(pks)].map(key), 100, async (keys) => {
      const r = await this.client.send(new BatchGetItemCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } } }));
      for (const item of r.Responses?.[this.tableName] ?? []) out.set(item[PK].S as string, value(item));
      return r.UnprocessedKeys?.[this.tableName]?.Keys;
    });
    return out;
  }

  /** One write per distinct key: BatchWriteItem rejects a request that names a key twice. */
  private async batchWrite(pks: readonly string[], request: (pk: string) => WriteRequest): Promise<void> {
    await this.batch([...new Set(pks)].map(request), 25, async (pending) => {
      const r = await this.client.send(new BatchWriteItemCommand({ RequestItems: { [this.tableName]: pending } }));
      return r.UnprocessedItems?.[this.tableName];
    });
  }

  async getCheckpoint(pk: string): Promise<Checkpoint | undefined> {
    const r = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: key(pk), ConsistentRead: true }));
    return toCheckpoint(r.Item);
  }

  async putCheckpoint(pk: string, json: string, catchIndex: number | undefined, ttl: number): Promise<Checkpoint | undefined> {
    const item: Item = { ...newItem(pk, ttl), v: str(json) };
    if (catchIndex !== undefined) item.c = num(catchIndex);
    return conditional(
      this.put(item, ABSENT, 'ALL_OLD').then(() => undefined),
      // ALL_OLD returns the winner's item in the same round trip; re-read only if an emulator omits it.
      (e) => toCheckpoint(e.Item) ?? this.getCheckpoint(pk),
    );
  }

  getCheckpoints(pks: readonly string[]): Promise<Map<string, Checkpoint>> {
    return this.batchGet(pks, toCheckpoint as (item: Item) => Checkpoint);
  }

  tombstone(pks: readonly string[], ttl: number): Promise<void> {
    return this.batchWrite(pks, (pk) => ({ PutRequest: { Item: { ...newItem(pk, ttl), t: num(1) } } }));
  }

  async extendTtl(pk: string, ttl: number): Promise<void> {
    await this.update(pk, 'SET #ttl = :t', { ':t': num(ttl) }, PRESENT);
  }

  async createShard(pk: string, expected: number, ttl: number): Promise<void> {
    // UpdateItem, not a put: an origin that runs again must not wipe arrivals already recorded.
    await this.update(pk, 'SET n = :n, #ttl = :t', { ':n': num(expected), ':t': num(ttl) });
  }

  async addToShard(pk: string, element: number): Promise<{ count: number; expected: number } | undefined> {
    return conditional(
      this.update(pk, 'ADD a :x', { ':x': { NS: [String(element)] } }, PRESENT, 'ALL_NEW').then((r) => ({
        count: r.Attributes?.a?.NS?.length ?? 0,
        expected: Number(r.Attributes?.n?.N),
      })),
      () => undefined,
    );
  }

  getShards(pks: readonly string[]): Promise<Map<string, readonly number[]>> {
    return this.batchGet(pks, (item) => (item.a?.NS ?? []).map(Number));
  }

  deleteItems(pks: readonly string[]): Promise<void> {
    return this.batchWrite(pks, (pk) => ({ DeleteRequest: { Key: key(pk) } }));
  }

  async startRun(workflowId: string, startedAt: string, ttl: number): Promise<boolean> {
    const item = { ...newItem(runKey(workflowId), ttl), status: str('RUNNING'), startedAt: str(startedAt) };
    return wrote(this.put(item, ABSENT));
  }

  async finishRun(workflowId: string, outcome: RunOutcome, finishedAt: string, ttl?: number): Promise<boolean> {
    const sets: string[] = [];
    const values: Item = { ':running': str('RUNNING') };
    const set = (name: string, value: AttributeValue): void => {
      const placeholder = `:v${sets.length}`;
      sets.push(`${name} = ${placeholder}`);
      values[placeholder] = value;
    };
    set('#s', str(outcome.status));
    set('finishedAt', str(finishedAt));
    if (ttl !== undefined) set('#ttl', num(ttl));
    if (outcome.status === 'FAILED') {
      const { node, error, cause } = outcome.error;
      set('#e', { M: { node: str(node), error: str(error), cause: str(cause) } });
    } else if (outcome.result !== undefined) set('#r', str(outcome.result));
    else if (outcome.resultRef !== undefined) set('resultRef', str(outcome.resultRef));
    // A run whose record is missing (entry write lost to TTL or never made) may still finish once.
    return wrote(this.update(runKey(workflowId), `SET ${sets.join(', ')}`, values, `${ABSENT} OR #s = :running`));
  }

  async nextHistorySeq(workflowId: string, ttl: number): Promise<number> {
    const r = await this.update(historyKey(workflowId), 'ADD n :n SET #ttl = if_not_exists(#ttl, :t)', { ':n': num(1), ':t': num(ttl) }, undefined, 'UPDATED_NEW');
    return Number(r.Attributes?.n?.N);
  }

  async putHistoryEntry(workflowId: string, seq: number, entry: HistoryItem, ttl: number): Promise<void> {
    const item = newItem(historyKey(workflowId, seq), ttl);
    for (const [k, v] of Object.entries(entry)) if (v !== undefined) item[k] = typeof v === 'number' ? num(v) : str(v);
    await this.put(item);
  }
}
