/**
 * What the compiler's result tells the construct, so that it recomputes
 * nothing: whether functions may invoke themselves again (`loops`), and each
 * node's resolved Lambda async settings (`async`).
 */
import fc from 'fast-check';
import { Chain, Choice, Condition, Fold, MapState, Pass } from '../../lib/definition';
import type { CompiledWorkflow } from '../../lib/compiler';
import { ENTRY, compile, task } from './helpers';
import { build, randomSeq } from './random-definitions';

/** Oracle: some node reaches itself through `successors` (a depth-first search for a node on the current path). */
function successorsHaveCycle(compiled: CompiledWorkflow): boolean {
  const done = new Set<string>();
  const onPath = new Set<string>();
  const reachesItself = (node: string): boolean => {
    if (onPath.has(node)) return true;
    if (done.has(node)) return false;
    onPath.add(node);
    const found = compiled.nodes[node].successors.some(reachesItself);
    onPath.delete(node);
    done.add(node);
    return found;
  };
  return Object.keys(compiled.nodes).some(reachesItself);
}

describe('loops', () => {
  test('false for a chain, true for a Choice loop and for a Fold', () => {
    expect(compile(task('A').next(task('B'))).loops).toBe(false);

    const step = task('Step');
    const loop = new Choice('Again').when(Condition.numberLessThan('$.n', 3), step).otherwise(new Pass('Done'));
    expect(compile(Chain.start(step).next(loop)).loops).toBe(true);

    const map = new MapState('Each').itemProcessor(task('Item'));
    expect(compile(Chain.start(map).next(new Fold('Sum', { entry: ENTRY, initial: 0 }))).loops).toBe(true);
  });

  test('true exactly when some node can reach itself through its successors (random definitions)', () => {
    // fast-check prints the seed and the shrunk counterexample on failure.
    fc.assert(
      fc.property(randomSeq, (spec) => {
        const compiled = compile(build(spec));
        expect(compiled.loops).toBe(successorsHaveCycle(compiled));
      }),
      { numRuns: 300 },
    );
  });
});

describe('async settings', () => {
  test("a node's own value wins over the workflow's, which wins over Lambda's defaults (2 retries, 6 hours)", () => {
    // The Pass starts the workflow, so it is a node of its own, with a function but no user code.
    const definition = Chain.start(new Pass('Start')).next(task('Own', { retryAttempts: 0, maxEventAgeSeconds: 60 })).next(task('Inherits'));
    expect(compile(definition).nodes.Inherits.async).toEqual({ retryAttempts: 2, maxEventAgeSeconds: 21600 });

    const compiled = compile(definition, { retryAttempts: 1, maxEventAgeSeconds: 3600 });
    expect(compiled.nodes.Own.async).toEqual({ retryAttempts: 0, maxEventAgeSeconds: 60 });
    expect(compiled.nodes.Inherits.async).toEqual({ retryAttempts: 1, maxEventAgeSeconds: 3600 });
    expect(compiled.nodes.Start.async).toEqual({ retryAttempts: 1, maxEventAgeSeconds: 3600 });
    // The function spec keeps only what the node itself sets.
    expect(compiled.nodes.Inherits.fn.retryAttempts).toBeUndefined();
  });
});
