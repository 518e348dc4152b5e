/**
 * User code of the fault-test workflows. Some of it is deliberately
 * non-deterministic (random numbers, timestamps): the checker then expects
 * the result the committed (first-writer) checkpoints imply, not a fixed one.
 */

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface X { readonly x: number; readonly nonce?: number; readonly at?: number }

// chain3: A -> B -> C
export async function chainA(input: X): Promise<X> { return { x: input.x + 1, nonce: Math.random() }; }
export async function chainB(input: X): Promise<X> { return { ...input, x: input.x * 2 }; }
export async function chainC(input: X): Promise<X> { return { ...input, x: input.x + 3, at: Date.now() }; }

// parallel3: Start -> [Times1, Times2, Times3] -> Sum
export async function start(input: X): Promise<X> { return { x: input.x }; }
export async function times1(input: X): Promise<number> { return input.x * 1; }
export async function times2(input: X): Promise<number> { return input.x * 2; }
export async function times3(input: X): Promise<number> { return input.x * 3; }
export async function sum(input: number[]): Promise<{ sum: number; parts: number[] }> {
  return { sum: input.reduce((a, b) => a + b, 0), parts: input };
}

// map5: Items -> Map[Square] -> Total
export async function items(input: { n: number }): Promise<{ items: number[] }> {
  return { items: Array.from({ length: input.n }, (_, i) => i + 1) };
}
/** The random part never reaches the result: only `sq` does. */
export async function square(input: number): Promise<{ sq: number; noise: number }> { return { sq: input * input, noise: Math.random() }; }
export async function total(input: Array<{ sq: number }>): Promise<{ total: number }> {
  return { total: input.reduce((a, b) => a + b.sq, 0) };
}

// nestedMap: Groups -> Map[Map[Inc] -> GroupSum] -> GrandTotal
export async function groups(input: { groups: number[][] }): Promise<{ groups: Array<{ items: number[] }> }> {
  return { groups: input.groups.map((items) => ({ items })) };
}
export async function inc(input: number): Promise<number> { return input + 1; }
export async function groupSum(input: number[]): Promise<number> { return input.reduce((a, b) => a + b, 0); }
export async function grandTotal(input: number[]): Promise<{ sums: number[]; total: number }> {
  return { sums: input, total: input.reduce((a, b) => a + b, 0) };
}

// choice: Classify -> Choice(size > 10 ? Big : Small)
export async function classify(input: { n: number }): Promise<{ n: number; size: number }> { return { n: input.n, size: input.n * 3 }; }
export async function big(input: { n: number; size: number }): Promise<string> { return `big ${input.size}`; }
export async function small(input: { n: number; size: number }): Promise<string> { return `small ${input.size}`; }

// loop: Step (n--, acc += n) while n > 0, then Done
export async function step(input: { n: number; acc?: number }): Promise<{ n: number; acc: number }> {
  return { n: input.n - 1, acc: (input.acc ?? 0) + input.n };
}
export async function done(input: { n: number; acc: number }): Promise<{ acc: number }> { return { acc: input.acc }; }

// fails: Prepare -> Boom, which always throws: Lambda's retries, then the failure recorder marks the run FAILED
export async function boom(): Promise<never> { throw new TypeError('boom'); }

// mapInParallel: Split -> [Map[Inc] | Double] -> Combine
export async function double(input: { x: number }): Promise<number> { return input.x * 2; }
export async function combine(input: [number[], number]): Promise<{ incs: number[]; doubled: number }> {
  return { incs: input[0], doubled: input[1] };
}

// parallelLoop: Init -> Round[Dec | Add] -> Merge -> (n > 0 ? Round : Done)
export async function init(input: { n: number }): Promise<{ n: number; acc: number }> { return { n: input.n, acc: 0 }; }
export async function dec(input: { n: number }): Promise<number> { return input.n - 1; }
export async function add(input: { n: number; acc: number }): Promise<number> { return input.acc + input.n; }
export async function merge(input: [number, number]): Promise<{ n: number; acc: number }> { return { n: input[0], acc: input[1] }; }

// foldAfterNestedMap: Groups -> Map[Map[Inc] -> GroupSum] -> Fold(addUp)
export async function addUp(acc: { total: number; order: number[] }, item: number, index: number): Promise<{ total: number; order: number[] }> {
  return { total: acc.total + item, order: [...acc.order, index] };
}

// catchInMap: Numbered -> Map[Risky, catching OddItem -> Recover] -> Tally
class OddItem extends Error {
  override readonly name = 'OddItem';
}
export async function numbered(input: { n: number }): Promise<{ items: Array<{ n: number }> }> {
  return { items: Array.from({ length: input.n }, (_, i) => ({ n: i + 1 })) };
}
export async function risky(input: { n: number }): Promise<{ sq: number }> {
  if (input.n % 2 === 1) throw new OddItem(`item ${input.n} is odd`);
  return { sq: input.n * input.n };
}
export async function recover(input: { n: number; error: { Error: string } }): Promise<{ sq: number; caught: string }> {
  return { sq: -input.n, caught: input.error.Error };
}
export async function tally(input: Array<{ sq: number; caught?: string }>): Promise<{ total: number; caught: number }> {
  return { total: input.reduce((a, b) => a + b.sq, 0), caught: input.filter((r) => r.caught !== undefined).length };
}

// stateRules: Numbered -> Map[Risky -> After (same)], retried once, then caught -> Report
export async function report(input: { items: unknown[]; failure: { Error: string } }): Promise<{ items: number; caught: string }> {
  return { items: input.items.length, caught: input.failure.Error };
}

// edgeMaps: Empty -> Map of 0 items -> OneMore -> Map of 1 item (each item also gets the first Map's result) -> Same
export async function empty(): Promise<{ none: number[] }> { return { none: [] }; }
export async function oneMore(none: number[]): Promise<{ none: number[]; one: number[] }> { return { none, one: [7] }; }
export async function incWith(input: { value: number; none: number[] }): Promise<{ inc: number; none: number[] }> {
  return { inc: input.value + 1, none: input.none };
}
export async function same<T>(input: T): Promise<T> { return input; }

/** CallbackRace's callback Task: hands out nothing (the campaign finds the token in the engine's traffic). */
export async function ask(): Promise<{ requested: true }> { return { requested: true }; }

/** Where RedriveAfterFailure's fix is "deployed" for run `runId`: its Flaky step fails until this file exists. */
export const flakyFixFile = (runId: string): string => path.join(os.tmpdir(), `unum-redrive-fix-${runId}`);

/** Fails (TypeError, so Lambda retries it, then the failure recorder fails the run) until the run's fix exists. */
export async function flaky(input: X, _lambda: unknown, unum: { readonly runId: string }): Promise<X> {
  if (!fs.existsSync(flakyFixFile(unum.runId))) throw new TypeError('not fixed yet');
  return { x: input.x + 5 };
}
