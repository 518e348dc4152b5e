/**
 * DynamoDB Local for the client tests, and writers that put items the way the
 * runtime does (docs/architecture.md, "Table"; docs/deploying-and-operating.md, "Run history: the item format", for history).
 */
import { AttributeValue, DeleteItemCommand, DynamoDBClient, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'crypto';
import { createWorkflowTable } from '../../../lib/local/create-tables';
import { testDynamoDb } from '../../support/test-dynamodb';

export interface LocalDynamo {
  readonly endpoint: string;
  readonly client: DynamoDBClient;
  stop(): Promise<void>;
}

export async function startDynamo(): Promise<LocalDynamo> {
  const local = await testDynamoDb();
  const client = new DynamoDBClient({ endpoint: local.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  return {
    endpoint: local.endpoint,
    client,
    stop: async () => {
      client.destroy();
      await local.release();
    },
  };
}

/** A fresh table per test, created as the construct deploys it (named at random: files share DynamoDB Local). */
export async function createTable(client: DynamoDBClient): Promise<string> {
  const name = `unum-client-test-${randomUUID()}`;
  await createWorkflowTable(client, name);
  return name;
}

type Attrs = Record<string, AttributeValue>;
const ttl = { N: String(Math.floor(Date.now() / 1000) + 3600) };

/** The workflow the client tests' runs belong to: run and history keys carry it. */
export const WORKFLOW = 'wf';

/** Writes items as the runtime does, into one table, for runs of `workflow`. */
export class RuntimeWriter {
  constructor(private readonly client: DynamoDBClient, private readonly table: string, private readonly workflow = WORKFLOW) {}

  put(item: Attrs, condition?: string): Promise<unknown> {
    return this.client.send(new PutItemCommand({ TableName: this.table, Item: { ttl, ...item }, ...(condition ? { ConditionExpression: condition } : {}) }));
  }

  /** The entry's RUNNING record (conditional: the first start wins). */
  async startRun(workflowId: string, startedAt = new Date().toISOString()): Promise<void> {
    await this.put({ pk: { S: `run#${this.workflow}#${workflowId}` }, status: { S: 'RUNNING' }, startedAt: { S: startedAt } }, 'attribute_not_exists(pk)');
  }

  /** The terminal node's write; `result` inline, or by reference to a checkpoint holding it. */
  async succeed(workflowId: string, value: unknown, byRef?: string): Promise<void> {
    if (byRef) await this.checkpoint(byRef, value);
    await this.finish(workflowId, 'SUCCEEDED', byRef ? { resultRef: { S: `ckpt#${byRef}` } } : { result: { S: JSON.stringify(value) } });
  }

  async fail(workflowId: string, error: { node: string; state?: string; error: string; cause?: string }): Promise<void> {
    const m: Attrs = { node: { S: error.node }, error: { S: error.error } };
    if (error.state) m.state = { S: error.state };
    if (error.cause) m.cause = { S: error.cause };
    await this.finish(workflowId, 'FAILED', { error: { M: m } });
  }

  private async finish(workflowId: string, status: string, extra: Attrs): Promise<void> {
    const values: Attrs = { ':s': { S: status }, ':f': { S: new Date().toISOString() }, ':r': { S: 'RUNNING' } };
    const names: Record<string, string> = { '#s': 'status' };
    const sets = ['#s = :s', 'finishedAt = :f'];
    for (const [k, v] of Object.entries(extra)) { values[`:${k}`] = v; names[`#${k}`] = k; sets.push(`#${k} = :${k}`); }
    await this.client.send(new UpdateItemCommand({
      TableName: this.table,
      Key: { pk: { S: `run#${this.workflow}#${workflowId}` } },
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: '#s = :r',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }));
  }

  checkpoint(name: string, value: unknown): Promise<unknown> {
    return this.put({ pk: { S: `ckpt#${name}` }, v: { S: JSON.stringify(value) } });
  }

  /** A checkpoint gone, as DynamoDB's TTL removes it. */
  expire(name: string): Promise<unknown> {
    return this.client.send(new DeleteItemCommand({ TableName: this.table, Key: { pk: { S: `ckpt#${name}` } } }));
  }

  /** A fan-in shard with `arrived` branch numbers of `expected`. */
  shard(join: string, level: number, shard: number, expected: number, arrived: readonly number[]): Promise<unknown> {
    const item: Attrs = { pk: { S: `fanin#${join}#${level}#${shard}` }, n: { N: String(expected) } };
    // DynamoDB has no empty sets: a shard with no arrivals has no `a`.
    if (arrived.length > 0) item.a = { NS: arrived.map(String) };
    return this.put(item);
  }

  /** Appends a history entry as docs/deploying-and-operating.md specifies: counter, then the entry. */
  async history(workflowId: string, entry: Attrs): Promise<number> {
    const out = await this.client.send(new UpdateItemCommand({
      TableName: this.table,
      Key: { pk: { S: `hist#${this.workflow}#${workflowId}` } },
      UpdateExpression: 'ADD n :one SET #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': { N: '1' }, ':ttl': ttl },
      ReturnValues: 'UPDATED_NEW',
    }));
    const seq = Number(out.Attributes!.n.N);
    await this.put({ pk: { S: `hist#${this.workflow}#${workflowId}#${seq}` }, ...entry });
    return seq;
  }
}

/**
 * The environment that points default SDK clients (the CLI builds its own) at
 * DynamoDB Local and the Lambda stub. The access key is the support client's:
 * DynamoDB Local keeps tables per access key.
 */
export const emulatorEnvironment = (dynamoEndpoint: string, lambdaEndpoint: string): Record<string, string> => ({
  AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
  AWS_ENDPOINT_URL_LAMBDA: lambdaEndpoint,
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_REGION: 'us-east-1',
});
