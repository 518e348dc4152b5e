/**
 * A workflow's run timeout (docs/architecture.md "Stop and run timeout"): the
 * entry writes the run's deadline into its RUNNING record and schedules the
 * failure recorder to end the run TIMED_OUT then. Every execution reads the
 * record (with its own checkpoint and inputs, or beside its commit), and one
 * that finds the deadline passed ends the run itself: Scheduler may fire up
 * to two minutes late.
 */
import { runtimeError } from '../contract/errors';
import { ENV } from '../contract/ir';
import { runTimeoutName } from '../contract/naming';
import { runTimedOut } from '../contract/table';
import type { Exec } from '../ports/execution';

/** The deadline (epoch ms) of a run started at `startedAt`, when the workflow has a timeout. */
export function runDeadline(x: Exec, startedAt: string): number | undefined {
  const seconds = x.rt.ir.settings.runTimeoutSeconds;
  return seconds === undefined ? undefined : Date.parse(startedAt) + seconds * 1000;
}

/** Schedules the run's timeout; named after the run, so a retried start creates nothing new. */
export async function scheduleRunTimeout(x: Exec, deadline: number): Promise<void> {
  const timeoutSeconds = x.rt.ir.settings.runTimeoutSeconds ?? 0;
  const functionName = process.env[ENV.runTimeoutFunction];
  const { scheduler } = x.rt;
  if (!scheduler || !functionName) throw runtimeError(`node ${x.rt.ir.node}: the workflow's timeout needs a scheduler and ${ENV.runTimeoutFunction}, and this runtime has neither`);
  await scheduler.schedule({
    name: runTimeoutName(x.run),
    functionName,
    event: { unumRunTimeout: { workflowId: x.run.workflowId, timeoutSeconds, deadline } },
    at: deadline,
    maxDeliverySeconds: x.rt.ir.settings.handoffSeconds,
  });
}

/** The run this execution read is past its deadline: it is ended TIMED_OUT now (conditional: a finished run stays finished). */
export async function endedByDeadline(x: Exec): Promise<boolean> {
  const deadline = x.read?.runDeadline;
  if (deadline === undefined || Date.now() < deadline) return false;
  await x.rt.store.interruptRun(x.run, runTimedOut(x.rt.ir.settings.runTimeoutSeconds ?? 0, deadline), new Date().toISOString());
  return true;
}
