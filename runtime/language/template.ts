/**
 * ASL payload templates (Parameters, ResultSelector, ItemSelector): plain JSON
 * where a key ending in `.$` takes its value from a path of the input, a
 * context path (`$$.`) or an intrinsic function call.
 */
import { runtimeError } from '../contract/errors';
import { evalIntrinsic, parseIntrinsic } from './intrinsics';
import type { Json, PayloadTemplate } from '../contract/ir';
import { pathOf, selectReference } from './paths';

export function applyTemplate(template: PayloadTemplate, input: Json, context: Json): Json {
  if (Array.isArray(template)) return template.map((t) => applyTemplate(t, input, context));
  if (typeof template !== 'object' || template === null) return template;
  const out: { [k: string]: Json } = {};
  for (const [key, spec] of Object.entries(template)) {
    if (!key.endsWith('.$')) {
      out[key] = applyTemplate(spec, input, context);
      continue;
    }
    const what = `template key ${key}`;
    if (typeof spec !== 'string') throw runtimeError(`${what} needs a path or intrinsic string`);
    out[key.slice(0, -2)] = templateValue(spec, input, context, what);
  }
  return out;
}

/** One `.$` value: a path of the input (`$...`), of the context (`$$...`), or an intrinsic function call. */
export function templateValue(expression: string, input: Json, context: Json, what: string): Json {
  return expression.startsWith('$') ? selectReference(pathOf(expression, 'template'), expression, input, context, what) : evalIntrinsic(parseIntrinsic(expression), input, context);
}
