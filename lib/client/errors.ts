import { causeSummary } from './cause';
import { UnumClientError } from '../runs/errors';
import type { RunError, RunState } from './types';

export { UnumClientError } from '../runs/errors';
export { UnumWaitTimeoutError } from '../runs/poll';

/** How each final status other than SUCCEEDED reads in an error message. */
const ENDED = { FAILED: 'failed', ABORTED: 'was stopped', TIMED_OUT: 'timed out' } as const;

/**
 * The run ended without a result: FAILED, ABORTED (stopped) or TIMED_OUT.
 * `result()` and `startAndWait()` throw this with the status and the recorded
 * error (`runError.cause` in full).
 */
export class UnumRunFailedError extends UnumClientError {
  constructor(readonly workflowId: string, readonly runError: RunError | undefined, readonly status: keyof typeof ENDED = 'FAILED') {
    const at = runError?.node ? ` at node ${runError.node}` : '';
    const what = runError && (runError.error || runError.cause) ? `: ${runError.error}${runError.cause ? ` (${causeSummary(runError.cause)})` : ''}` : '';
    super(runError || status !== 'FAILED' ? `run ${workflowId} ${ENDED[status]}${at}${what}` : `run ${workflowId} failed (no error recorded)`);
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
