/**
 * `UnumClient.stop`: a stop request is one conditional write of the run
 * record (RUNNING -> ABORTED); the run's executions read the record in every
 * step and stop at their next transition (docs/architecture.md
 * "Stop and run timeout"). There is nothing else to tell: no orchestrator.
 */
import { type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { runInterruption, runKey, type RunRef } from '../../runtime/contract/table';
import { UnumClientError } from './errors';
import { conditionFailed } from './conditional-write';
import { parseRunRecord } from '../runs/run-status';
import type { TableReader } from '../runs/table-reader';
import type { StopOptions, StopResult } from './types';

export async function stopRun(db: DynamoDBClient, table: TableReader, run: RunRef, options: StopOptions): Promise<StopResult> {
  const error = { node: '', error: options.error ?? '', cause: options.cause ?? '' };
  const request = runInterruption(run, { status: 'ABORTED', error }, new Date().toISOString());
  let stopped = true;
  try {
    await db.send(new UpdateItemCommand({ TableName: table.tableName, ...request }));
  } catch (e) {
    // Not RUNNING: it finished (or was stopped) already, or there is no such run; the read below tells which.
    if (!conditionFailed(e)) throw e;
    stopped = false;
  }
  const status = parseRunRecord(run.workflowId, await table.get(runKey(run)));
  if (status.status === 'NOT_FOUND') throw new UnumClientError(`run ${run.workflowId} of ${run.workflow} not found: not started yet, or its record expired; nothing was stopped`);
  return { ...status, stopped };
}
