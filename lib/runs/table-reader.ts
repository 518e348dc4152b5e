import { BatchGetItemCommand, DynamoDBClient, GetItemCommand, QueryCommand, type QueryCommandInput, ScanCommand } from '@aws-sdk/client-dynamodb';
import { type Item, keyItem, keyOf } from '../../runtime/contract/table';

/** BatchGetItem accepts at most 100 keys per request. */
const BATCH_GET_LIMIT = 100;
/** Unprocessed keys (throttling) are retried this many times before giving up. */
const BATCH_GET_RETRIES = 8;

/** A read of only the named attributes (placeholders for all: some are reserved words). */
function projectionOf(attributes: readonly string[]): { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> } {
  const names = Object.fromEntries(attributes.map((a, i) => [`#a${i}`, a]));
  return { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names };
}

/**
 * Reads of one workflow table. Reads are strongly consistent unless told: the
 * client reports what the runtime has committed, and a run record just written
 * RUNNING or SUCCEEDED must not read as its previous state.
 */
export class TableReader {
  constructor(private readonly db: DynamoDBClient, readonly tableName: string) {}

  async get(pk: string): Promise<Item | undefined> {
    const out = await this.db.send(new GetItemCommand({
      TableName: this.tableName,
      Key: keyItem(pk),
      ConsistentRead: true,
    }));
    return out.Item;
  }

  /**
   * Items by key, as a map from key to item; absent keys are absent from the
   * map. `consistent: false` reads at half the read units, and may miss a
   * write made a moment ago; `attributes` returns only those (the read is
   * billed by the whole item either way).
   */
  async getMany(pks: readonly string[], options: { readonly consistent?: boolean; readonly attributes?: readonly string[] } = {}): Promise<Map<string, Item>> {
    const projection = options.attributes ? projectionOf(options.attributes) : {};
    const found = new Map<string, Item>();
    for (let i = 0; i < pks.length; i += BATCH_GET_LIMIT) {
      let keys = pks.slice(i, i + BATCH_GET_LIMIT).map(keyItem);
      for (let attempt = 0; keys.length > 0; attempt++) {
        if (attempt > BATCH_GET_RETRIES) throw new Error(`BatchGetItem on ${this.tableName}: keys still unprocessed after ${BATCH_GET_RETRIES} retries`);
        if (attempt > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
        const out = await this.db.send(new BatchGetItemCommand({
          RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: options.consistent ?? true, ...projection } },
        }));
        for (const item of out.Responses?.[this.tableName] ?? []) {
          const pk = keyOf(item);
          if (pk !== undefined) found.set(pk, item);
        }
        keys = (out.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as typeof keys;
      }
    }
    return found;
  }

  /** One page of a Query (of an index: those reads cannot be consistent). */
  async query(input: Omit<QueryCommandInput, 'TableName'>): Promise<{ items: Item[]; lastKey?: Item }> {
    const out = await this.db.send(new QueryCommand({ TableName: this.tableName, ...input }));
    return { items: out.Items ?? [], ...(out.LastEvaluatedKey ? { lastKey: out.LastEvaluatedKey } : {}) };
  }

  /** Every item of the table, with only the named attributes. */
  async *scan(attributes: readonly string[]): AsyncGenerator<Item> {
    let start: Item | undefined;
    do {
      const out = await this.db.send(new ScanCommand({
        TableName: this.tableName,
        ConsistentRead: true,
        ...projectionOf(attributes),
        ExclusiveStartKey: start,
      }));
      yield* out.Items ?? [];
      start = out.LastEvaluatedKey;
    } while (start);
  }
}
