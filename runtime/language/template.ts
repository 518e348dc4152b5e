/**
 * ASL payload templates (Parameters, ResultSelector, ItemSelector): plain JSON
 * where a key ending in `.$` takes its value from a path of the input, a
 * context path (`$$.`) or an intrinsic function call.
 */
import { runtimeError } from '../contract/errors';
import { evalIntrinsic, parseIntrinsic } from './intrinsics';
import type { Json, PayloadTemplate } from '../contract/ir';
import { pathOf, selectReference } from './paths';

/** `at`: where `template` sits in the whole template, which tells apart equal intrinsic calls under different keys. */
export function applyTemplate(template: PayloadTemplate, input: Json, context: Json, at = '$'): Json {
  if (Array.isArray(template)) return template.map((t, i) => applyTemplate(t, input, context, `${at}[${i}]`));
  if (typeof template !== 'object' || template === null) return template;
  const out: { [k: string]: Json } = {};
  for (const [key, spec] of Object.entries(template)) {
    const place = `${at}[${JSON.stringify(key)}]`;
    if (!key.endsWith('.$')) {
      out[key] = applyTemplate(spec, input, context, place);
      continue;
    }
    const what = `template key ${key}`;
    if (typeof spec !== 'string') throw runtimeError(`${what} needs a path or intrinsic string`);
    out[key.slice(0, -2)] = templateValue(spec, input, context, what, place);
  }
  return out;
}

/** One `.$` value: a path of the input (`$...`), of the context (`$$...`), or an intrinsic function call; `site` names its place (intrinsics.ts `evalIntrinsic`). */
export function templateValue(expression: string, input: Json, context: Json, what: string, site = what): Json {
  return expression.startsWith('$') ? selectReference(pathOf(expression, 'template'), expression, input, context, what) : evalIntrinsic(parseIntrinsic(expression), input, context, site);
}
