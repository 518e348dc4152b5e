/** Payload sizes: inline while small, by reference otherwise; refuse what DynamoDB cannot store. */
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

/** Epoch seconds `seconds` from now (DynamoDB TTL). */
export const ttlIn = (seconds: number): number => Math.floor(Date.now() / 1000) + seconds;
