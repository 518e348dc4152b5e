// The examples of docs/writing-workflows.md, taken from the snippet files the page shows (never
// copies), so that test/types/types.test.ts type-checks them and test/compiler/docs-examples.test.ts
// compiles them: the documentation stays true.
import '../docs/public-entries';
import type { Definition } from '../../lib/definition';
import { chain, choice, fold, loop, map, mapRetryCatch, nestedMap, parallel, passSucceedFail, resultSelector, retryCatch } from '../../docs/snippets/workflows/dsl';
import { jsonataOrder } from '../../docs/snippets/workflows/jsonata';
import { waits } from '../../docs/snippets/workflows/waits-and-callbacks';

export const examples: Record<string, () => Definition> = {
  chain,
  parallel,
  map,
  nestedMap,
  fold,
  choice,
  loop,
  retryCatch,
  mapRetryCatch,
  passSucceedFail,
  resultSelector,
  jsonataOrder,
  wait: waits,
};
