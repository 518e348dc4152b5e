/**
 * Exactly-once DynamoDB writes. A transaction carries a marker of its
 * operation (an effect record in the workflow table, put only if absent), so
 * it applies once however often the handler runs: a later execution's
 * transaction is cancelled on the marker and reports the write as applied
 * before. A single-item update logs its operation in the item it updates
 * (runtime/contract/table/ `loggedUpdate`), in the same UpdateItem.
 */
import {
  type TransactWriteItem,
  TransactWriteItemsCommand,
  type TransactWriteItemsCommandInput,
  UpdateItemCommand,
  type UpdateItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { sleep } from '../ports/pool';
import { effectCommit, holdsOperation, type Item, loggedUpdate } from '../contract/table';
import { EffectError, type Operations } from './operations';

/** Whether this call applied the write, or an earlier execution of the invocation had. */
export interface WriteOutcome {
  readonly replayed: boolean;
}

export interface TransactWriteOptions {
  /** Names the operation (with its occurrence under that name) instead of the default `transaction`. */
  readonly name?: string;
}

export interface UpdateOutcome extends WriteOutcome {
  /** What `ReturnValues` asked for, when this call applied the update. */
  readonly attributes?: Item;
}

/** TransactWriteItems' limit, one of which is the marker. */
const MAX_ITEMS = 100;
/** Tries when a concurrent execution's transaction conflicts with ours. */
const CONFLICT_TRIES = 8;

interface Cancellation extends Error {
  readonly CancellationReasons?: readonly { readonly Code?: string }[];
}

const cancellation = (e: unknown): Cancellation | undefined => (e instanceof Error && e.name === 'TransactionCanceledException' ? (e as Cancellation) : undefined);

export async function transactWrite(ops: Operations, items: readonly TransactWriteItem[], options: TransactWriteOptions = {}): Promise<WriteOutcome> {
  if (!Array.isArray(items) || items.length === 0 || items.length >= MAX_ITEMS) {
    throw new EffectError(`node ${ops.context.node}: transactWrite takes 1-${MAX_ITEMS - 1} items (one more is the operation marker), got ${Array.isArray(items) ? items.length : typeof items}`);
  }
  const op = ops.next('transaction', options.name ?? 'transaction');
  const marker: TransactWriteItem = { Put: { TableName: ops.table.tableName, ...effectCommit(op.key, undefined, ops.port.recordTtl()) } };
  const input: TransactWriteItemsCommandInput = { TransactItems: [...items, marker] };
  for (let attempt = 1; ; attempt++) {
    try {
      await ops.table.client.send(new TransactWriteItemsCommand(input));
      return { replayed: false };
    } catch (e) {
      const reasons = cancellation(e)?.CancellationReasons;
      if (reasons?.[items.length]?.Code === 'ConditionalCheckFailed') return { replayed: true };
      // Another execution of this invocation (or anyone) is writing the same items: try again, then the marker tells.
      if (!reasons?.some((r) => r.Code === 'TransactionConflict') || attempt >= CONFLICT_TRIES) throw e;
      await sleep(Math.min(1000, 20 * 2 ** attempt) * Math.random());
    }
  }
}

/** An UpdateItem input: the user's, without the return options the log sets. */
export type UpdateItemInput = Omit<UpdateItemCommandInput, 'ReturnValuesOnConditionCheckFailure' | 'UpdateExpression'> & { readonly UpdateExpression: string };

export interface UpdateItemOptions {
  /** Names the operation (with its occurrence under that name) instead of the default `update`. */
  readonly name?: string;
}

/**
 * Applies the update once among the executions of the invocation that come
 * within one window of the first (the node's handoff rounded up to a power
 * of two seconds; the item keeps the tags of about three): Lambda's retries
 * and redeliveries always do. An execution later than that (a redrive, or a
 * `unum recover` replay, days after) may apply it again: the item forgot the
 * tag, and keeping tags for the whole redrive window would grow every item
 * with its updates. `transactWrite`'s marker lives in the workflow table for
 * the checkpoint retention, the redrive window (docs/architecture.md "Effects").
 */
export async function updateItem(ops: Operations, request: UpdateItemInput, options: UpdateItemOptions = {}): Promise<UpdateOutcome> {
  if (typeof request?.UpdateExpression !== 'string') throw new EffectError(`node ${ops.context.node}: updateItem needs an UpdateExpression`);
  const op = ops.next('update', options.name ?? 'update');
  // 16 characters (96 bits) of the operation's key: what each logged operation adds to the item.
  const tag = op.idempotencyKey.slice(0, 16);
  const now = Math.floor(Date.now() / 1000);
  const window = ops.port.handoffSeconds;
  try {
    const r = await ops.table.client.send(new UpdateItemCommand({ ...loggedUpdate(request, tag, now, window), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
    return { replayed: false, ...(r.Attributes ? { attributes: r.Attributes } : {}) };
  } catch (e) {
    if (e instanceof Error && e.name === 'ConditionalCheckFailedException' && holdsOperation((e as { Item?: Item }).Item, tag, now, window)) return { replayed: true };
    throw e;
  }
}
