import type { UnumContext } from '../../runtime/contract/handler-api';
import type { Json, JsonPath, PayloadTemplate } from '../../runtime/contract/ir';
import type { LambdaContext } from '../../runtime/contract/handler-api';

export type { Json, JsonPath, PayloadTemplate };

/**
 * The type of a step whose types are not declared: it chains with anything,
 * as in aws-stepfunctions. Declared types (`new Task<In, Out>`) are checked.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- `unknown` would make every untyped chain a type error
export type Untyped = any;

/**
 * Carries a step's input and output types at compile time only (never set at
 * run time). `input` is a function parameter so that it is checked
 * contravariantly: a step accepting `{a: string}` can follow a step producing
 * `{a: string, b: number}`, but not the other way round.
 */
export interface TypeWitness<I, O> {
  readonly input: (input: I) => void;
  readonly output: O;
}

/**
 * A user handler: what a `Task` export looks like. It is called with its
 * input, Lambda's context and the unum context (`unum-cdk/effects`: run,
 * invocation, `idempotencyKey`, and what the effect operations need); a
 * handler may declare fewer parameters.
 */
export type Handler<I, O> = (input: I, lambdaContext: LambdaContext, unum: UnumContext) => O | Promise<O>;

/** A fold step handler: `export(acc, item, index, unum)` returns the next accumulator. */
export type FoldHandler<Acc, Item> = (acc: Acc, item: Item, index: number, unum: UnumContext) => Acc | Promise<Acc>;

/** The input type of a handler, e.g. `InputOf<typeof handlers.resize>`. */
export type InputOf<H> = H extends (input: infer I, ...rest: never[]) => unknown ? I : never;

/** The (awaited) output type of a handler. */
export type OutputOf<H> = H extends (...args: never[]) => infer R ? Awaited<R> : never;

/** The kinds of state; the compiler switches on this. */
export type StateKind = 'task' | 'pass' | 'wait' | 'fold' | 'parallel' | 'map' | 'choice' | 'succeed' | 'fail';
