/**
 * Branches of a failed Parallel/Map stop at their next step
 * (docs/architecture.md "Failure handling"): a node with `stateErrors` reads
 * the failure records of the state attempts around it with its own
 * checkpoint, in one round trip, and runs nothing once one of them failed.
 * The invocation that recorded the failure is the exception: it owes its
 * join the notice, which its next execution (Lambda's retry after a crash)
 * sends again, so the join still decides.
 */
import type { Checkpoint } from './table';
import { noticeStateFailure } from './interpreter';
import { invocationName } from './naming';
import type { Exec } from './types';

/**
 * The join invocations of the state attempts this node runs inside, outermost
 * first: one per frame (each frame names its join). A retried attempt is the
 * join's next iteration, so its frames, and these names, are new.
 */
function attemptJoins(x: Exec): string[] {
  const { frames } = x.invocation;
  return frames.flatMap((f, k) => (f.join ? [invocationName(x.run, f.join.node, f.iteration, frames.slice(0, k))] : []));
}

/** The own checkpoint, or `stopped` when a state around this node failed. */
export async function readOwnInState(x: Exec): Promise<{ readonly own?: Checkpoint } | 'stopped'> {
  if (!x.rt.ir.stateErrors) return { own: await x.rt.store.getCheckpoint(x.key) };
  const joins = attemptJoins(x);
  const { own, failures } = await x.rt.store.getCheckpointInStates(x.key, joins);
  if (failures.size === 0) return { own };
  // Only the innermost state's failure can be this invocation's own; an outer one ends the inner state's attempt too.
  const innermost = joins[joins.length - 1];
  if (failures.size === 1 && failures.get(innermost)?.by === x.name) await noticeStateFailure(x);
  return 'stopped';
}
