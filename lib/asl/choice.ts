import type { Json } from '../../runtime/contract/ir';
import { Choice, Condition, QueryLanguage } from '../definition';
import type { StateReader } from './context';
import { conditionOf } from './conditions';
import { checkKeys } from './fields';
import { withPathsBefore } from './io-pass';

type AslRule = { readonly Next: string } & { readonly [field: string]: Json };

/**
 * Choice: rules in order, first match wins; `Default` when none matches
 * (without it the run fails with States.NoChoiceMatched). The rules see the
 * effective input (after InputPath), which is also what the next state gets.
 * A JSONata Choice's rules are each one `Condition` expression.
 */
export const choiceReader: StateReader = {
  create(ctx, name, state) {
    if (state.OutputPath !== undefined && state.OutputPath !== '$') {
      ctx.report.fail(name, 'OutputPath', 'OutputPath is not supported on a Choice state: its rules see the InputPath selection, and the selected output would need a step after the decision; put the path on a Pass state after it');
    }
    if (state.QueryLanguage === 'JSONata') return new Choice(ctx.names.node(name), { queryLanguage: QueryLanguage.JSONATA });
    return withPathsBefore(ctx, name, state, (id) => new Choice(id));
  },

  wire(ctx, name, state, created, lookup) {
    const choice = created.exit as Choice;
    const jsonata = state.QueryLanguage === 'JSONata';
    (state.Choices as AslRule[]).forEach((rule, i) => {
      if (jsonata) checkKeys(ctx.report, name, `Choices[${i}]`, rule, ['Condition', 'Next', 'Comment']);
      const condition = jsonata ? Condition.jsonata(rule.Condition as string) : Condition.fromIr(conditionOf(ctx.report, name, `Choices[${i}]`, rule));
      choice.when(condition, lookup(rule.Next));
    });
    if (typeof state.Default === 'string') choice.otherwise(lookup(state.Default));
  },
};
