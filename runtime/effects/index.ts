/**
 * `unum-cdk/effects`: effects of a task handler that happen once however
 * often unum runs it (docs/architecture.md "Effects"). Bundled only into
 * functions whose handler imports it.
 *
 * ```ts
 * import { effects, type UnumContext } from 'unum-cdk/effects';
 * export async function handler(order: Order, _lambda: unknown, unum: UnumContext) {
 *   const fx = effects(unum);
 *   const charge = await fx.step('charge', (key) => payments.charge(order, { idempotencyKey: key }));
 *   await fx.dynamodb.transactWrite([{ Put: { TableName: 'orders', Item: orderItem(order, charge) } }]);
 * }
 * ```
 *
 * @module unum-cdk/effects
 */
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { UnumContext } from '../contract/handler-api';
import { transactWrite, type TransactWriteOptions, updateItem, type UpdateItemInput, type UpdateItemOptions, type UpdateOutcome, type WriteOutcome } from './dynamodb';
import { operationsOf } from './operations';
import { durableStep } from './step';

export type { UnumContext } from '../contract/handler-api';
export { EffectError } from './operations';
export type { TransactWriteOptions, UpdateItemInput, UpdateItemOptions, UpdateOutcome, WriteOutcome } from './dynamodb';

/** The effect operations of one handler call. Operations are matched across executions by kind, name and order: run them in the same order every time. */
export interface Effects {
  /**
   * Runs `fn` unless an execution of this invocation recorded its value, and
   * returns the recorded value (JSON: `fn`'s value as `JSON.stringify` keeps
   * it). At least once between `fn`'s effect and the record: give external
   * calls `fn`'s argument, an idempotency key of this step.
   */
  step<T>(name: string, fn: (idempotencyKey: string) => T | Promise<T>): Promise<Awaited<T>>;
  readonly dynamodb: {
    /**
     * TransactWriteItems with a marker of this operation in the workflow
     * table: the items are written exactly once. `replayed` when an earlier
     * execution wrote them (nothing is written then). A cancelled
     * transaction (a condition of yours failed) throws and records nothing.
     */
    transactWrite(items: readonly TransactWriteItem[], options?: TransactWriteOptions): Promise<WriteOutcome>;
    /**
     * UpdateItem applied exactly once at the price of a plain one: the
     * operation's 16-character tag is logged in the item in the same update
     * (kept for up to three windows of the node's handoff, see the docs).
     * `replayed` when the item holds the tag already.
     */
    updateItem(request: UpdateItemInput, options?: UpdateItemOptions): Promise<UpdateOutcome>;
  };
}

/** The effect operations of the handler call whose unum context (its last argument) is `unum`. */
export function effects(unum: UnumContext): Effects {
  const ops = operationsOf(unum);
  return {
    step: (name, fn) => durableStep(ops, name, fn),
    dynamodb: {
      transactWrite: (items, options) => transactWrite(ops, items, options),
      updateItem: (request, options) => updateItem(ops, request, options),
    },
  };
}
