/**
 * Running the node's computation: io processing around the user handler (or
 * a pass result), States.Timeout at the handler's timeout, retry rules, and
 * catch rules turning an error into `{Error, Cause}`.
 */
import { boundedError, StateFailedError, StatesError, TERMINAL_ERRORS } from '../contract/errors';
import { handlerContext } from './handler-context';
import { assertNestable } from '../records/payload';
import type { Json } from '../contract/ir';
import { applyResultPath } from '../language/io';
import { errorCause, errorName, findCatch, RESERVE_MS, withRetry } from '../states/retry';
import type { Exec } from '../ports/execution';
import type { LambdaContext } from '../contract/handler-api';

/** Milliseconds left in this Lambda execution; unbounded when the context does not say. */
export function remainingMs(x: Exec): number {
  return x.ctx.getRemainingTimeInMillis?.() ?? Infinity;
}

/**
 * Calls the user's function with a deadline of the node's `timeoutSeconds`
 * (Step Functions' TimeoutSeconds): the construct gives the function that
 * long plus a margin for the checkpoint and the invokes after it. An attempt
 * after a retry gets at most what is left of the function's time, minus that
 * reserve, so that it still ends in States.Timeout rather than a killed function.
 * The result is normalised to JSON.
 *
 * The function gets copies of `inputs`, as every attempt gets the original
 * input in Step Functions: what an attempt changes in them neither reaches a
 * retry nor the input that ResultPath and catch rules merge into. After them
 * come Lambda's context (task handlers) and the unum context (every handler):
 * `(input, lambdaContext, unum)`, a fold's `(acc, item, index, unum)`.
 */
export async function callUser(x: Exec, inputs: readonly Json[], ctx?: LambdaContext): Promise<Json> {
  const fn = x.rt.fn;
  if (!fn) throw new Error(`node ${x.rt.ir.node}: no user function`);
  const deadline = Math.min(x.rt.ir.settings.timeoutSeconds * 1000, remainingMs(x) - RESERVE_MS);
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const raw = await Promise.race([
      Promise.resolve().then(() => fn(...structuredClone(inputs), ...(ctx ? [ctx] : []), handlerContext(x, () => started + deadline - Date.now()))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StatesError('States.Timeout', `node ${x.rt.ir.node}: handler timed out`)), deadline);
      }),
    ]);
    assertNestable(x, raw ?? null);
    return JSON.parse(JSON.stringify(raw ?? null)) as Json;
  } finally {
    clearTimeout(timer);
    x.userMs += Date.now() - started;
  }
}

/**
 * Runs `attempt` under the node's retry rules. A matching catch rule makes the
 * value the node input with `{Error, Cause}` (within `ERROR_BOUNDS`) at the rule's ResultPath, and
 * records the rule's index (committed with the checkpoint as `c`). With no
 * matching rule, inside a Parallel/Map that has rules (IR `stateErrors`),
 * the error fails that state (`StateFailedError`).
 */
export async function compute(x: Exec, input: Json, attempt: () => Promise<Json>): Promise<{ value: Json; catchIndex?: number }> {
  try {
    const value = await withRetry(
      (n) => {
        x.attempts = n;
        return attempt().catch((e: unknown) => {
          x.attemptErrors.push(errorName(e));
          throw e;
        });
      },
      x.rt.ir.retry,
      () => remainingMs(x),
    );
    return { value };
  } catch (e) {
    const name = errorName(e);
    const catchIndex = findCatch(x.rt.ir.catch, name);
    if (catchIndex < 0) {
      // Inside a Parallel/Map with Retry or Catch: the state's rules get the error now, not Lambda's retries.
      if (x.rt.ir.stateErrors && !TERMINAL_ERRORS.has(name)) throw new StateFailedError(name, errorCause(e));
      throw e;
    }
    const rule = x.rt.ir.catch![catchIndex];
    // Bounded like every stored error: a huge message must not make the caught value too large to checkpoint.
    const { error, cause } = boundedError({ error: name, cause: errorCause(e) });
    return { value: applyResultPath(rule.resultPath, input, { Error: error, Cause: cause }), catchIndex };
  }
}
