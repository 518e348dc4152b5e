import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { checkpointKey, runKey, shardKey } from '../../runtime/naming';
import type { RunError, RunState, RunStatus } from './types';

/** A raw DynamoDB item. */
export type Item = Record<string, AttributeValue>;

/** Key prefixes of the table layout (docs/architecture.md, "Table"), from the runtime's own key functions. */
export const PREFIX = {
  /** `ckpt#` */
  checkpoint: checkpointKey(''),
  /** `run#` */
  run: runKey(''),
  /** `fanin#`: the part of a shard key before the join's name. */
  fanIn: shardKey('', 0, 0).split('#')[0] + '#',
} as const;

export function str(item: Item, name: string): string | undefined {
  return item[name]?.S;
}

export function num(item: Item, name: string): number | undefined {
  const n = item[name]?.N;
  return n === undefined ? undefined : Number(n);
}

/** Members of a number set (`NS`), e.g. fan-in arrivals. */
export function numSet(item: Item, name: string): number[] {
  return (item[name]?.NS ?? []).map(Number);
}

/**
 * A timestamp as ISO-8601. The runtime may store ISO strings or epoch numbers;
 * numbers below 1e11 are read as seconds (1e11 s is year 5138), others as milliseconds.
 */
export function timestamp(item: Item, name: string): string | undefined {
  const s = str(item, name);
  if (s !== undefined) return s;
  const n = num(item, name);
  if (n === undefined) return undefined;
  return new Date(n < 1e11 ? n * 1000 : n).toISOString();
}

/** `error` is `{node, error, cause}`: a map, or a JSON string like every stored value. */
function runError(item: Item): RunError | undefined {
  const attr = item.error;
  if (!attr) return undefined;
  if (attr.S !== undefined) {
    const e = JSON.parse(attr.S) as Partial<RunError>;
    return { node: String(e.node ?? '?'), error: String(e.error ?? 'Error'), ...(e.cause !== undefined ? { cause: String(e.cause) } : {}) };
  }
  if (attr.M) {
    const m = attr.M;
    const cause = str(m, 'cause');
    return { node: str(m, 'node') ?? '?', error: str(m, 'error') ?? 'Error', ...(cause !== undefined ? { cause } : {}) };
  }
  return undefined;
}

const STATES: readonly string[] = ['RUNNING', 'SUCCEEDED', 'FAILED'];

/** The client's view of a run record item (or of its absence). */
export function parseRunRecord(workflowId: string, item: Item | undefined): RunStatus {
  if (!item) return { workflowId, status: 'NOT_FOUND' };
  const status = str(item, 'status');
  if (status === undefined || !STATES.includes(status)) {
    throw new Error(`run record ${runKey(workflowId)} has an unknown status '${status}'`);
  }
  const startedAt = timestamp(item, 'startedAt');
  const finishedAt = timestamp(item, 'finishedAt');
  const error = runError(item);
  return {
    workflowId,
    status: status as RunState,
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(finishedAt !== undefined ? { finishedAt } : {}),
    ...(error ? { error } : {}),
  };
}
