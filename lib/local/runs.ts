/**
 * The minimal client the engine needs: read a run record (`run#<workflowId>`)
 * and wait until it is final. A result stored by reference (`resultRef`) is
 * read from its checkpoint's `v`. The full client is lib/client.
 */
import { GetItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Json } from '../../runtime/ir';

export interface RunRecord {
  readonly workflowId: string;
  readonly status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'NOT_FOUND';
  readonly result?: Json;
  readonly error?: { node?: string; error?: string; cause?: string };
  readonly startedAt?: string;
  readonly finishedAt?: string;
}

export async function readRun(client: DynamoDBClient, tableName: string, workflowId: string): Promise<RunRecord> {
  const out = await client.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: `run#${workflowId}` } }, ConsistentRead: true }));
  const item = out.Item;
  if (!item) return { workflowId, status: 'NOT_FOUND' };
  const status = item.status?.S as RunRecord['status'];
  let result: Json | undefined;
  if (item.result?.S !== undefined) result = JSON.parse(item.result.S) as Json;
  else if (item.resultRef?.S !== undefined) {
    const ref = await client.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: item.resultRef.S } }, ConsistentRead: true }));
    const v = ref.Item?.v?.S;
    if (v === undefined) throw new Error(`run ${workflowId}: result checkpoint ${item.resultRef.S} is gone`);
    result = JSON.parse(v) as Json;
  }
  const error = item.error?.S !== undefined ? JSON.parse(item.error.S) as RunRecord['error']
    : item.error?.M ? { node: item.error.M.node?.S, error: item.error.M.error?.S, cause: item.error.M.cause?.S } : undefined;
  const time = (name: string): string | undefined => item[name]?.S ?? (item[name]?.N !== undefined ? new Date(Number(item[name]?.N) * (Number(item[name]?.N) < 1e11 ? 1000 : 1)).toISOString() : undefined);
  const startedAt = time('startedAt');
  const finishedAt = time('finishedAt');
  return {
    workflowId,
    status,
    ...(result !== undefined ? { result } : {}),
    ...(error ? { error } : {}),
    ...(startedAt ? { startedAt } : {}),
    ...(finishedAt ? { finishedAt } : {}),
  };
}

/** Polls the run record until it is SUCCEEDED or FAILED. */
export async function waitForRun(
  client: DynamoDBClient,
  tableName: string,
  workflowId: string,
  options: { timeoutMs?: number; onPoll?: (r: RunRecord) => void } = {},
): Promise<RunRecord> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let delay = 20;
  for (;;) {
    const record = await readRun(client, tableName, workflowId);
    options.onPoll?.(record);
    if (record.status === 'SUCCEEDED' || record.status === 'FAILED') return record;
    if (Date.now() > deadline) throw new Error(`run ${workflowId} did not finish within ${options.timeoutMs ?? 60_000} ms (status ${record.status})`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 1.5, 250);
  }
}
