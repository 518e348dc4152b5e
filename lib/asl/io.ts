import type { Json } from '../../runtime/contract/ir';
import type { TemplateContext } from '../compiler/jsonpath';
import type { IoProps } from '../definition/io';
import type { Reporter } from './errors';
import { checkTemplate } from './templates';
import type { AslState } from './types';

/** The ASL io fields and the DSL prop each one becomes (same meaning, same order of application). */
const IO_FIELDS = {
  InputPath: 'inputPath',
  Parameters: 'parameters',
  ResultSelector: 'resultSelector',
  ResultPath: 'resultPath',
  OutputPath: 'outputPath',
} as const;

export type AslIoField = keyof typeof IO_FIELDS;

/**
 * The io props of a state from the given ASL fields. Path fields keep `null`
 * (ASL: InputPath/OutputPath null = `{}`, ResultPath null = discard the
 * result); templates are checked for what the runtime can evaluate
 * (`parameters`: where Parameters is evaluated, a callback Task's reads `$$.Task.Token`).
 */
export function ioProps(report: Reporter, name: string, state: AslState, fields: readonly AslIoField[], parameters: TemplateContext = 'state'): IoProps {
  const out: Record<string, Json> = {};
  for (const field of fields) {
    const value = state[field];
    if (value === undefined) continue;
    if (field === 'Parameters' || field === 'ResultSelector') checkTemplate(report, name, field, value, field === 'Parameters' ? parameters : 'state');
    out[IO_FIELDS[field]] = value;
  }
  return out as IoProps;
}

/**
 * A JSONata Task's io: `Arguments` (the handler's input) and `Output`, whose
 * expressions the compiler checks. A `lambda:invoke` Task's JSONata
 * `Arguments` name the function and wrap the payload, and its result is
 * Lambda's invoke response: not translated yet, so refused; a callback Task too.
 */
export function jsonataIo(report: Reporter, name: string, state: AslState, target: { readonly lambdaInvoke: boolean; readonly callback: boolean }): IoProps {
  if (target.lambdaInvoke || target.callback) refuseJsonataIntegration(report, name);
  return {
    queryLanguage: 'JSONata',
    ...(state.Arguments !== undefined ? { arguments: state.Arguments } : {}),
    ...(state.Output !== undefined ? { outputs: state.Output } : {}),
  };
}

/** The given JSONata fields of a state that are there, as the DSL props they become. */
export function jsonataFields<K extends string>(state: AslState, fields: Readonly<Record<string, K>>): Partial<Record<K, Json>> {
  const out: Partial<Record<K, Json>> = {};
  for (const [field, prop] of Object.entries(fields)) if (state[field] !== undefined) out[prop] = state[field];
  return out;
}

export function refuseJsonataIntegration(report: Reporter, name: string): void {
  report.fail(name, 'Resource', 'a JSONata Task is supported with a function Resource (a Lambda ARN or a function name), not yet with arn:aws:states:::lambda:invoke or .waitForTaskToken');
}
