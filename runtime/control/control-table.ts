/**
 * The reads and writes of the run-control function: consistent reads (a stop
 * or a redrive judges what the runtime has committed), and conditional
 * updates whose refusal means another party got there first, which the
 * caller then reads instead of failing. Every request is built by
 * runtime/contract/table.
 */
import { BatchGetItemCommand, DynamoDBClient, GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { chunks, sleep } from '../ports/pool';
import { type Item, keyItem, keyOf, type UpdateRequest } from '../contract/table';

/** BatchGetItem takes at most 100 keys. */
const BATCH_GET_LIMIT = 100;
/** Rounds of unprocessed keys (throttling) before a read gives up: a redrive must not judge by a partial read. */
const MAX_UNPROCESSED_ROUNDS = 8;

const conditionFailed = (e: unknown): boolean => (e as { name?: unknown } | undefined)?.name === 'ConditionalCheckFailedException';

export class ControlTable {
  constructor(readonly tableName: string, private readonly client: DynamoDBClient = new DynamoDBClient({})) {}

  async get(pk: string): Promise<Item | undefined> {
    return (await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: keyItem(pk), ConsistentRead: true }))).Item;
  }

  /** Items by key; absent keys are absent from the map. */
  async getMany(pks: readonly string[]): Promise<Map<string, Item>> {
    const found = new Map<string, Item>();
    for (const part of chunks([...pks], BATCH_GET_LIMIT)) {
      let keys = part.map(keyItem);
      for (let round = 0; keys.length > 0; round++) {
        if (round > MAX_UNPROCESSED_ROUNDS) throw new Error(`BatchGetItem on ${this.tableName}: keys still unprocessed after ${MAX_UNPROCESSED_ROUNDS} rounds`);
        if (round > 0) await sleep(50 * 2 ** round);
        const out = await this.client.send(new BatchGetItemCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } } }));
        for (const item of out.Responses?.[this.tableName] ?? []) {
          const pk = keyOf(item);
          if (pk !== undefined) found.set(pk, item);
        }
        keys = (out.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as typeof keys;
      }
    }
    return found;
  }

  /** The item as `request` left it; undefined where its condition failed. */
  async update(request: UpdateRequest): Promise<Item | undefined> {
    try {
      const out = await this.client.send(new UpdateItemCommand({ TableName: this.tableName, ...request, ReturnValues: 'ALL_NEW' }));
      return out.Attributes ?? {};
    } catch (e) {
      if (conditionFailed(e)) return undefined;
      throw e;
    }
  }
}
