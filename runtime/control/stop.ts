/**
 * Stop (`UnumClient.stop`, `unum stop`), run by the run-control function: one
 * conditional write of the run record (RUNNING -> ABORTED, with the error and
 * cause asked for); the run's executions read the record in every step and
 * stop at their next transition (docs/architecture.md "Stop and run
 * timeout"). There is nothing else to tell: no orchestrator. The write is
 * the only one a stop can make, whatever its request says.
 */
import type { StopRequest } from '../contract/run-control';
import { runInterruption, type RunRef } from '../contract/table';
import type { ControlTable } from './control-table';

/** Whether this request stopped the run: false when it was not RUNNING (it finished, was stopped, or does not exist). */
export async function stopRun(table: ControlTable, run: RunRef, request: StopRequest): Promise<boolean> {
  const error = { node: '', error: request.error ?? '', cause: request.cause ?? '' };
  return (await table.update(runInterruption(run, { status: 'ABORTED', error }, new Date().toISOString()))) !== undefined;
}
