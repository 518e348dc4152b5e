/**
 * `DeploymentRecords` on the workflow table (low-level client, default config
 * so that AWS_ENDPOINT_URL_DYNAMODB works): the deployment records through
 * runtime/contract/table/deployments.ts, the runs through the runs index.
 */
import { randomBytes } from 'node:crypto';
import { BatchGetItemCommand, type BatchGetItemCommandOutput, DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { conditional } from '../aws/dynamodb-store';
import { chunks, sleep } from '../ports/pool';
import {
  type DeploymentFunction,
  type DeploymentRecord,
  type Item,
  type Parked,
  type UpdateRequest,
  decodeDeploymentList,
  decodeDeploymentRecord,
  decodeParked,
  decodeRedriveState,
  decodeRunRecord,
  deploymentKey,
  deploymentListed,
  deploymentPut,
  deploymentReactivation,
  deploymentRemoved,
  deploymentRemoving,
  deploymentSuperseded,
  deploymentsUnlisted,
  ENVELOPE_KEY_BYTES,
  envelopeKeyPut,
  keyItem,
  keyOf,
  parkKey,
  parseKey,
  runsQuery,
} from '../contract/table';
import type { DeploymentRecords, RunView } from './records';

/** Rounds of a batch read's unprocessed keys before it gives up: a sweep must not judge by a partial read. */
const MAX_UNPROCESSED_ROUNDS = 12;

export class DynamoDbDeploymentRecords implements DeploymentRecords {
  private readonly client: DynamoDBClient;

  constructor(
    private readonly tableName: string,
    private readonly workflow: string,
    client?: DynamoDBClient,
  ) {
    this.client = client ?? new DynamoDBClient({});
  }

  async list(): Promise<DeploymentRecord[]> {
    const list = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: keyItem(deploymentKey(this.workflow)), ConsistentRead: true }));
    const ids = decodeDeploymentList(list.Item);
    const items = await this.getMany(ids.map((id) => deploymentKey(this.workflow, id)));
    const expired = ids.filter((id) => !items.has(deploymentKey(this.workflow, id)));
    if (expired.length > 0) await this.update(deploymentsUnlisted(this.workflow, expired));
    return [...items.values()].map(decodeDeploymentRecord).sort((a, b) => a.activatedAt.localeCompare(b.activatedAt) || a.deployment.localeCompare(b.deployment));
  }

  createEnvelopeKey(): Promise<boolean> {
    const write = this.client.send(new PutItemCommand({ TableName: this.tableName, ...envelopeKeyPut(this.workflow, randomBytes(ENVELOPE_KEY_BYTES)) }));
    return conditional(write.then(() => true), () => false);
  }

  async get(deployment: string): Promise<DeploymentRecord | undefined> {
    const { Item } = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: keyItem(deploymentKey(this.workflow, deployment)), ConsistentRead: true }));
    return Item === undefined ? undefined : decodeDeploymentRecord(Item);
  }

  async put(record: DeploymentRecord): Promise<DeploymentRecord | undefined> {
    // Listed first: a record that exists is always listed, so a crash between the two writes loses nothing.
    await this.update(deploymentListed(this.workflow, record.deployment));
    const write = this.client.send(new PutItemCommand({ TableName: this.tableName, ...deploymentPut(this.workflow, record), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
    return conditional(write.then(() => undefined), (e) => (e.Item ? decodeDeploymentRecord(e.Item) : undefined));
  }

  reactivate(deployment: string, at: string, functions: readonly DeploymentFunction[], replaced: readonly DeploymentFunction[]): Promise<boolean> {
    return this.wrote(deploymentReactivation(this.workflow, deployment, at, functions, replaced));
  }

  supersede(deployment: string, at: string): Promise<boolean> {
    return this.wrote(deploymentSuperseded(this.workflow, deployment, at));
  }

  markRemoving(deployment: string, at: string): Promise<boolean> {
    return this.wrote(deploymentRemoving(this.workflow, deployment, at));
  }

  markRemoved(deployment: string, at: string, ttl: number): Promise<boolean> {
    return this.wrote(deploymentRemoved(this.workflow, deployment, at, ttl));
  }

  async *runsStarted(after: string, before: string): AsyncIterable<readonly RunView[]> {
    let start: Item | undefined;
    do {
      const page = await this.client.send(new QueryCommand({ TableName: this.tableName, ...runsQuery(this.workflow, { startedAfter: after, startedBefore: before }), ExclusiveStartKey: start }));
      const keys = (page.Items ?? []).map((item) => keyOf(item) as string);
      const records = await this.getMany(keys);
      const runs: RunView[] = [];
      for (const [key, item] of records) {
        const ref = parseKey(key);
        if (ref?.kind === 'run') runs.push({ workflowId: ref.workflowId, record: decodeRunRecord(item), redrive: decodeRedriveState(item) });
      }
      yield runs;
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
  }

  async parked(workflowId: string, names: readonly string[]): Promise<(Parked | undefined)[]> {
    const run = { workflow: this.workflow, workflowId };
    const items = await this.getMany(names.map((name) => parkKey(run, name)));
    return names.map((name) => decodeParked(items.get(parkKey(run, name))));
  }

  private update(request: UpdateRequest) {
    return this.client.send(new UpdateItemCommand({ TableName: this.tableName, ...request }));
  }

  private wrote(request: UpdateRequest): Promise<boolean> {
    return conditional(this.update(request).then(() => true), () => false);
  }

  /** Consistent batch read of the distinct `keys`, by key (absent items missing); throws rather than return a partial read. */
  private async getMany(keys: readonly string[]): Promise<Map<string, Item>> {
    const out = new Map<string, Item>();
    for (const chunk of chunks([...new Set(keys)].map(keyItem), 100)) {
      let pending: Item[] | undefined = chunk;
      for (let round = 0; pending !== undefined && pending.length > 0; round++) {
        if (round >= MAX_UNPROCESSED_ROUNDS) throw new Error(`DynamoDB left ${this.tableName} items unprocessed after ${round} rounds`);
        if (round > 0) await sleep(Math.min(1000, 10 * 2 ** round) * Math.random());
        const r: BatchGetItemCommandOutput = await this.client.send(new BatchGetItemCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }));
        for (const item of r.Responses?.[this.tableName] ?? []) out.set(keyOf(item) as string, item);
        pending = r.UnprocessedKeys?.[this.tableName]?.Keys;
      }
    }
    return out;
  }
}
