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
 * expired; or it was computed again and differs) sends its successors and
 * notices without it, and they compute. A fan-in's join also checks the
 * members the chain did not bring it.
 */
import { fanInMembers, readCheckpoints } from './inputs';
import type { FanInRef, FanOutFrame } from '../contract/ir';
import { invocationName, type FramePosition } from '../contract/naming';
import { checkpointKey, TASK_FAILED, TASK_RETRY, type Checkpoint, type RunRef } from '../contract/table';
import type { Exec } from '../ports/execution';

/** The frame field that carries the failed attempt, for a frame built beside `from` (a later item, a launcher's items). */
export const replacing = (from: { readonly replaces?: number }): { replaces?: number } => (from.replaces === undefined ? {} : { replaces: from.replaces });

/**
 * The checkpoint key of this invocation in the attempt a redrive replaced:
 * the same name with each replacing frame at the failed attempt's
 * iteration. Undefined outside a redriven attempt.
 */
export function replacedKey(run: RunRef, node: string, iteration: number, frames: readonly FanOutFrame[], foldIndex?: number): string | undefined {
  if (!frames.some((f) => f.replaces !== undefined)) return undefined;
  return checkpointKey(invocationName(run, node, iteration, failedAttempt(frames), foldIndex));
}

/**
 * A callback Task's failure or retry decision did not complete its state:
 * the Task runs again, with a new token and its Retry counts from zero.
 */
const completedState = (c: Checkpoint): boolean => c.catchIndex !== TASK_FAILED && c.catchIndex !== TASK_RETRY;

const isFold = (x: Exec): boolean => x.rt.ir.handler.kind === 'fold';

/** The frames' positions in the failed attempt. */
const failedAttempt = (frames: readonly FanOutFrame[]): FramePosition[] => frames.map((f) => ({ index: f.index, iteration: f.replaces ?? f.iteration }));

/**
 * A fan-in's members (the branches' tails) each hold the value they had in
 * the failed attempt: one read of both attempts' keys. The chain vouches
 * only for the tail whose arrival invoked the join.
 */
async function membersKept(x: Exec, frames: readonly FanOutFrame[], f: FanInRef): Promise<boolean> {
  const now = fanInMembers(x, f);
  const before = fanInMembers(x, f, failedAttempt(frames));
  if (!now || !before) return false;
  // Into the step's read: a join that computes after all finds its members there.
  const found = await readCheckpoints(x, [...now, ...before]);
  return now.every((key, i) => {
    const value = found.get(key);
    return value !== undefined && same(value, found.get(before[i]));
  });
}

/**
 * The failed attempt's checkpoint, when this step may reuse it instead of
 * computing: its input is the one the old value was computed from. A value
 * or reference from a predecessor on the chain and a Map item of such an
 * origin are; a fan-in's (a join's, a fold's first step's) when every
 * member kept its value too. A state's decision decides on the new
 * attempt's failure: it computes.
 */
export async function reusableValue(x: Exec, old: Checkpoint | undefined, frames: readonly FanOutFrame[] | undefined): Promise<Checkpoint | undefined> {
  if (!old || !frames || !completedState(old)) return undefined;
  const input = x.invocation.input;
  if ('value' in input || 'ref' in input || 'mapItem' in input) return old;
  return 'fanIn' in input && (await membersKept(x, frames, input.fanIn)) ? old : undefined;
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

/**
 * After a commit: the value is the old one, so the successors may reuse
 * theirs. A fold's step must have reused it, not computed it: the next step
 * folds another branch's value as well, which only the first step's reuse
 * vouches for (every member kept its value).
 */
export function resumeChain(x: Exec, frames: readonly FanOutFrame[], committed: Checkpoint, old: Checkpoint | undefined, reused: boolean): void {
  if (same(committed, old) && (reused || !isFold(x))) x.invocation = { ...x.invocation, frames };
}

/**
 * A Wait on the chain that the failed attempt waited out already: its node
 * committed there, so the redriven attempt invokes it at once, as Step
 * Functions does not run a completed Wait again.
 */
export async function waitedInFailedAttempt(x: Exec, node: string, iteration: number, frames: readonly FanOutFrame[]): Promise<boolean> {
  const key = replacedKey(x.run, node, iteration, frames);
  if (!key) return false;
  const old = (await x.rt.store.getCheckpoints([key])).get(key);
  return old !== undefined && completedState(old);
}
