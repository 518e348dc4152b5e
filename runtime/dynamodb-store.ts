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
import { chunks, forEachLimit, sleep } from './pool';
import type { CheckpointStore, DynamoDbTarget, ShardRenewal } from './store';
import {
  type Checkpoint,
  checkpointPut,
  decodeCheckpoint,
  decodeHistoryCount,
  decodeShard,
  decodeStateFailure,
  historyCount,
  historyEntryPut,
  type HistoryItem,
  type Item,
  keyItem,
  keyOf,
  type PutRequest,
  type RenewalClaim,
  type RunEnd,
  type WrittenRunError,
  runFinish,
  runRejection,
  type RunRef,
  runStart,
  runStartedAt,
  shardArrival,
  shardCreation,
  shardRenewal,
  type StateFailure,
  stateFailureKey,
  stateFailurePut,
  stateRetries,
  tombstoneItem,
  ttlOf,
  ttlExtension,
  type UpdateRequest,
} from './table';

/** Parallel batch calls per operation. */
const BATCH_CONCURRENCY = 8;
const MAX_UNPROCESSED_ROUNDS = 12;

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

export class DynamoDbStore implements CheckpointStore {
  private readonly client: DynamoDBClient;
  readonly dynamoDb: DynamoDbTarget;

  constructor(
    private readonly tableName: string,
    client?: DynamoDBClient,
  ) {
    this.client = client ?? new DynamoDBClient({});
    this.dynamoDb = { client: this.client, tableName };
  }

  private put(request: PutRequest, onConditionFailure?: ReturnValuesOnConditionCheckFailure) {
    return this.client.send(new PutItemCommand({ TableName: this.tableName, ...request, ReturnValuesOnConditionCheckFailure: onConditionFailure }));
  }

  private update(request: UpdateRequest, returnValues?: ReturnValue, onConditionFailure?: ReturnValuesOnConditionCheckFailure) {
    return this.client.send(new UpdateItemCommand({ TableName: this.tableName, ...request, ReturnValues: returnValues, ReturnValuesOnConditionCheckFailure: onConditionFailure }));
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
  private async batchGet<V>(keys: readonly string[], value: (item: Item) => V): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    await this.batch([...new Set(keys)].map(keyItem), 100, async (chunk) => {
      const r = await this.client.send(new BatchGetItemCommand({ RequestItems: { [this.tableName]: { Keys: chunk, ConsistentRead: true } } }));
      for (const item of r.Responses?.[this.tableName] ?? []) out.set(keyOf(item) as string, value(item));
      return r.UnprocessedKeys?.[this.tableName]?.Keys;
    });
    return out;
  }

  /** One write per distinct key: BatchWriteItem rejects a request that names a key twice. */
  private async batchWrite(keys: readonly string[], request: (key: string) => WriteRequest): Promise<void> {
    await this.batch([...new Set(keys)].map(request), 25, async (pending) => {
      const r = await this.client.send(new BatchWriteItemCommand({ RequestItems: { [this.tableName]: pending } }));
      return r.UnprocessedItems?.[this.tableName];
    });
  }

  async getCheckpoint(key: string): Promise<Checkpoint | undefined> {
    const r = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: keyItem(key), ConsistentRead: true }));
    return decodeCheckpoint(r.Item);
  }

  async putCheckpoint(key: string, json: string, catchIndex: number | undefined, ttl: number): Promise<Checkpoint | undefined> {
    return conditional(
      this.put(checkpointPut(key, json, catchIndex, ttl), 'ALL_OLD').then(() => undefined),
      // ALL_OLD returns the winner's item in the same round trip; re-read only if an emulator omits it.
      (e) => decodeCheckpoint(e.Item) ?? this.getCheckpoint(key),
    );
  }

  getCheckpoints(keys: readonly string[]): Promise<Map<string, Checkpoint>> {
    return this.batchGet(keys, decodeCheckpoint as (item: Item) => Checkpoint);
  }

  tombstone(keys: readonly string[], ttl: number): Promise<void> {
    return this.batchWrite(keys, (key) => ({ PutRequest: { Item: tombstoneItem(key, ttl) } }));
  }

  async extendTtl(key: string, ttl: number): Promise<void> {
    await wrote(this.update(ttlExtension(key, ttl)));
  }

  async createShard(key: string, expected: number, ttl: number): Promise<void> {
    await this.update(shardCreation(key, expected, ttl));
  }

  async addToShard(key: string, element: number): Promise<{ count: number; expected: number; ttl?: number } | undefined> {
    return conditional(
      this.update(shardArrival(key, element), 'ALL_NEW').then((r) => {
        const shard = decodeShard(r.Attributes ?? {});
        return { count: shard.arrivals.length, expected: shard.expected, ttl: shard.ttl };
      }),
      () => undefined,
    );
  }

  async renewShard(key: string, ttl: number, claim?: RenewalClaim): Promise<ShardRenewal> {
    return conditional(
      this.update(shardRenewal(key, ttl, claim), 'ALL_NEW', 'ALL_OLD').then((r) => ({ renewed: true as const, arrivals: decodeShard(r.Attributes ?? {}).arrivals })),
      (e) => ({ renewed: false as const, ttl: e.Item && ttlOf(e.Item) }),
    );
  }

  getShards(keys: readonly string[]): Promise<Map<string, readonly number[]>> {
    return this.batchGet(keys, (item) => decodeShard(item).arrivals);
  }

  deleteItems(keys: readonly string[]): Promise<void> {
    return this.batchWrite(keys, (key) => ({ DeleteRequest: { Key: keyItem(key) } }));
  }

  async getCheckpointInStates(key: string, joins: readonly string[]): Promise<{ own?: Checkpoint; failures: Map<string, StateFailure> }> {
    const found = await this.batchGet([key, ...joins.map(stateFailureKey)], (item) => item);
    const failures = new Map<string, StateFailure>();
    for (const join of joins) {
      const failure = decodeStateFailure(found.get(stateFailureKey(join)));
      if (failure) failures.set(join, failure);
    }
    return { own: decodeCheckpoint(found.get(key)), failures };
  }

  async failState(join: string, failure: { error: string; cause: string; by: string }, ttl: number): Promise<StateFailure> {
    const request = stateFailurePut(join, failure, ttl);
    return conditional(
      this.put(request, 'ALL_OLD').then(() => decodeStateFailure(request.Item) as StateFailure),
      async (e) => decodeStateFailure(e.Item) ?? ((await this.getStateFailure(join)) as StateFailure),
    );
  }

  async getStateFailure(join: string): Promise<StateFailure | undefined> {
    const r = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: keyItem(stateFailureKey(join)), ConsistentRead: true }));
    return decodeStateFailure(r.Item);
  }

  async setStateRetries(join: string, retries: readonly number[]): Promise<void> {
    await this.update(stateRetries(join, retries));
  }

  async startRun(run: RunRef, startedAt: string, ttl: number): Promise<{ created: boolean; startedAt?: string }> {
    return conditional(
      this.put(runStart(run, startedAt, ttl), 'ALL_OLD').then(() => ({ created: true })),
      (e) => ({ created: false, startedAt: runStartedAt(e.Item) }),
    );
  }

  async finishRun(run: RunRef, end: RunEnd, finishedAt: string, ttl: number): Promise<boolean> {
    return wrote(this.update(runFinish(run, end, finishedAt, ttl)));
  }

  async rejectRun(run: RunRef, error: WrittenRunError, at: string, ttl: number): Promise<boolean> {
    return wrote(this.put(runRejection(run, error, at, ttl)));
  }

  async nextHistorySeq(run: RunRef, ttl: number): Promise<number> {
    const r = await this.update(historyCount(run, ttl), 'UPDATED_NEW');
    return decodeHistoryCount(r.Attributes);
  }

  async putHistoryEntry(run: RunRef, seq: number, entry: HistoryItem, ttl: number): Promise<void> {
    await this.put(historyEntryPut(run, seq, entry, ttl));
  }
}
