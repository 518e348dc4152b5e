import { UnumClientError } from './errors';
import { sleep } from './sleep';
import { isFinished, type RunState, type RunStatus } from './run-status';

/** Options of `UnumClient.wait`. */
export interface WaitOptions {
  /**
   * Give up (with `UnumWaitTimeoutError`) after this long.
   * @default 600000 (10 minutes)
   */
  readonly timeoutMs?: number;
  /** Aborts the wait: it rejects with the signal's reason. @default none */
  readonly signal?: AbortSignal;
  /**
   * First delay between polls; it grows by half each poll up to `maxPollIntervalMs`.
   * @default 200
   */
  readonly pollIntervalMs?: number;
  /** Longest delay between polls. @default 5000 */
  readonly maxPollIntervalMs?: number;
  /** Called after every poll with the status read and the time waited so far. @default none */
  readonly onProgress?: (status: RunStatus, elapsedMs: number) => void;
}

/** `wait()` gave up before the run finished. */
export class UnumWaitTimeoutError extends UnumClientError {
  constructor(readonly workflowId: string, readonly timeoutMs: number, readonly lastStatus: RunState) {
    super(`run ${workflowId} did not finish within ${timeoutMs} ms (last status ${lastStatus})`);
  }
}

/** `WaitOptions` for a poll whose reads return `T`. */
export interface PollOptions<T extends RunStatus> extends Omit<WaitOptions, 'onProgress'> {
  readonly onProgress?: (status: T, elapsedMs: number) => void;
}

/**
 * Reads the run with `read` until it has its final status and returns that
 * read, the delay between reads growing by half up to the maximum
 * (`UnumClient.wait`, and the local engine's wait with its shorter delays).
 */
export async function pollUntilFinished<T extends RunStatus>(workflowId: string, read: () => Promise<T>, options: PollOptions<T> = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const maxInterval = options.maxPollIntervalMs ?? 5_000;
  let interval = options.pollIntervalMs ?? 200;
  const began = Date.now();
  for (;;) {
    options.signal?.throwIfAborted();
    const status = await read();
    const elapsed = Date.now() - began;
    options.onProgress?.(status, elapsed);
    if (isFinished(status.status)) return status;
    const remaining = timeoutMs - elapsed;
    if (remaining <= 0) throw new UnumWaitTimeoutError(workflowId, timeoutMs, status.status);
    await sleep(Math.min(interval, remaining), options.signal);
    interval = Math.min(interval * 1.5, maxInterval);
  }
}
