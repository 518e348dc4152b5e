/** How the runtime delays an invocation until a Wait ends (docs/architecture.md "Waits"). */
import type { Envelope, RunTimeoutEvent, TaskResponseEvent } from '../contract/ir';

/** What a one-time schedule delivers. */
export type ScheduledEvent = Envelope | TaskResponseEvent | RunTimeoutEvent;

export interface OneTimeSchedule<E = Envelope> {
  /** Unique per invocation it delivers: creating it again is a no-op. */
  readonly name: string;
  readonly functionName: string;
  /** An envelope after a Wait; a timeout or heartbeat check of a callback Task; a run's timeout. */
  readonly event: E;
  /** Epoch milliseconds; delivered no earlier (EventBridge Scheduler: within the two minutes after it, see `atExpression`). */
  readonly at: number;
  /** The longest the service may keep retrying the delivery, in seconds. */
  readonly maxDeliverySeconds: number;
}

export interface Scheduler {
  /** Creates the schedule, or leaves the one of that name in place. */
  schedule(s: OneTimeSchedule<ScheduledEvent>): Promise<void>;
  /** Deletes the schedule of that name before it fires; one that fired or never existed is no error. */
  unschedule(name: string): Promise<void>;
}
