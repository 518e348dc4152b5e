/**
 * The retry decision of a callback Task's completion (runtime/callbacks/callback-retry.ts):
 * the first Retry rule the error matches retries while it has attempts left,
 * counting per rule across attempts, with the backoff of ordinary Task
 * retries; `States.TaskFailed` does not match `States.Timeout`.
 */
import { taskRetry, type TaskRetry } from '../../runtime/callbacks/callback-retry';
import type { RetryRule } from '../../runtime/contract/ir';
import { TASK_RETRY } from '../../runtime/contract/table';
import type { Exec, TaskCompletion } from '../../runtime/ports/execution';

const rule = (errors: string[], maxAttempts: number, extra: Partial<RetryRule> = {}): RetryRule => ({ errors, maxAttempts, intervalSeconds: 10, backoffRate: 2, jitter: 'NONE', ...extra });
const exec = (retry: RetryRule[]): Exec => ({ rt: { ir: { retry } } }) as unknown as Exec;
const completion = (retries: number[]): TaskCompletion => ({ stateInput: { order: 1 }, result: { error: 'x', cause: 'y' }, retries });

test('the first matching rule with attempts left retries: its count goes up, the others stay; the due time is its backoff', () => {
  const x = exec([rule(['Busy'], 3, { maxDelaySeconds: 30 }), rule(['States.ALL'], 1)]);
  const before = Date.now();
  const decided = taskRetry(x, completion([2, 1]), 'Busy', 'later');
  expect(decided?.catchIndex).toBe(TASK_RETRY);
  const value = decided?.value as unknown as TaskRetry;
  expect(value).toMatchObject({ input: { order: 1 }, retries: [3, 1], error: 'Busy', cause: 'later' });
  // 10 s * 2^2 = 40 s, capped at 30 s.
  expect(value.due - before).toBeGreaterThanOrEqual(30_000);
  expect(value.due - Date.now()).toBeLessThanOrEqual(30_000);
  expect((taskRetry(x, completion([]), 'Other', 'c')?.value as unknown as TaskRetry).retries).toEqual([0, 1]);
});

test('no retry: the matching rule is exhausted (later rules are not tried), no rule matches, no rules, MaxAttempts 0', () => {
  expect(taskRetry(exec([rule(['Busy'], 2), rule(['States.ALL'], 5)]), completion([2]), 'Busy', 'c')).toBeUndefined();
  expect(taskRetry(exec([rule(['Busy'], 2)]), completion([]), 'Rejected', 'c')).toBeUndefined();
  expect(taskRetry(exec([]), completion([]), 'Busy', 'c')).toBeUndefined();
  expect(taskRetry(exec([rule(['Busy'], 0)]), completion([]), 'Busy', 'c')).toBeUndefined();
});

test('States.TaskFailed matches a sent failure and States.HeartbeatTimeout, not States.Timeout; States.Timeout and States.ALL match it', () => {
  const taskFailed = exec([rule(['States.TaskFailed'], 1)]);
  expect(taskRetry(taskFailed, completion([]), 'Rejected', 'c')).toBeDefined();
  expect(taskRetry(taskFailed, completion([]), 'States.HeartbeatTimeout', 'c')).toBeDefined();
  expect(taskRetry(taskFailed, completion([]), 'States.Timeout', 'c')).toBeUndefined();
  expect(taskRetry(exec([rule(['States.Timeout'], 1)]), completion([]), 'States.Timeout', 'c')).toBeDefined();
  expect(taskRetry(exec([rule(['States.ALL'], 1)]), completion([]), 'States.Timeout', 'c')).toBeDefined();
});
