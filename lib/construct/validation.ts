import type { NodeSettings } from '../../runtime/contract/ir';
import type { AsyncSettings } from '../compiler/function-settings';

/**
 * A checkpoint must outlive every late duplicate delivery of its invocation:
 * Lambda may deliver an event up to maxEventAge after it was sent, and that
 * execution may run for the whole timeout. A shorter TTL would let a late
 * duplicate find no checkpoint and run the node again.
 */
export function retentionProblem(settings: Pick<NodeSettings, 'checkpointTtlSeconds' | 'timeoutSeconds'>, async: AsyncSettings): string | undefined {
  const { checkpointTtlSeconds, timeoutSeconds } = settings;
  const needed = async.maxEventAgeSeconds + timeoutSeconds;
  if (checkpointTtlSeconds >= needed) return undefined;
  return (
    `checkpointRetention ${checkpointTtlSeconds}s is shorter than maxEventAge ${async.maxEventAgeSeconds}s` +
    ` + timeout ${timeoutSeconds}s = ${needed}s; late duplicate deliveries would find no checkpoint`
  );
}

/**
 * Retention rules of the whole workflow. The run record must outlive the
 * run's checkpoints: a start repeated after the record expired would
 * otherwise find the run's checkpoints, stop, and leave a RUNNING record that
 * never finishes. And an input must outlive the longest handoff between any
 * two functions (docs/architecture.md "Retention"), which the per-node rule
 * above covers only when all nodes share a maximum event age.
 */
export function workflowRetentionProblem(settings: Pick<NodeSettings, 'checkpointTtlSeconds' | 'runRetentionSeconds' | 'handoffSeconds'>): string | undefined {
  const { checkpointTtlSeconds, runRetentionSeconds, handoffSeconds } = settings;
  if (runRetentionSeconds < checkpointTtlSeconds) {
    return (
      `runRetention ${runRetentionSeconds}s is shorter than checkpointRetention ${checkpointTtlSeconds}s;` +
      ' a start repeated after the run record expired would find the run\'s checkpoints and leave a RUNNING record'
    );
  }
  if (checkpointTtlSeconds < handoffSeconds) {
    return (
      `checkpointRetention ${checkpointTtlSeconds}s is shorter than the longest handoff between functions, ${handoffSeconds}s` +
      ' (the longest maxEventAge plus the longest timeout); an input could expire before the function that reads it starts'
    );
  }
  return undefined;
}
