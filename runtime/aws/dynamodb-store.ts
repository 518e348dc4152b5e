/**
 * CheckpointStore on DynamoDB (low-level client, default config so that
 * AWS_ENDPOINT_URL_DYNAMODB works). Reads are consistent unless the caller says
 * a stale answer is safe; batches are chunked (100 keys per BatchGetItem) and
 * unprocessed parts retried.
 *
 * Every request goes through the few private helpers below (put, update,
 * batch): this file is the largest part of the bundle shipped to each
 * function, so the command plumbing is written once.
 */
import {
  BatchGetItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  type ReturnValue,
  type ReturnValuesOnConditionCheckFailure,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { chunks, forEachLimit, sleep } from '../ports/pool';
import type { CheckpointStore, DynamoDbTarget, ReadOptions, ReadSet, ShardRenewal } from '../ports/store';
import {
  type Checkpoint,
  checkpointPut,
  decodeCheckpoint,
  decodeHistoryCount,
  decodeParked,
  decodeRedriveState,
  decodeRunRecord,
  decodeShard,
  decodeStateFailure,
  historyCount,
  historyEntryPut,
  type HistoryItem,
  type Item,
  keyItem,
  keyOf,
  type PutRequest,
  type Parked,
  parkedUpdate,
  parkKey,
  type RenewalClaim,
  type RunEnd,
  type WrittenRunError,
  runDeadline,
  runEnded,
  runRedrivable,
  runFinish,
  type RunInterruption,
  runInterruption,
  runKey,
  runPark,
  runRejection,
  type RunRef,
  runStart,
  runStartedAt,
  runStatusOf,
  timedOutInstead,
  shardArrival,
  shardRenewal,
  type StateFailure,
  stateFailureKey,
  stateFailurePut,
  stateRetries,
  ttlOf,
  ttlExtension,
  type UpdateRequest,
} from '../contract/table';

/** Parallel batch calls per operation. */
const BATCH_CONCURRENCY = 8;
const MAX_UNPROCESSED_ROUNDS = 12;

/**
 * Awaits a conditional write; a failed condition becomes `onFailed(e)`.
 * Matched by name, not instanceof: robust to more than one copy of the SDK in a process.
 */
export async function conditional<T, F>(write: Promise<T>, onFailed: (e: Error & { Item?: Item }) => F | Promise<F>): Promise<T | F> {
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

  /** Batch read of the distinct keys, by key; absent items are missing. */
  private async batchGet<V>(keys: readonly string[], value: (item: Item) => V, consistent = true): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    await this.batch([...new Set(keys)].map(keyItem), 100, async (chunk) => {
      const r = await this.client.send(new BatchGetItemCommand({ RequestItems: { [this.tableName]: { Keys: chunk, ConsistentRead: consistent } } }));
      for (const item of r.Responses?.[this.tableName] ?? []) out.set(keyOf(item) as string, value(item));
      return r.UnprocessedKeys?.[this.tableName]?.Keys;
    });
    return out;
  }

  private async getItem(key: string, consistent: boolean): Promise<Item | undefined> {
    return (await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: keyItem(key), ConsistentRead: consistent }))).Item;
  }

  async getCheckpoint(key: string): Promise<Checkpoint | undefined> {
    return decodeCheckpoint(await this.getItem(key, true));
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

  async read(checkpoints: readonly string[], shards: readonly string[], { consistent, stateAttempts = [], run }: ReadOptions): Promise<ReadSet> {
    const failureKeys = stateAttempts.map(stateFailureKey);
    const runRecord = run && runKey(run);
    const keys = [...checkpoints, ...shards, ...failureKeys, ...(runRecord ? [runRecord] : [])];
    // One key (the run record, read beside a commit): a GetItem.
    const single = keys.length === 1 ? await this.getItem(keys[0], consistent) : undefined;
    const items = keys.length === 1 ? new Map(single ? [[keys[0], single]] : []) : await this.batchGet(keys, (item) => item, consistent);
    const found = <V>(list: readonly string[], decode: (item: Item) => V | undefined): Map<string, V> => {
      const out = new Map<string, V>();
      for (const k of list) {
        const item = items.get(k);
        const v = item && decode(item);
        if (v !== undefined) out.set(k, v);
      }
      return out;
    };
    const failures = found(failureKeys, decodeStateFailure);
    return {
      checkpoints: found(checkpoints, decodeCheckpoint),
      shards: found(shards, (item) => decodeShard(item).arrivals),
      stateFailures: new Map(stateAttempts.flatMap((join) => {
        const f = failures.get(stateFailureKey(join));
        return f ? [[join, f] as const] : [];
      })),
      runEnded: runRecord !== undefined && runEnded(items.get(runRecord)),
      runRedrivable: runRecord !== undefined && runRedrivable(items.get(runRecord)),
      ...(runRecord === undefined ? {} : { runDeadline: runDeadline(items.get(runRecord)) }),
    };
  }

  async extendTtl(key: string, ttl: number): Promise<void> {
    await wrote(this.update(ttlExtension(key, ttl)));
  }

  async addToShard(key: string, element: number, expected: number, ttl: number): Promise<{ count: number; expected: number; ttl?: number }> {
    const shard = decodeShard((await this.update(shardArrival(key, element, expected, ttl), 'ALL_NEW')).Attributes ?? {});
    return { count: shard.arrivals.length, expected: shard.expected, ttl: shard.ttl };
  }

  async renewShard(key: string, ttl: number, claim?: RenewalClaim): Promise<ShardRenewal> {
    return conditional(
      this.update(shardRenewal(key, ttl, claim), 'ALL_NEW', 'ALL_OLD').then((r) => ({ renewed: true as const, arrivals: decodeShard(r.Attributes ?? {}).arrivals })),
      (e) => ({ renewed: false as const, ttl: e.Item && ttlOf(e.Item) }),
    );
  }

  async failState(join: string, failure: { error: string; cause: string; by: string }, ttl: number): Promise<StateFailure> {
    const request = stateFailurePut(join, failure, ttl);
    return conditional(
      this.put(request, 'ALL_OLD').then(() => decodeStateFailure(request.Item) as StateFailure),
      async (e) => decodeStateFailure(e.Item) ?? ((await this.getStateFailure(join)) as StateFailure),
    );
  }

  async getStateFailure(join: string): Promise<StateFailure | undefined> {
    return decodeStateFailure(await this.getItem(stateFailureKey(join), true));
  }

  async setStateRetries(join: string, retries: readonly number[]): Promise<void> {
    await this.update(stateRetries(join, retries));
  }

  async startRun(run: RunRef, startedAt: string, ttl: number, deadline?: number, deployment?: string): Promise<{ created: boolean; startedAt?: string }> {
    return conditional(
      this.put(runStart(run, startedAt, ttl, deadline, deployment), 'ALL_OLD').then(() => ({ created: true })),
      (e) => ({ created: false, startedAt: runStartedAt(e.Item) }),
    );
  }

  async finishRun(run: RunRef, end: RunEnd, finishedAt: string, ttl: number): Promise<boolean> {
    return conditional(this.update(runFinish(run, end, finishedAt, ttl), undefined, 'ALL_OLD').then(() => true), async (e) => {
      const instead = timedOutInstead(e.Item);
      if (instead) await this.interruptRun(run, instead, finishedAt);
      return false;
    });
  }

  async interruptRun(run: RunRef, end: RunInterruption, finishedAt: string): Promise<boolean> {
    return wrote(this.update(runInterruption(run, end, finishedAt)));
  }

  async putParked(run: RunRef, invocation: string, parked: Parked, ttl: number): Promise<void> {
    await this.update(parkedUpdate(run, invocation, parked, ttl));
  }

  async getResent(run: RunRef, invocation: string): Promise<{ readonly redrives: number; readonly resentBy: number; readonly deployment?: string }> {
    // The record first: a redrive marks the items it re-sends before it counts itself on the record.
    const record = await this.getItem(runKey(run), true);
    const parked = decodeParked(await this.getItem(parkKey(run, invocation), true));
    const deployment = record ? decodeRunRecord(record).deployment : undefined;
    return { redrives: record ? decodeRedriveState(record).redrives : 0, resentBy: parked?.resentBy ?? 0, ...(deployment === undefined ? {} : { deployment }) };
  }

  async parkInRun(run: RunRef, invocation: string): Promise<'parked' | 'running' | 'ended'> {
    return conditional(
      this.update(runPark(run, invocation), undefined, 'ALL_OLD').then(() => 'parked' as const),
      (e) => (e.Item && runStatusOf(e.Item) === 'RUNNING' ? 'running' : 'ended'),
    );
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
