import type { Json } from '../../runtime/contract/ir';
import { Choice, Condition } from '../definition';
import type { StateReader } from './context';
import { conditionOf } from './conditions';
import { withPathsBefore } from './io-pass';

type AslRule = { readonly Next: string } & { readonly [field: string]: Json };

/**
 * Choice: rules in order, first match wins; `Default` when none matches
 * (without it the run fails with States.NoChoiceMatched). The rules see the
 * effective input (after InputPath), which is also what the next state gets.
 */
export const choiceReader: StateReader = {
  create(ctx, name, state) {
    if (state.OutputPath !== undefined && state.OutputPath !== '$') {
      ctx.report.fail(name, 'OutputPath', 'OutputPath is not supported on a Choice state: its rules see the InputPath selection, and the selected output would need a step after the decision; put the path on a Pass state after it');
    }
    return withPathsBefore(ctx, name, state, (id) => new Choice(id));
  },

  wire(ctx, name, state, created, lookup) {
    const choice = created.exit as Choice;
    (state.Choices as AslRule[]).forEach((rule, i) => {
      choice.when(Condition.fromIr(conditionOf(ctx.report, name, `Choices[${i}]`, rule)), lookup(rule.Next));
    });
    if (typeof state.Default === 'string') choice.otherwise(lookup(state.Default));
  },
};
