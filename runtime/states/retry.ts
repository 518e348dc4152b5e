/**
 * Step Functions retry and catch semantics for the handler, run inside the
 * execution: a retry sleeps (backoff, jitter) only while the remaining time
 * allows it, then the error goes on to the catch rules as if retries were exhausted.
 */
import { StatesError, TERMINAL_ERRORS } from '../contract/errors';
import type { CatchRule, RetryRule } from '../contract/ir';
import { sleep } from '../ports/pool';

// Always strings, whatever was thrown (a name or message set to a number, an object...): they are stored.
export function errorName(e: unknown): string {
  return e instanceof Error && e.name ? String(e.name) : 'Error';
}

export function errorMessage(e: unknown): string {
  return String(e instanceof Error ? e.message : e);
}

/**
 * A caught error's Cause as Step Functions gives it for a Lambda task: for an
 * error of the handler, the error document Lambda's Node.js runtime makes of
 * it, as JSON (`{"errorType","errorMessage","trace"}`, which a catcher reads
 * with States.StringToJson); for an error the runtime raised
 * (States.Timeout, States.IntrinsicFailure, ...), its message.
 */
export function errorCause(e: unknown): string {
  if (e instanceof StatesError) return e.message;
  const trace = e instanceof Error && e.stack ? e.stack.split('\n') : [];
  return JSON.stringify({ errorType: errorName(e), errorMessage: errorMessage(e), trace });
}

/** Does a rule's error list match this error name (States.ALL, States.TaskFailed as in Step Functions)? */
export function matchesError(errors: readonly string[], name: string): boolean {
  if (errors.includes(name)) return true;
  if (TERMINAL_ERRORS.has(name)) return false;
  return errors.includes('States.ALL') || (name !== 'States.Timeout' && errors.includes('States.TaskFailed'));
}

export function findCatch(rules: readonly CatchRule[] | undefined, name: string): number {
  return (rules ?? []).findIndex((r) => matchesError(r.errors, name));
}

/** Time kept free after a retry sleep or a handler's deadline, for the checkpoint and the invokes. */
export const RESERVE_MS = 2000;

/** Milliseconds before retry `n + 1` of a rule (backoff, cap, jitter). */
export function retryDelay(rule: RetryRule, n: number): number {
  const delay = Math.min(rule.intervalSeconds * 1000 * rule.backoffRate ** n, (rule.maxDelaySeconds ?? Infinity) * 1000);
  return rule.jitter === 'FULL' ? Math.random() * delay : delay;
}

/**
 * Runs `fn` (attempt = 1, 2, ...) and retries per the first matching rule
 * (each rule counts its own attempts). Throws the last error when no retry applies.
 */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  rules: readonly RetryRule[] | undefined,
  remainingMs: () => number,
): Promise<T> {
  const used = new Map<RetryRule, number>();
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      const rule = (rules ?? []).find((r) => matchesError(r.errors, errorName(e)));
      const n = rule ? (used.get(rule) ?? 0) : 0;
      if (!rule || n >= rule.maxAttempts) throw e;
      const delay = retryDelay(rule, n);
      if (delay + RESERVE_MS > remainingMs()) throw e;
      used.set(rule, n + 1);
      await sleep(delay);
    }
  }
}
