// Type-level tests: compiled by test/types/types.test.ts (and by `npm run typecheck`).
// Each `@ts-expect-error` must stay an error; if it stops being one, tsc reports it.
import { Chain, Choice, Condition, Definition, Fail, Fold, MapState, Parallel, Pass, Succeed, Task, type Handler, type InputOf, type OutputOf } from '../../lib/definition';

const entry = '/project/handlers.ts';

const fetch = new Task<{ url: string }, { bytes: number; type: string }>('Fetch', { entry, handler: 'fetch' });
const measure = new Task<{ bytes: number }, { size: 'small' | 'big' }>('Measure', { entry, handler: 'measure' });
const wantsUrl = new Task<{ url: string }, void>('WantsUrl', { entry });

// Output {bytes, type} is accepted where {bytes} is expected.
export const ok: Chain<{ url: string }, { size: 'small' | 'big' }> = fetch.next(measure);

// @ts-expect-error -- Measure's output has no `url`
measure.next(wantsUrl);

// @ts-expect-error -- the chain's output type is Measure's, not Fetch's
fetch.next(measure).next(new Task<{ url: string }, void>('Again', { entry }));

// Untyped states accept anything (defaults are `any`).
export const loose = new Task('L1', { entry }).next(new Task('L2', { entry })).next(measure);

// A chain ending in Succeed or Fail cannot continue.
// @ts-expect-error -- output of a terminal chain is never
fetch.next(new Succeed('Done')).next(measure);
// @ts-expect-error -- Fail is terminal too
Chain.start(new Fail('Nope')).next(measure);
// @ts-expect-error -- Succeed has no next() method at all
new Succeed('S2').next(measure);

// Parallel: branches accept the input; the declared output is a tuple.
const par = new Parallel<{ url: string }, [{ bytes: number; type: string }, void]>('P').branch(fetch, wantsUrl);
export const afterPar = par.next(new Task<[{ bytes: number }, void], string>('Merge', { entry }));
// @ts-expect-error -- Measure does not accept a number input
new Parallel<number, [number]>('P2').branch(measure);
// @ts-expect-error -- the join expects an object, but the Parallel outputs an array
par.next(measure);

// An object-building resultSelector: the third type parameter is the state's output.
const shaped = new Parallel<{ url: string }, [{ bytes: number; type: string }, void], { bytes: number }>('Shaped', { resultSelector: { 'bytes.$': '$[0].bytes' } }).branch(fetch, wantsUrl);
export const afterShaped: Chain<{ url: string }, { size: 'small' | 'big' }> = shaped.next(measure);
// @ts-expect-error -- the output is the selector's object, not the branch outputs' array
shaped.next(new Task<[{ bytes: number }, void], string>('MergeArray', { entry }));
// @ts-expect-error -- branches still produce the branch outputs' types
new Parallel<{ url: string }, [number], { n: number }>('Shaped2').branch(fetch);
// ResultPath merging into the input: the output is the input with the results beside it.
export const merged = new Parallel<{ url: string }, [{ bytes: number; type: string }], { url: string; results: [{ bytes: number }] }>('Merged', { resultPath: '$.results' })
  .branch(fetch)
  .next(new Task<{ url: string; results: [{ bytes: number }] }, void>('UseBoth', { entry }));

// Map: the processor produces the declared item output; a Fold consumes the array.
const perItem = new Task<{ url: string }, number>('PerItem', { entry });
const map = new MapState<{ urls: string[] }, number[]>('M', { itemsPath: '$.urls' }).itemProcessor(perItem);
const sum = new Fold<number, number>('Sum', { entry, handler: 'sum', initial: 0 });
export const summed: Chain<{ urls: string[] }, number> = map.next(sum);
// @ts-expect-error -- the processor must produce numbers
new MapState<{ urls: string[] }, number[]>('M2').itemProcessor(fetch);
// A Map with a resultSelector object: the next state takes the object, a Fold (which folds the items) does not.
const counted = new MapState<{ urls: string[] }, number[], { first: number }>('Counted', { itemsPath: '$.urls', resultSelector: { 'first.$': '$[0]' } }).itemProcessor(perItem);
export const afterCounted = counted.next(new Task<{ first: number }, void>('Report', { entry }));
// @ts-expect-error -- the item processor must still produce numbers
new MapState<{ urls: string[] }, number[], { first: number }>('Counted2').itemProcessor(fetch);
// @ts-expect-error -- a Fold needs the items' array, not the selector's object
counted.next(new Fold<number, number>('SumCounted', { entry, initial: 0 }));
// @ts-expect-error -- a Fold over strings cannot follow a Map of numbers
map.next(new Fold<string, string>('Concat', { entry, initial: '' }));
// @ts-expect-error -- the initial accumulator must have the accumulator's type
new Fold<number, number>('Bad', { entry, initial: 'zero' });

// Choice: arms accept the Choice's input.
const route = new Choice<{ size: 'small' | 'big' }>('Route')
  .when(Condition.stringEquals('$.size', 'big'), new Pass<{ size: string }>('Big'))
  .otherwise(new Succeed('Small'));
export const routed = measure.next(route);
// @ts-expect-error -- Fetch expects {url}, the Choice input is {size}
route.when(Condition.isPresent('$.x'), fetch);

// Definitions keep the workflow's input and output types.
export const definition: Definition<{ url: string }, { size: 'small' | 'big' }> = Definition.from(fetch.next(measure));
// @ts-expect-error -- wrong workflow input type
export const wrongDefinition: Definition<{ id: number }, unknown> = Definition.from(fetch.next(measure));

// Typed handlers: derive a Task's types from the handler function.
export const resize: Handler<{ key: string }, { thumb: string }> = async (input) => ({ thumb: `${input.key}.thumb` });
export const resizeTask = new Task<InputOf<typeof resize>, OutputOf<typeof resize>>('Resize', { entry, handler: 'resize' });
export const thumbs: Chain<{ key: string }, void> = resizeTask.next(new Task<{ thumb: string }, void>('Store', { entry }));
// @ts-expect-error -- a handler must return its declared output
export const badHandler: Handler<{ key: string }, { thumb: string }> = async () => ({ thumbnail: 'x' });
