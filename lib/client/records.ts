/** The client's reading of run records; the layout they follow is runtime/contract/table/. */
import type { Json } from '../../runtime/contract/ir';
import { decodeCheckpoint, decodeRunRecord, type Item, runKey, type RunRecord, type RunRef } from '../../runtime/contract/table';
import { UnumClientError } from './errors';
import type { TableReader } from './table-reads';
import type { RunStatus } from './types';

/** A run's status and, once it SUCCEEDED, its result. */
export interface RunStatusWithResult extends RunStatus {
  readonly result?: Json;
}

function runStatus(workflowId: string, record: RunRecord | undefined): RunStatus {
  if (!record) return { workflowId, status: 'NOT_FOUND' };
  const { status, startedAt, finishedAt, error, redriveCount, redrivenAt } = record;
  return {
    workflowId,
    status,
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(finishedAt !== undefined ? { finishedAt } : {}),
    ...(error ? { error } : {}),
    ...(redriveCount !== undefined ? { redriveCount } : {}),
    ...(redrivenAt !== undefined ? { redrivenAt } : {}),
  };
}

/** The client's view of a run record item (or of its absence). */
export function parseRunRecord(workflowId: string, item: Item | undefined): RunStatus {
  return runStatus(workflowId, item && decodeRunRecord(item));
}

/** A SUCCEEDED run's result: inline in its record, or in the checkpoint the record references. */
async function resultOf(table: TableReader, workflowId: string, record: RunRecord): Promise<Json> {
  if (record.result !== undefined) return JSON.parse(record.result) as Json;
  const ref = record.resultRef;
  if (ref === undefined) throw new UnumClientError(`run ${workflowId} SUCCEEDED but its record has neither result nor resultRef`);
  const item = await table.get(ref);
  const checkpoint = decodeCheckpoint(item);
  if (!checkpoint) throw new UnumClientError(`run ${workflowId}: result checkpoint ${ref} is gone (expired or deleted)`);
  return JSON.parse(checkpoint.json) as Json;
}

/** Reads the run record and, for a SUCCEEDED run, its result. */
export async function readRun(table: TableReader, run: RunRef): Promise<RunStatusWithResult> {
  const { workflowId } = run;
  const item = await table.get(runKey(run));
  const record = item && decodeRunRecord(item);
  const status = runStatus(workflowId, record);
  return record?.status === 'SUCCEEDED' ? { ...status, result: await resultOf(table, workflowId, record) } : status;
}
