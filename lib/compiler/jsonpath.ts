/**
 * Compile-time checks of paths and payload templates, with the runtime's own
 * parser (runtime/language/paths.ts, runtime/language/intrinsics.ts): a value passes here
 * exactly when the runtime can evaluate it. Shared by the DSL compiler and
 * the ASL importer.
 */
import { StatesError } from '../../runtime/contract/errors';
import { parseIntrinsic, type Arg } from '../../runtime/language/intrinsics';
import type { Json } from '../../runtime/contract/ir';
import { pathOf, type ParsedPath, type PathKind } from '../../runtime/language/paths';
import { jsonProblem } from './checks';

export type { PathKind };

/** Where a template is evaluated: per state (Parameters, ResultSelector), per Map item (ItemSelector), or a callback Task's Parameters (with `$$.Task.Token`). */
export type TemplateContext = 'state' | 'item' | 'task';

/** A problem with one `.$` entry of a template (`key` is that entry's key), or with the whole template (no key). */
export interface TemplateProblem {
  readonly key?: string;
  readonly message: string;
}

/** The runtime's parse error (States.Runtime) as a problem; any other error is a bug and propagates. */
function problemOf(e: unknown): string {
  if (e instanceof StatesError) return e.message;
  throw e;
}

/** A path of the given kind, or `null` where the field allows it. */
export function pathProblem(path: string | null | undefined, kind: PathKind, allowNull: boolean): string | undefined {
  if (path === undefined) return undefined;
  if (path === null) return allowNull ? undefined : 'null is not allowed here';
  if (typeof path !== 'string') return `${JSON.stringify(path)} is not a path`;
  try {
    pathOf(path, kind);
    return undefined;
  } catch (e) {
    return problemOf(e);
  }
}

/**
 * The context object's fields, as the runtime builds it (runtime/step/interpreter.ts
 * `contextObject`): `$$.Execution.Id` and `$$.State.Name` everywhere, and in a
 * Map's item selector `$$.Map.Item.Index` and `$$.Map.Item.Value` (with any path below it), in
 * a callback Task's parameters `$$.Task.Token`.
 */
function contextProblem(path: ParsedPath, text: string, where: TemplateContext): string | undefined {
  const names = path.steps.map((s) => ('name' in s ? s.name : undefined));
  const [a, b, c] = names;
  const exactly = (...expected: string[]): boolean => names.length === expected.length && expected.every((n, i) => names[i] === n);
  const known =
    exactly('Execution', 'Id') ||
    exactly('State', 'Name') ||
    (where === 'item' && (exactly('Map', 'Item', 'Index') || (a === 'Map' && b === 'Item' && c === 'Value'))) ||
    (where === 'task' && exactly('Task', 'Token'));
  if (known) return undefined;
  if (exactly('Task', 'Token')) return `the context path ${text} is available only in the parameters of a Task that waits for its token (integrationPattern WAIT_FOR_TASK_TOKEN, ASL .waitForTaskToken)`;
  const item = where === 'item' ? ', $$.Map.Item.Value, $$.Map.Item.Index' : where === 'task' ? ', $$.Task.Token' : '';
  return `the context path ${text} is not supported (available here: $$.Execution.Id, $$.State.Name${item})`;
}

/** The context paths an intrinsic call reads, with their text. */
function contextPaths(expr: Arg): { path: ParsedPath; text: string }[] {
  if ('path' in expr) return expr.path.root === '$$' ? [expr] : [];
  return 'call' in expr ? expr.args.flatMap(contextPaths) : [];
}

/** The context paths a `.$` value reads. */
function contextReads(value: string): { path: ParsedPath; text: string }[] {
  if (!value.startsWith('$')) return contextPaths(parseIntrinsic(value));
  const path = pathOf(value, 'template');
  return path.root === '$$' ? [{ path, text: value }] : [];
}

/** One `.$` value: a path (`$...`, `$$...`) or an intrinsic function call. */
function expressionProblem(value: Json, where: TemplateContext): string | undefined {
  if (typeof value !== 'string') return `must be a path ('$...', '$$...') or an intrinsic function call ('States.…'), got ${JSON.stringify(value)}`;
  try {
    return contextReads(value).map((r) => contextProblem(r.path, r.text, where)).find((m) => m !== undefined);
  } catch (e) {
    return problemOf(e);
  }
}

/** A payload template: plain JSON whose `.$` keys hold paths or intrinsic calls the runtime evaluates. */
export function templateProblem(template: Json | undefined, where: TemplateContext): TemplateProblem | undefined {
  if (template === undefined) return undefined;
  const json = jsonProblem(template);
  if (json) return { message: json };
  const stack: Json[] = [template];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [key, inner] of Object.entries(v)) {
        if (!key.endsWith('.$')) {
          stack.push(inner);
          continue;
        }
        const message = expressionProblem(inner, where);
        if (message) return { key, message };
      }
    }
  }
  return undefined;
}
