/**
 * The commit: the conditional put of the checkpoint. Whoever loses the race
 * continues with the stored value returned by ALL_OLD, never its own result,
 * so every execution of an invocation hands its successors the same input.
 */
import type { Json } from '../contract/ir';
import { itemTtl } from '../records/retention';
import { assertStorable } from '../records/payload';
import type { Checkpoint } from '../contract/table';
import type { Committed, Exec } from '../ports/execution';

export function fromCheckpoint(key: string, c: Checkpoint): Committed {
  return {
    key,
    json: c.json,
    value: JSON.parse(c.json) as Json,
    ...(c.catchIndex === undefined ? {} : { catchIndex: c.catchIndex }),
    ...(c.ttl === undefined ? {} : { ttl: c.ttl }),
  };
}

/** The committed value: ours, or the one another execution committed first. */
export async function commit(x: Exec, value: Json, catchIndex: number | undefined): Promise<Committed> {
  const json = JSON.stringify(value);
  assertStorable(x, json);
  const ttl = itemTtl(x);
  const existing = await x.rt.store.putCheckpoint(x.key, json, catchIndex, ttl);
  if (!existing) {
    // One Transitions count per invocation: only the execution that committed reports it.
    x.metrics.transitions = 1;
    return fromCheckpoint(x.key, { json, catchIndex, ttl });
  }
  x.metrics.duplicates = 1;
  return fromCheckpoint(x.key, existing);
}
