import fc from 'fast-check';
import { Chain, Choice, Condition, Fail, Fold, MapState, Parallel, Pass, Succeed, type IChainable } from '../../lib/definition';
import { ENTRY, task } from './helpers';

/**
 * A serializable description of a random definition, so that the same spec
 * can be built twice (fresh state objects) and compiled twice.
 */
export type Step =
  | { readonly kind: 'task'; readonly retry: boolean; readonly catchTo: boolean }
  | { readonly kind: 'pass' }
  | { readonly kind: 'parallel'; readonly branches: readonly Seq[]; readonly fold: boolean }
  | { readonly kind: 'map'; readonly body: Seq; readonly fold: boolean }
  | { readonly kind: 'loop'; readonly body: Seq };

/** Steps in order, optionally ended by a terminal (Succeed, Fail or a Choice whose arms are sequences). */
export interface Seq {
  readonly steps: readonly Step[];
  readonly end?: { readonly kind: 'succeed' } | { readonly kind: 'fail' } | { readonly kind: 'choice'; readonly arms: readonly Seq[]; readonly otherwise: boolean };
}

const { seq } = fc.letrec<{ seq: Seq; step: Step }>((tie) => ({
  step: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'nesting', withCrossShrink: true },
    fc.record({ kind: fc.constant('task' as const), retry: fc.boolean(), catchTo: fc.boolean() }),
    fc.record({ kind: fc.constant('pass' as const) }),
    fc.record({ kind: fc.constant('parallel' as const), branches: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }), fold: fc.boolean() }),
    fc.record({ kind: fc.constant('map' as const), body: tie('seq'), fold: fc.boolean() }),
    fc.record({ kind: fc.constant('loop' as const), body: tie('seq') }),
  ),
  seq: fc.record(
    {
      steps: fc.array(tie('step'), { minLength: 1, maxLength: 3 }),
      end: fc.oneof(
        { maxDepth: 3, depthIdentifier: 'nesting' },
        fc.record({ kind: fc.constant('succeed' as const) }),
        fc.record({ kind: fc.constant('fail' as const) }),
        fc.record({ kind: fc.constant('choice' as const), arms: fc.array(tie('seq'), { minLength: 1, maxLength: 2 }), otherwise: fc.boolean() }),
      ),
    },
    { requiredKeys: ['steps'] },
  ),
}));

export const randomSeq = seq;

/** Builds fresh states for `spec`; names are numbered in build order, so they are unique and deterministic. */
export function build(spec: Seq): IChainable {
  let counter = 0;
  const name = (prefix: string): string => `${prefix}${counter++}`;

  const buildSeq = (s: Seq, loopBody = false): Chain => {
    let chain = Chain.sequence();
    for (const step of s.steps) chain = chain.next(buildStep(step));
    // A loop body must stay open so that it can reach the loop's Choice.
    if (!s.end || loopBody) return chain;
    if (s.end.kind === 'succeed') return chain.next(new Succeed(name('S')));
    if (s.end.kind === 'fail') return chain.next(new Fail(name('F')));
    const choice = new Choice(name('C'));
    s.end.arms.forEach((arm, i) => choice.when(Condition.numberEquals('$.n', i), buildSeq(arm)));
    if (s.end.otherwise) choice.otherwise(new Pass(name('O')));
    return chain.next(choice);
  };

  const fanOutWithFold = (state: IChainable, fold: boolean): IChainable => (fold ? Chain.start(state).next(new Fold(name('Fold'), { entry: ENTRY, initial: 0 })) : state);

  const buildStep = (step: Step): IChainable => {
    switch (step.kind) {
      case 'task': {
        const t = task(name('T'));
        if (step.retry) t.addRetry({ errors: ['E'], maxAttempts: 2 });
        if (step.catchTo) t.addCatch(new Pass(name('H')));
        return t;
      }
      case 'pass':
        return new Pass(name('P'));
      case 'parallel': {
        const p = new Parallel(name('Par'));
        for (const b of step.branches) p.branch(buildSeq(b));
        return fanOutWithFold(p, step.fold);
      }
      case 'map':
        return fanOutWithFold(new MapState(name('Map')).itemProcessor(buildSeq(step.body)), step.fold);
      case 'loop': {
        const head = new Pass(name('Head'));
        const body = Chain.start(head).next(buildSeq(step.body, true));
        const again = new Choice(name('Again')).when(Condition.booleanEquals('$.again', true), head);
        return body.next(again.afterwards({ includeOtherwise: true }));
      }
    }
  };

  return buildSeq(spec);
}
