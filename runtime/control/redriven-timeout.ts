/**
 * The timeout of a redriven run: Step Functions counts a redriven run's
 * timeout from the redrive, so the run-control function schedules it anew,
 * to the failure recorder (which ends runs at their deadline). The run's
 * first schedule may still be pending: each timeout event carries its
 * deadline, and ends the run only if that is still the run's.
 */
import type { RunTimeoutEvent } from '../contract/ir';
import { runTimeoutName } from '../contract/naming';
import type { RunRef } from '../contract/table';
import type { OneTimeSchedule } from '../ports/scheduler';

/** A redriven run's timeout: its new deadline (epoch ms), the timeout it counts, and the redrive it belongs to. */
export interface RedrivenTimeout {
  readonly deadline: number;
  readonly timeoutSeconds: number;
  readonly redrives: number;
}

/** A late delivery costs nothing (the event ends the run only at its own deadline): Scheduler's longest window. */
const DELIVERY_SECONDS = 86_400;

/** The schedule of `timeout` to `functionName`, the failure recorder's alias of the run's deployment. */
export function redrivenTimeoutSchedule(run: RunRef, timeout: RedrivenTimeout, functionName: string): OneTimeSchedule<RunTimeoutEvent> {
  return {
    name: runTimeoutName(run, timeout),
    functionName,
    event: { unumRunTimeout: { workflowId: run.workflowId, timeoutSeconds: timeout.timeoutSeconds, deadline: timeout.deadline } },
    at: timeout.deadline,
    maxDeliverySeconds: DELIVERY_SECONDS,
  };
}
