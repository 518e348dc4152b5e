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
