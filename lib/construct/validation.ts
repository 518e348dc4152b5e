import type { NodeSettings } from '../../runtime/ir';
import type { AsyncSettings } from '../compiler/function-settings';

/**
 * A tombstone must outlive every late duplicate delivery of its invocation:
 * Lambda may deliver an event up to maxEventAge after it was sent, and that
 * execution may run for the whole timeout. A shorter TTL would let a late
 * duplicate find no tombstone and run the node again.
 */
export function retentionProblem(settings: Pick<NodeSettings, 'checkpointTtlSeconds' | 'timeoutSeconds'>, async: AsyncSettings): string | undefined {
  const { checkpointTtlSeconds, timeoutSeconds } = settings;
  const needed = async.maxEventAgeSeconds + timeoutSeconds;
  if (checkpointTtlSeconds >= needed) return undefined;
  return (
    `checkpointRetention ${checkpointTtlSeconds}s is shorter than maxEventAge ${async.maxEventAgeSeconds}s` +
    ` + timeout ${timeoutSeconds}s = ${needed}s; late duplicate deliveries would find no tombstone`
  );
}
