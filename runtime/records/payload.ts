/** Payload sizes: inline while small, by reference otherwise; refuse what DynamoDB cannot store, and values nested too deeply to handle. */
import { StatesError } from '../contract/errors';
import type { InputRef, Json } from '../contract/ir';
import type { Committed, Exec } from '../ports/execution';
import { byteLength, MAX_VALUE_BYTES } from '../contract/table';

/** How a successor receives a committed value. */
export function passValue(x: Exec, ck: Committed): InputRef {
  return byteLength(ck.json) <= x.rt.ir.settings.inlineLimitBytes ? { value: ck.value } : { ref: ck.key };
}

/** A value derived from a checkpoint: inline while small, else `large` (a reference the receiver rebuilds it from). */
export function derivedValue(x: Exec, value: Json, large: InputRef): InputRef {
  return byteLength(JSON.stringify(value)) <= x.rt.ir.settings.inlineLimitBytes ? { value } : large;
}

export function assertStorable(x: Exec, json: string): void {
  const bytes = byteLength(json);
  if (bytes > MAX_VALUE_BYTES) {
    throw new StatesError(
      'States.DataLimitExceeded',
      `node ${x.rt.ir.node}: output of ${bytes} bytes exceeds DynamoDB's 400 KB item limit (${MAX_VALUE_BYTES} bytes for the value)`,
    );
  }
}

/**
 * How deeply a value may nest (arrays and objects inside each other): far
 * below what recursive JSON code overflows at (V8's JSON.stringify, about
 * 4,000 levels on Lambda's default stack, fewer under user code), far above
 * any document a workflow passes. Checked before anything is read or written
 * (the entry's start input, every event) and on every handler result before
 * its checkpoint, without recursion.
 */
export const JSON_DEPTH_LIMIT = 512;

/** Path segments shown of a value nested too deeply: enough to find it. */
const SHOWN_SEGMENTS = 8;

interface Level {
  readonly value: unknown;
  readonly depth: number;
  readonly parent?: Level;
  readonly key?: string | number;
}

function pathOf(deepest: Level, root: string): string {
  const keys: (string | number)[] = [];
  for (let l: Level | undefined = deepest; l?.key !== undefined; l = l.parent) keys.push(l.key);
  const shown = keys.reverse().slice(0, SHOWN_SEGMENTS).map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');
  return `${root}${shown}${keys.length > SHOWN_SEGMENTS ? `... (${keys.length} levels down)` : ''}`;
}

/**
 * The path (from `root`, e.g. `input[0].a`) of the first value nested deeper
 * than `limit` levels in `value`, or undefined when none is. Iterative: it
 * walks any depth on a constant call stack, and stops at the first value too deep.
 */
export function tooDeep(value: unknown, limit: number, root: string): string | undefined {
  const pending: Level[] = [{ value, depth: 0 }];
  for (let level = pending.pop(); level; level = pending.pop()) {
    if (typeof level.value !== 'object' || level.value === null) continue;
    if (level.depth >= limit) return pathOf(level, root);
    const entries = Array.isArray(level.value) ? level.value.map((v: unknown, i) => [i, v] as const) : Object.entries(level.value);
    for (const [key, v] of entries) pending.push({ value: v, depth: level.depth + 1, parent: level, key });
  }
  return undefined;
}

/** A handler result nested deeper than `JSON_DEPTH_LIMIT`: refused before it is serialized or committed (no retry changes it). */
export function assertNestable(x: Exec, value: unknown): void {
  const at = tooDeep(value, JSON_DEPTH_LIMIT, '$');
  if (at !== undefined) {
    throw new StatesError(
      'States.DataLimitExceeded',
      `workflow ${x.rt.ir.workflow}, node ${x.rt.ir.node}: the handler's result nests deeper than ${JSON_DEPTH_LIMIT} levels (at ${at})`,
    );
  }
}

/** Epoch seconds `seconds` from now (DynamoDB TTL). */
export const ttlIn = (seconds: number): number => Math.floor(Date.now() / 1000) + seconds;
