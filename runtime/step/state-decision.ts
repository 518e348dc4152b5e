/**
 * Retry and Catch on Parallel and Map (docs/architecture.md "Retry and Catch
 * on Parallel and Map"): a join invoked with `failed` decides, once (its
 * checkpoint), what the state's failure leads to: the first matching Retry
 * rule with retries left runs the state again (the state input is committed
 * with catch index RETRY_STATE, and the fan-out follows one iteration
 * later); else the first matching Catch rule routes `{Error, Cause}` at its
 * ResultPath in the state input; else the state fails in turn. The join
 * of such a failure is parked for a redrive (its retry counts not spent:
 * `redriveState`); re-sent by one, it runs the state again as a retry would,
 * reusing the failed attempt's committed steps (REDRIVE_STATE).
 */
import { StateFailedError, runtimeError } from '../contract/errors';
import { readValues } from './inputs';
import { proceed } from './interpreter';
import { ENVELOPE_BOUNDS, type FanInRef, type Json } from '../contract/ir';
import { applyResultPath } from '../language/io';
import { sleep } from '../ports/pool';
import { findCatch, matchesError, RESERVE_MS, retryDelay } from '../states/retry';
import { parkedOf } from '../records/redrive-park';
import { exactlyOnceStep, type StepOutcome } from './step';
import { parseKey, REDRIVE_STATE, RETRY_STATE, type StateFailure } from '../contract/table';
import { remainingMs } from './user-code';
import type { Exec, Redo } from '../ports/execution';

/**
 * Retries the state when a rule allows it: counts are per rule, carried from
 * attempt to attempt in the failure record of the previous attempt's join,
 * which is this attempt's origin. The delay is slept here, before the
 * decision commits; one that does not fit in the time left is no retry.
 */
async function retries(x: Exec, failure: StateFailure, used: readonly number[]): Promise<boolean> {
  const rules = x.rt.ir.join?.retry?.rules ?? [];
  const i = rules.findIndex((r) => matchesError(r.errors, failure.error));
  const n = used[i] ?? 0;
  if (i < 0 || n >= rules[i].maxAttempts) return false;
  const delay = retryDelay(rules[i], n);
  if (delay + RESERVE_MS > remainingMs(x)) return false;
  await sleep(delay);
  await x.rt.store.setStateRetries(x.name, rules.map((_, k) => (k === i ? n + 1 : (used[k] ?? 0))));
  return true;
}

/** The previous attempt's failure when the origin is its join (a retry), whose record holds the retries used. */
async function previousAttempt(x: Exec, origin: string): Promise<StateFailure | undefined> {
  const key = parseKey(origin);
  return key?.kind === 'checkpoint' ? x.rt.store.getStateFailure(key.invocation) : undefined;
}

export function decideState(x: Exec, failed: FanInRef): Promise<StepOutcome> {
  return exactlyOnceStep(x, () => ({
    instructionsFollow: false,
    async computeOutput() {
      const [input, failure, previous] = await Promise.all([readValues(x, [failed.origin]), x.rt.store.getStateFailure(x.name), previousAttempt(x, failed.origin)]);
      // The origin is kept as long as the fan-in (the lease): missing, it expired, or a decision committed meanwhile.
      if (!input) return undefined;
      if (!failure) throw runtimeError(`node ${x.rt.ir.node}: invoked for a state failure that is not recorded`);
      const stateInput: Json = input[0];
      if (await retries(x, failure, previous?.retries ?? [])) return { value: stateInput, catchIndex: RETRY_STATE };
      const catchIndex = findCatch(x.rt.ir.catch, failure.error);
      if (catchIndex < 0 && x.invocation.redrive !== undefined) {
        // Re-sent by a redrive: the state's next attempt, its Retry counts starting over (as a redriven Task's).
        await x.rt.store.setStateRetries(x.name, (x.rt.ir.join?.retry?.rules ?? []).map(() => 0));
        return { value: stateInput, catchIndex: REDRIVE_STATE };
      }
      if (catchIndex < 0) throw new StateFailedError(failure.error, failure.cause);
      const rule = x.rt.ir.catch![catchIndex];
      return { value: applyResultPath(rule.resultPath, stateInput, { Error: failure.error, Cause: failure.cause }), catchIndex };
    },
    afterCommit: (ck) => proceed(x, ck),
  }));
}

/**
 * What a redrive re-sends for a join whose state failed the run (no rule
 * handled the failure): the join itself, which then runs the state's next
 * attempt; with its event's generation, so that a failure of an older
 * delivery is stale. A string (why not) at the iteration bound, where no
 * attempt follows.
 */
export function redriveState(x: Exec): Redo | string {
  if (x.invocation.iteration >= ENVELOPE_BOUNDS.iteration) return `the state ${x.rt.ir.state ?? x.rt.ir.node}, whose attempts reached the limit of ${ENVELOPE_BOUNDS.iteration} iterations`;
  return { invocation: x.name, parked: parkedOf(x), generation: x.invocation.redrive ?? 0 };
}
