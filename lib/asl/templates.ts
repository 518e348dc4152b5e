import type { Json } from '../../runtime/ir';
import type { Reporter } from './errors';

/** The intrinsic functions runtime/intrinsics.ts interprets. */
const INTRINSICS = new Set(['States.Format', 'States.Array', 'States.JsonMerge', 'States.StringToJson', 'States.JsonToString']);

/** Context paths the runtime's context object answers (runtime/interpreter.ts `contextObject`). */
const STATE_CONTEXT = /^\$\$\.(?:Execution\.Id|State\.Name)$/;
/** ...plus the current item, in a Map's ItemSelector only. */
const ITEM_CONTEXT = /^\$\$\.Map\.Item\.(?:Index$|Value(?:$|[.[]))/;

/** Where a template is evaluated: per state (Parameters, ResultSelector), or per Map item (ItemSelector). */
export type TemplateContext = 'state' | 'item';

/**
 * Checks the `.$` values of a payload template (Parameters, ResultSelector,
 * ItemSelector) against what the runtime evaluates: the five supported
 * intrinsic functions and the context paths it provides. Paths themselves
 * were checked by asl-validator.
 */
export function checkTemplate(report: Reporter, state: string, field: string, template: Json, where: TemplateContext): void {
  const stack: Json[] = [template];
  while (stack.length > 0) {
    const value = stack.pop() as Json;
    if (Array.isArray(value)) stack.push(...value);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key.endsWith('.$') && typeof inner === 'string') checkExpression(report, state, `${field}.${key}`, inner, where);
        else stack.push(inner);
      }
    }
  }
}

function checkExpression(report: Reporter, state: string, field: string, expression: string, where: TemplateContext): void {
  if (expression.startsWith('States.')) {
    for (const [name] of expression.matchAll(/States\.[A-Za-z0-9]+/g)) {
      if (!INTRINSICS.has(name)) {
        report.fail(state, field, `the intrinsic function ${name} is not supported (supported: ${[...INTRINSICS].join(', ')})`);
      }
    }
  }
  // Context paths stand alone or appear as intrinsic arguments, up to a separator.
  for (const [path] of expression.matchAll(/\$\$[^,)\s]*/g)) {
    if (STATE_CONTEXT.test(path) || (where === 'item' && ITEM_CONTEXT.test(path))) continue;
    const item = where === 'item' ? ', $$.Map.Item.Value, $$.Map.Item.Index' : '';
    report.fail(state, field, `the context path ${path} is not supported (available here: $$.Execution.Id, $$.State.Name${item})`);
  }
}
