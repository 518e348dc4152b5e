/**
 * Durable steps: `fn`'s value is recorded under the invocation, and every
 * later execution of the invocation (a retry, a duplicate, a late one)
 * returns the recorded value instead of calling `fn`. Between `fn`'s effect
 * and the record the step is at least once: an execution that stops there
 * calls `fn` again; concurrent executions may each call it, and all return
 * the value recorded first.
 */
import { assertRecordable, fromJson, type Operations, toJson } from './operations';
import { commitEffect, readEffect } from './records';

export async function durableStep<T>(ops: Operations, name: string, fn: (idempotencyKey: string) => T | Promise<T>): Promise<Awaited<T>> {
  const op = ops.next('step', name);
  const recorded = await readEffect(ops.table, op.key);
  if (recorded?.state === 'committed') return fromJson<Awaited<T>>(recorded.result);
  const json = toJson(await fn(op.idempotencyKey));
  assertRecordable(ops, op, json);
  const first = await commitEffect(ops.table, op.key, json, ops.port.recordTtl());
  return fromJson<Awaited<T>>(first ? first.result : json);
}
