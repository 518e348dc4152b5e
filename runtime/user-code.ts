/**
 * Running the node's computation: io processing around the user handler (or
 * a pass result), States.Timeout just before the function's own timeout,
 * retry rules, and catch rules turning an error into `{Error, Cause}`.
 */
import { StatesError } from './errors';
import type { Json } from './ir';
import { applyResultPath } from './io';
import { errorMessage, errorName, findCatch, withRetry } from './retry';
import type { Exec, LambdaContext } from './types';

/** Milliseconds left in this Lambda execution. */
export function remainingMs(x: Exec): number {
  return x.ctx.getRemainingTimeInMillis?.() ?? x.rt.ir.settings.timeoutSeconds * 1000;
}

/**
 * Calls the user's function with a deadline; the result is normalised to JSON.
 * The function gets copies of `inputs`, as every attempt gets the original
 * input in Step Functions: what an attempt changes in them neither reaches a
 * retry nor the input that ResultPath and catch rules merge into.
 */
export async function callUser(x: Exec, inputs: readonly Json[], ctx?: LambdaContext): Promise<Json> {
  const fn = x.rt.fn;
  if (!fn) throw new Error(`node ${x.rt.ir.node}: no user function`);
  const left = remainingMs(x);
  // Leave time for the checkpoint and the invokes after the handler.
  const deadline = left - Math.min(2000, left * 0.2);
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const raw = await Promise.race([
      Promise.resolve().then(() => fn(...structuredClone(inputs), ...(ctx ? [ctx] : []))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StatesError('States.Timeout', `node ${x.rt.ir.node}: handler timed out`)), deadline);
      }),
    ]);
    return JSON.parse(JSON.stringify(raw ?? null)) as Json;
  } finally {
    clearTimeout(timer);
    x.userMs += Date.now() - started;
  }
}

/**
 * Runs `attempt` under the node's retry rules. A matching catch rule makes the
 * value the node input with `{Error, Cause}` at the rule's ResultPath, and
 * records the rule's index (committed with the checkpoint as `c`).
 */
export async function compute(x: Exec, input: Json, attempt: () => Promise<Json>): Promise<{ value: Json; catchIndex?: number }> {
  try {
    const value = await withRetry(
      (n) => {
        x.attempts = n;
        return attempt();
      },
      x.rt.ir.retry,
      () => remainingMs(x),
    );
    return { value };
  } catch (e) {
    const name = errorName(e);
    const catchIndex = findCatch(x.rt.ir.catch, name);
    if (catchIndex < 0) throw e;
    const rule = x.rt.ir.catch![catchIndex];
    return { value: applyResultPath(rule.resultPath, input, { Error: name, Cause: errorMessage(e) }), catchIndex };
  }
}
