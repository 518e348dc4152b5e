/**
 * The identities the engine gives events (lib/local/events.ts), which fault
 * schedules and the checker key on: a response to a task token names the
 * iteration of the invocation that handed it out, without the workflowId.
 */
import { describeEvent } from '../../lib/local/events';
import { invocationName } from '../../runtime/contract/naming';
import { encodeTaskToken } from '../../runtime/contract/task-token';

const tokenOf = (workflowId: string, iteration: number, frames: { iteration: number; index: number }[] = []): string => {
  const run = { workflow: 'Approve', workflowId };
  return encodeTaskToken({ ...run, node: 'Ask', invocation: invocationName(run, 'Ask', iteration, frames), secret: 'a'.repeat(43), deployment: 'd0123456789abcdef0123' });
};
const identity = (payload: unknown): string => describeEvent('fn-Ask', JSON.stringify(payload), 'req-1').identity;

test('a response names the iteration of the attempt that handed out the token, the same in every run', () => {
  expect(identity({ unumTask: { token: tokenOf('run-a', 0), failure: { error: 'Declined', cause: '' } } })).toBe('fn-Ask@task:failure:0');
  expect(identity({ unumTask: { token: tokenOf('run-b', 2), timeout: 'States.Timeout' } })).toBe('fn-Ask@task:timeout:2');
  expect(identity({ unumTask: { token: tokenOf('run-a', 2), timeout: 'States.Timeout' } })).toBe(identity({ unumTask: { token: tokenOf('run-b', 2), timeout: 'States.Timeout' } }));
});

test('a token of a Task inside a Map, or a forged one, is named by its kind alone', () => {
  expect(identity({ unumTask: { token: tokenOf('run-a', 0, [{ iteration: 0, index: 3 }]), success: {} } })).toBe('fn-Ask@task:success');
  expect(describeEvent('fn-Ask', JSON.stringify({ unumTask: { token: 'forged', success: {} } }), 'req-1')).toEqual({ identity: 'fn-Ask@task:success' });
});
