/**
 * User code of the redeploy campaign's workflows (app.ts). Deterministic:
 * each deployment of a workflow defines one result, which its reference run
 * records; the shapes differ in which of these handlers a node runs.
 */

type Steps = { readonly steps?: readonly string[] };

/** A node of the chain that says which node it was: a renamed or removed node shows in the result. */
const stepNamed = (name: string) => async (input: Steps): Promise<Steps> => ({ steps: [...(input.steps ?? []), name] });
export const stepA = stepNamed('A');
export const stepB = stepNamed('B');
export const stepB2 = stepNamed('B2');
export const stepC = stepNamed('C');

/** The callback Task: hands out nothing (the campaign finds the token in the engine's traffic and answers it). */
export async function ask(): Promise<{ requested: true }> { return { requested: true }; }

/** What Compute sees of the callback's answer: none once shape 4 removed the Task. */
type Approved = { readonly x: number; readonly approval?: unknown };
export async function computeV1(input: Approved): Promise<{ computed: number; approved: boolean }> { return { computed: input.x + 1, approved: input.approval !== undefined }; }
/** Shape 3's Compute: the same node, another result. */
export async function computeV3(input: Approved): Promise<{ computed: number; approved: boolean; by: string }> { return { computed: input.x * 10, approved: input.approval !== undefined, by: 'v3' }; }
export async function extra(input: { x: number }): Promise<{ extra: number }> { return { extra: -input.x }; }

export async function start(input: { x: number }): Promise<{ x: number }> { return { x: input.x }; }
export async function times1(input: { x: number }): Promise<number> { return input.x; }
export async function times2(input: { x: number }): Promise<number> { return input.x * 2; }
export async function times3(input: { x: number }): Promise<number> { return input.x * 3; }
export async function sum(input: number[]): Promise<{ sum: number; parts: number[] }> {
  return { sum: input.reduce((a, b) => a + b, 0), parts: input };
}

export async function items(input: { n: number }): Promise<{ items: number[] }> {
  return { items: Array.from({ length: input.n }, (_, i) => i + 1) };
}
export async function inc(input: number): Promise<number> { return input + 1; }
/** Shape 2's item handler: the Map's items give another result. */
export async function incTwice(input: number): Promise<number> { return input + 2; }
export async function total(input: number[]): Promise<{ total: number; items: number[] }> {
  return { total: input.reduce((a, b) => a + b, 0), items: input };
}
/** Shape 3's node after the Map, renamed and with a result of its own. */
export async function grandTotal(input: number[]): Promise<{ grandTotal: number }> { return { grandTotal: input.reduce((a, b) => a + b, 0) }; }
