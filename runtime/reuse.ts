/**
 * A redrive's next attempt of a Parallel/Map state reuses the failed
 * attempt's committed steps (docs/architecture.md "Redrive"), as Step
 * Functions redrives only a state's failed branches. The new attempt's
 * invocations have new names (one iteration later), so each step also reads
 * its checkpoint under the failed attempt's name, in the same round trip as
 * its own.
 *
 * A value is reused only where it is what the step would compute again: the
 * step's input equals the one the old value was computed from. That holds
 * while every step before it in the attempt continued with its old value,
 * so the frames' `replaces` travels only along such a chain: a step whose
 * value differs from its old one (none was found: it failed, never ran, or
 * expired; or it was computed again) sends its successors and notices
 * without it, and they compute.
 */
import type { FanOutFrame, InputRef } from './ir';
import { invocationName } from './naming';
import { checkpointKey, TASK_FAILED, TASK_RETRY, type Checkpoint, type RunRef } from './table';
import type { Exec } from './types';

/** The frame field that carries the failed attempt, for a frame built beside `from` (a later item, a launcher's items). */
export const replacing = (from: { readonly replaces?: number }): { replaces?: number } => (from.replaces === undefined ? {} : { replaces: from.replaces });

/**
 * The checkpoint key of this invocation in the attempt a redrive replaced:
 * the same name with each replacing frame at the failed attempt's
 * iteration. Undefined outside a redriven attempt.
 */
export function replacedKey(run: RunRef, node: string, iteration: number, frames: readonly FanOutFrame[], foldIndex?: number): string | undefined {
  if (!frames.some((f) => f.replaces !== undefined)) return undefined;
  const old = frames.map((f) => ({ index: f.index, iteration: f.replaces ?? f.iteration }));
  return checkpointKey(invocationName(run, node, iteration, old, foldIndex));
}

/**
 * Whether the old value may stand for this step's: its one input came
 * along the chain (a value or reference from a predecessor that continued
 * with its old value, a Map item of such an origin). A fan-in's join, a
 * fold's step (its items are other branches' values) and a state's decision
 * (the new attempt's failure) have inputs the chain does not vouch for:
 * they compute, and the chain goes on after them where the result is the
 * old one.
 */
const chainInput = (input: InputRef): boolean => 'value' in input || 'ref' in input || 'mapItem' in input;

/**
 * A callback Task's failure or retry decision did not complete its state:
 * the Task runs again, with a new token and its Retry counts from zero.
 */
const completedState = (c: Checkpoint): boolean => c.catchIndex !== TASK_FAILED && c.catchIndex !== TASK_RETRY;

/** The failed attempt's checkpoint, when this step may reuse it instead of computing. */
export function reusableValue(x: Exec, old: Checkpoint | undefined): Checkpoint | undefined {
  return old && completedState(old) && x.invocation.fold === undefined && chainInput(x.invocation.input) ? old : undefined;
}

const same = (a: Checkpoint, b: Checkpoint | undefined): boolean => b !== undefined && a.json === b.json && a.catchIndex === b.catchIndex;

/** Ends the chain here: what this execution sends from now on carries no `replaces`. */
function endChain(x: Exec): void {
  if (x.invocation.frames.some((f) => f.replaces !== undefined)) {
    x.invocation = { ...x.invocation, frames: x.invocation.frames.map(({ replaces: _, ...frame }) => frame) };
  }
}

/**
 * Before the step computes (or continues from its own checkpoint): the
 * chain goes on only from a value equal to the old one, so it ends now
 * unless `committed` (the own checkpoint) equals `old`; a computed value
 * equal to `old` takes it up again (`resumeChain`).
 */
export function chainBeforeCompute(x: Exec, committed: Checkpoint | undefined, old: Checkpoint | undefined): readonly FanOutFrame[] {
  const frames = x.invocation.frames;
  if (!committed || !same(committed, old)) endChain(x);
  return frames;
}

/** After a commit: the value is the old one, so the successors may reuse theirs. */
export function resumeChain(x: Exec, frames: readonly FanOutFrame[], committed: Checkpoint, old: Checkpoint | undefined): void {
  if (same(committed, old)) x.invocation = { ...x.invocation, frames };
}
