/**
 * The effect operations of one handler call: each gets an id from its kind,
 * its name and how many operations of that kind and name the call ran before
 * it, so that every execution of the invocation that runs the same code gives
 * the same operation the same id (and finds what an earlier execution logged).
 */
import { createHash } from 'node:crypto';
import { UnumError } from '../contract/errors';
import { EFFECTS_PORT, type EffectsPort } from '../step/handler-context';
import type { UnumContext } from '../contract/handler-api';
import type { DynamoDbTarget } from '../ports/store';
import { effectKey } from '../contract/table';

/** A misused effect operation, or one whose outcome cannot be established. */
export class EffectError extends UnumError {
  override name = 'EffectError';
}

export type OperationKind = 'step' | 'transaction' | 'update' | 'postgres';

export interface Operation {
  /** `<kind>:<name>:<occurrence>` (the name URI-encoded: no `#`). */
  readonly id: string;
  /** The key of its effect record. */
  readonly key: string;
  /** The handler's idempotency key narrowed to this operation (43 characters). */
  readonly idempotencyKey: string;
}

/** One handler call's effects: what they need from the execution, and the counters. */
export interface Operations {
  readonly context: UnumContext;
  readonly port: EffectsPort;
  /** The workflow table, where effect records go. */
  readonly table: DynamoDbTarget;
  next(kind: OperationKind, name: string): Operation;
}

const operations = new WeakMap<UnumContext, Operations>();

const MAX_NAME_LENGTH = 256;

/** The operations of the call whose context is `context` (the same object for every call with it). */
export function operationsOf(context: UnumContext): Operations {
  const known = operations.get(context);
  if (known) return known;
  const port = (context as unknown as Record<symbol, EffectsPort | undefined>)[EFFECTS_PORT];
  if (!port) throw new EffectError('unum effects: pass the unum context, the last argument of your handler (handler(input, lambdaContext, unum))');
  const table = port.store.dynamoDb;
  if (!table) throw new EffectError(`node ${context.node}: effects need the workflow's DynamoDB table, and this handler's store has none`);
  const counts = new Map<string, number>();
  const ops: Operations = {
    context,
    port,
    table,
    next(kind, name) {
      if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME_LENGTH) {
        throw new EffectError(`node ${context.node}: an effect's name must be a string of 1-${MAX_NAME_LENGTH} characters, got ${JSON.stringify(name)}`);
      }
      const counter = `${kind}:${encodeURIComponent(name)}`;
      const n = counts.get(counter) ?? 0;
      counts.set(counter, n + 1);
      const id = `${counter}:${n}`;
      return { id, key: effectKey(context.invocation, id), idempotencyKey: createHash('sha256').update(`${context.idempotencyKey}#${id}`).digest('base64url') };
    },
  };
  operations.set(context, ops);
  return ops;
}

/** A value as it is recorded and returned: its JSON (`undefined` stays undefined). */
export const toJson = (value: unknown): string | undefined => (value === undefined ? undefined : JSON.stringify(value));
export const fromJson = <T>(json: string | undefined): T => (json === undefined ? undefined : JSON.parse(json)) as T;

/** DynamoDB's item limit less room for the key and attributes: a recorded value must fit. */
const MAX_RECORDED_BYTES = 400 * 1024 - 1024;

export function assertRecordable(ops: Operations, op: Operation, json: string | undefined): void {
  const bytes = json === undefined ? 0 : Buffer.byteLength(json, 'utf8');
  if (bytes > MAX_RECORDED_BYTES) {
    throw new EffectError(`node ${ops.context.node}: the value of effect ${op.id} is ${bytes} bytes, more than an effect record holds (${MAX_RECORDED_BYTES})`);
  }
}
