/** A run's status as the client, the local engine and the fault tooling read it from its run record (layout: runtime/contract/table/). */
import type { Json } from '../../runtime/contract/ir';
import { decodeCheckpoint, decodeRunRecord, type Item, type RunError, runKey, type RunRecord, type RunRecordStatus, type RunRef } from '../../runtime/contract/table';
import { UnumClientError } from './errors';
import type { TableReader } from './table-reader';

/** State of a run as the client reports it; NOT_FOUND means there is no run record (yet, or any more). */
export type RunState = RunRecordStatus | 'NOT_FOUND';

/** The run has its final status: SUCCEEDED, FAILED, ABORTED (stopped) or TIMED_OUT. */
export const isFinished = (state: RunState): boolean => state !== 'RUNNING' && state !== 'NOT_FOUND';

/** The run record, without the result value. */
export interface RunStatus {
  readonly workflowId: string;
  readonly status: RunState;
  /** ISO-8601 time the entry function wrote the run record. */
  readonly startedAt?: string;
  /** ISO-8601 time the run reached its final status. */
  readonly finishedAt?: string;
  /**
   * The deployment the run runs on (`DEPLOYMENT_ID_PATTERN`): every function
   * it invokes is that deployment's alias. Absent for a run started by an
   * unum-cdk before deployments, or not started yet.
   */
  readonly deployment?: string;
  readonly error?: RunError;
  /** How many times the run was redriven (`redrive`), when it was. */
  readonly redriveCount?: number;
  /** ISO-8601 time of the run's last redrive. */
  readonly redrivenAt?: string;
}

/** A run's status and, once it SUCCEEDED, its result. */
export interface RunStatusWithResult extends RunStatus {
  readonly result?: Json;
}

function runStatus(workflowId: string, record: RunRecord | undefined): RunStatus {
  if (!record) return { workflowId, status: 'NOT_FOUND' };
  const { status, startedAt, finishedAt, deployment, error, redriveCount, redrivenAt } = record;
  return {
    workflowId,
    status,
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(finishedAt !== undefined ? { finishedAt } : {}),
    ...(deployment !== undefined ? { deployment } : {}),
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
