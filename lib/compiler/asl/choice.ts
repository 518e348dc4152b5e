import type { Json } from '../../../runtime/ir';
import { Choice, Condition } from '../../definition';
import type { StateReader } from './context';
import { conditionOf } from './conditions';

type AslRule = { readonly Next: string } & { readonly [field: string]: Json };

/** Choice: rules in order, first match wins; `Default` when none matches (without it the run fails with States.NoChoiceMatched). */
export const choiceReader: StateReader = {
  create(ctx, name) {
    return new Choice(ctx.names.node(name));
  },

  wire(ctx, name, state, created, lookup) {
    const choice = created as Choice;
    (state.Choices as AslRule[]).forEach((rule, i) => {
      choice.when(Condition.fromIr(conditionOf(ctx.report, name, `Choices[${i}]`, rule)), lookup(rule.Next));
    });
    if (typeof state.Default === 'string') choice.otherwise(lookup(state.Default));
  },
};
