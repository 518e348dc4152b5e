/** The waiting record `task#<invocation>` of a callback Task: its token's secret and heartbeats. */
import { ABSENT, type Item, N, PRESENT, type PutRequest, S, type UpdateRequest, newItem, num, put, readable, str, update } from './encoding';
import { taskWaitKey } from './keys';

/**
 * A callback Task that waits for its token: the token's secret, the state
 * input (a completion's ResultPath merges into it), the invocation's
 * envelope context (JSON: iteration, frames, lease; the completion invokes
 * the successors from it), when the handler started and the last heartbeat
 * (epoch ms). Never a decision: the task's checkpoint is (first completion wins).
 */
export interface TaskWait {
  readonly secret: string;
  readonly input: string;
  readonly context: string;
  readonly startedAt: number;
  /** Heartbeats received so far. */
  readonly beats: number;
}

/** Recorded before the handler runs, once: a later execution of the invocation hands out the same token. */
export const taskWaitPut = (invocation: string, wait: TaskWait, ttl: number): PutRequest =>
  put({ ...newItem(taskWaitKey(invocation), ttl), sec: S(wait.secret), in: S(wait.input), cx: S(wait.context), at: N(wait.startedAt) }, ABSENT);

/** A heartbeat: counted on a record that exists (`UPDATED_NEW` gives the count). */
export const taskHeartbeat = (invocation: string): UpdateRequest => update(taskWaitKey(invocation), 'ADD hb :one', { ':one': N(1) }, PRESENT);

export const decodeHeartbeats = (item: Item | undefined): number => (item && num(item, 'hb')) ?? 0;

/** A callback wait as read; undefined for no item. Throws on a newer format (`UnumFormatError`). */
export function decodeTaskWait(item: Item | undefined): TaskWait | undefined {
  if (item) readable(item);
  const secret = item && str(item, 'sec');
  if (!item || secret === undefined) return undefined;
  return { secret, input: str(item, 'in') ?? 'null', context: str(item, 'cx') ?? '{}', startedAt: num(item, 'at') ?? 0, beats: decodeHeartbeats(item) };
}
