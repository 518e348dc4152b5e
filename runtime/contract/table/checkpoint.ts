/** The checkpoint `ckpt#<invocation>`: an invocation's committed value, written once by a conditional put. */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ABSENT, type Item, N, type PutRequest, S, newItem, put, readable, str, ttlOf } from './encoding';

/**
 * A checkpoint as read: the committed value (`v`, or `z` deflated), `c` when
 * a catch rule produced it, its TTL.
 */
export interface Checkpoint {
  readonly json: string;
  readonly catchIndex?: number;
  readonly ttl?: number;
}

/**
 * Values longer than this many bytes are stored deflated (`z`, binary) when
 * that is smaller: writes are billed per 1 KB of item, so a 1-4 KB JSON value
 * (text compresses 2-3x) costs half the write units or less. Smaller values
 * stay plain: compression would not cross a 1 KB boundary.
 */
const DEFLATE_ABOVE_BYTES = 700;

/** The value attribute of a checkpoint holding `json`: plain `v`, or `z` when deflating saves bytes. */
function valueAttribute(json: string): Item {
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes <= DEFLATE_ABOVE_BYTES) return { v: S(json) };
  const deflated = deflateRawSync(json);
  return deflated.length < bytes ? { z: { B: deflated } } : { v: S(json) };
}

/** A binary attribute's bytes: a Uint8Array from the SDK, base64 in DynamoDB JSON on the wire (the fault checker reads requests). */
const bytesOf = (b: Uint8Array | string): Uint8Array => (typeof b === 'string' ? Buffer.from(b, 'base64') : b);

/** The commit: only the first writer's put succeeds. */
export function checkpointPut(key: string, json: string, catchIndex: number | undefined, ttl: number): PutRequest {
  const item: Item = { ...newItem(key, ttl), ...valueAttribute(json) };
  if (catchIndex !== undefined) item.c = N(catchIndex);
  return put(item, ABSENT);
}

/**
 * The catch index (`c`) of a Parallel/Map join's checkpoint that decided to
 * run its state again (a Retry rule matched the failure): its value is the
 * state input, and its successor is the state's fan-out, one iteration later.
 */
export const RETRY_STATE = -1;

/**
 * The catch index of a callback Task's checkpoint whose completion was a
 * failure (sent, or a timeout) that no Retry or Catch rule took: the value
 * is `{Error, Cause, input}` (the state input, for a redrive's next
 * attempt), and the task fails its run or enclosing state. Committed like
 * any result, so that a success and a failure racing have one winner.
 */
export const TASK_FAILED = -2;

/**
 * The catch index of a callback Task's checkpoint whose completion was a
 * failure that a Retry rule retries: the value is a `TaskRetry`
 * (runtime/callbacks/callback-retry.ts), and the successor is the Task's next attempt
 * (its own node, one iteration later, reading this checkpoint by reference):
 * a new invocation with a new token.
 */
export const TASK_RETRY = -3;

/**
 * The catch index of a Parallel/Map join's checkpoint that runs its state
 * again on a redrive (no rule handled the failure): as RETRY_STATE, and the
 * fan-out's frames name the failed attempt (`FanOutFrame.replaces`), whose
 * committed steps the new attempt reuses.
 */
export const REDRIVE_STATE = -4;

/** A checkpoint item's value; undefined for no item, or an item that holds no committed value. Throws on a newer format (`UnumFormatError`). */
export function decodeCheckpoint(item: Item | undefined): Checkpoint | undefined {
  if (item) readable(item);
  const deflated = item?.z?.B as Uint8Array | string | undefined;
  const json = deflated === undefined ? item && str(item, 'v') : inflateRawSync(bytesOf(deflated)).toString('utf8');
  if (json === undefined) return undefined;
  const c = (item as Item).c?.N;
  const ttl = ttlOf(item as Item);
  return { json, ...(c === undefined ? {} : { catchIndex: Number(c) }), ...(ttl === undefined ? {} : { ttl }) };
}
