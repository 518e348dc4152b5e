/**
 * Branches of a failed Parallel/Map stop at their next step
 * (docs/architecture.md "Retry and Catch on Parallel and Map"): a node with `stateErrors` reads
 * the failure records of the state attempts around it with its own
 * checkpoint and inputs, in one round trip (runtime/step/step.ts), and runs
 * nothing once one of them failed. The invocation that recorded the failure
 * is the exception: it owes its join the notice, which its next execution
 * (Lambda's retry after a crash) sends again, so the join still decides.
 */
import { noticeStateFailure } from './interpreter';
import { invocationName } from '../contract/naming';
import type { Exec } from '../ports/execution';

/**
 * The join invocations of the state attempts this node runs inside, outermost
 * first: one per frame (each frame names its join); none for a node that
 * cannot be inside a state with rules. A retried attempt is the join's next
 * iteration, so its frames, and these names, are new.
 */
export function stateAttemptJoins(x: Exec): string[] {
  if (!x.rt.ir.stateErrors) return [];
  const { frames } = x.invocation;
  return frames.flatMap((f, k) => (f.join ? [invocationName(x.run, f.join.node, f.iteration, frames.slice(0, k))] : []));
}

/** Whether a state attempt around this node failed (read with the step's first read): then it stops. */
export async function stoppedByFailedState(x: Exec, joins: readonly string[]): Promise<boolean> {
  const failures = x.read?.stateFailures;
  if (!failures || failures.size === 0) return false;
  // Only the innermost state's failure can be this invocation's own; an outer one ends the inner state's attempt too.
  const innermost = joins[joins.length - 1];
  if (failures.size === 1 && failures.get(innermost)?.by === x.name) await noticeStateFailure(x);
  return true;
}
