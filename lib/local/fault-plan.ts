/**
 * The questions the emulator and the fault proxy ask a run's fault plan. A
 * plan answers from the execution's and call's identities only (never from
 * timing), so the same plan injects the same faults on a replay.
 */

/** One execution (attempt) of an invocation, as the emulator started it. */
export interface ExecutionInfo {
  readonly executionId: string;
  readonly functionName: string;
  /** The qualifier the invocation named (absent: `$LATEST`): the version it ran is the one this resolved to then. */
  readonly qualifier?: string;
  readonly requestId: string;
  /** 1-based attempt of this event (Lambda's async retries). */
  readonly attempt: number;
  /** Attempts Lambda allows this event: 1 + the function's retry attempts (1 for RequestResponse). */
  readonly maxAttempts: number;
  readonly identity: string;
  readonly workflowId?: string;
  readonly node?: string;
  /** A duplicate delivery or a re-run of an execution that succeeded. */
  readonly duplicate: boolean;
}

/** One I/O call an execution makes, as the proxy sees it. */
export interface CallInfo {
  readonly service: 'dynamodb' | 'lambda' | 'scheduler';
  /** `GetItem`, `PutItem`, ..., `Invoke`, `CreateSchedule`. */
  readonly operation: string;
  /** Operation plus what it touches: `PutItem(ckpt)`, `Invoke(<target identity>)`, `CreateSchedule(<target identity>)`; stable across runs. */
  readonly label: string;
  /** 0-based count of earlier calls of this execution with the same label. */
  readonly occurrence: number;
  /** 0-based position among all calls of this execution. */
  readonly index: number;
  /** A DynamoDB read that asks for no strong consistency (GetItem, BatchGetItem): a replica may answer it. */
  readonly eventuallyConsistent?: boolean;
}

/**
 * Crash before the call reaches its service, crash after it took effect,
 * hang until killed by the timeout, or (`stale`, an eventually consistent
 * read only) answer from a replica that has seen none of the items asked
 * for: DynamoDB Local is always consistent, and a missing item is the
 * oldest view a replica can give of any item.
 */
export type CallFault = 'none' | 'crash-before' | 'crash-after' | 'timeout' | 'stale' | ServiceFault;

/**
 * The service (or the network to it) fails one call and the execution goes
 * on, as the SDK sees it: DynamoDB refuses it with
 * `ProvisionedThroughputExceededException` (`throughput`) or
 * `ThrottlingException` (`throttling`), Lambda's Invoke with a 429
 * `TooManyRequestsException` (`throttling`), DynamoDB fails it with a 500
 * before it took effect (`error-before`) or after (`error-after`: the write
 * happened, the response is lost), or the connection is reset before the
 * call reaches DynamoDB (`unreachable`: an outage).
 */
export type ServiceFault = 'throughput' | 'throttling' | 'error-before' | 'error-after' | 'unreachable';

/** Faults that kill the execution (the others leave it to the SDK's retries). */
export const isKillingFault = (fault: CallFault): boolean => fault === 'crash-before' || fault === 'crash-after' || fault === 'timeout';

export interface EventFault {
  /** Delay before delivery: different delays reorder queued events. */
  readonly delayMs: number;
  /** Deliver the event a second time: at once, or late (after the run finished). */
  readonly duplicate: 'none' | 'concurrent' | 'late';
}

export interface FaultPlan {
  callFault(exec: ExecutionInfo, call: CallInfo): CallFault;
  /** Asked once per accepted async event (not for retries or duplicates). */
  eventFault(functionName: string, identity: string): EventFault;
  /** Run a successful async execution once more (Lambda's at-least-once delivery). */
  rerunSucceeded(exec: ExecutionInfo): boolean;
}

export const NO_EVENT_FAULT: EventFault = { delayMs: 0, duplicate: 'none' };
