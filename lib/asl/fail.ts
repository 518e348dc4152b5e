import { Fail, type FailProps } from '../definition';
import type { StateReader } from './context';

/**
 * Fail: ends the run with `Error` or `ErrorPath`, and `Cause` or
 * `CausePath`. The IR needs an error name: without either (Step Functions
 * then reports none) the ASL state name is recorded.
 */
export const failReader: StateReader = {
  create(ctx, name, state) {
    const text = (field: string): string | undefined => state[field] as string | undefined;
    // A JSONata Fail's Error and Cause are strings or {% %} expressions (the compiler checks them).
    if (state.QueryLanguage === 'JSONata') return Fail.jsonata(ctx.names.node(name), { error: text('Error') ?? name, ...(text('Cause') !== undefined ? { cause: text('Cause') } : {}) });
    const given = { error: text('Error'), errorPath: text('ErrorPath'), cause: text('Cause'), causePath: text('CausePath') };
    // Both of a pair are passed on: the compiler rejects them as ASL does, naming the field.
    const props: FailProps = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
    return new Fail(ctx.names.node(name), given.error === undefined && given.errorPath === undefined ? { ...props, error: name } : props);
  },
};
