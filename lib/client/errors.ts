import { UnumError } from '../../runtime/errors';
import { causeSummary } from './cause';
import type { RunError, RunState } from './types';

/** Base class of every error the client throws on purpose (not SDK or network errors). */
export class UnumClientError extends UnumError {}

/** The run ended FAILED: `result()` and `startAndWait()` throw this with the recorded error (`runError.cause` in full). */
export class UnumRunFailedError extends UnumClientError {
  constructor(readonly workflowId: string, readonly runError: RunError | undefined) {
    super(
      runError
        ? `run ${workflowId} failed at node ${runError.node}: ${runError.error}${runError.cause ? ` (${causeSummary(runError.cause)})` : ''}`
        : `run ${workflowId} failed (no error recorded)`,
    );
  }
}

/** `result()` on a run that is still RUNNING or has no run record. */
export class UnumRunNotFinishedError extends UnumClientError {
  constructor(readonly workflowId: string, readonly status: Extract<RunState, 'RUNNING' | 'NOT_FOUND'>) {
    super(
      status === 'RUNNING'
        ? `run ${workflowId} has not finished yet (RUNNING)`
        // An Event invoke is queued by Lambda, so a just-started run has no record for a moment.
        : `run ${workflowId} not found: not started yet, still queued, or its record expired`,
    );
  }
}

/** A task token that no callback Task waits for (never issued, forged, malformed, or expired): nothing was written. */
export class UnumTaskTokenError extends UnumClientError {}

/** The task of this token was completed already (by another completion or its timeout): this response changed nothing. */
export class UnumTaskAlreadyCompletedError extends UnumClientError {}

/** `wait()` gave up before the run finished. */
export class UnumWaitTimeoutError extends UnumClientError {
  constructor(readonly workflowId: string, readonly timeoutMs: number, readonly lastStatus: RunState) {
    super(`run ${workflowId} did not finish within ${timeoutMs} ms (last status ${lastStatus})`);
  }
}
