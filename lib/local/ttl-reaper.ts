/**
 * Deletes expired items, as DynamoDB's TTL does in AWS: DynamoDB Local keeps
 * them forever. Every interval, scan each table for items whose TTL attribute
 * (epoch seconds) is in the past and delete them.
 */
import { BatchWriteItemCommand, ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type Item, TABLE } from '../../runtime/contract/table';

export interface ReapedTable {
  readonly tableName: string;
  readonly ttlAttribute?: string;
}

const BATCH = 25;

/** Deletes every item of the table whose TTL is before `nowSeconds`; returns how many. */
export async function reapExpired(client: DynamoDBClient, table: ReapedTable, nowSeconds = Math.floor(Date.now() / 1000)): Promise<number> {
  const ttl = table.ttlAttribute ?? TABLE.ttlAttribute;
  // Projected on the key: each item found is its own key.
  const keys: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await client.send(new ScanCommand({
      TableName: table.tableName,
      FilterExpression: '#ttl < :now',
      ProjectionExpression: '#pk',
      ExpressionAttributeNames: { '#ttl': ttl, '#pk': TABLE.partitionKey },
      ExpressionAttributeValues: { ':now': { N: String(nowSeconds) } },
      ...(start ? { ExclusiveStartKey: start } : {}),
    }));
    keys.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  for (let i = 0; i < keys.length; i += BATCH) {
    let requests = keys.slice(i, i + BATCH).map((Key) => ({ DeleteRequest: { Key } }));
    while (requests.length > 0) {
      const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table.tableName]: requests } }));
      requests = (out.UnprocessedItems?.[table.tableName] ?? []) as typeof requests;
    }
  }
  return keys.length;
}

/** Runs `reapExpired` over the tables every `intervalMs` until stopped. */
export class TtlReaper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  reaped = 0;

  constructor(private readonly client: DynamoDBClient, private readonly tables: readonly ReapedTable[], private readonly intervalMs: number) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep().then(() => undefined, () => undefined).finally(() => { this.running = undefined; });
    }, this.intervalMs);
    this.timer.unref();
  }

  async sweep(): Promise<number> {
    let n = 0;
    for (const t of this.tables) n += await reapExpired(this.client, t).catch(() => 0);
    this.reaped += n;
    return n;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
