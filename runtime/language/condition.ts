/**
 * Interpreter of the typed Condition AST (runtime/contract/ir/) over a node's
 * committed output. As in Step Functions, a path that is absent fails the run
 * with States.Runtime (only IsPresent tests for absence), and a comparison
 * with a value of another type is false.
 */
import { runtimeError, StatesError } from '../contract/errors';
import type { ComparisonOperator, ComparisonType, Condition, Instruction, Json } from '../contract/ir';
import { evaluateJsonataCondition } from './jsonata';
import { evalPath } from './paths';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Milliseconds of an RFC 3339 timestamp (the form ASL accepts), or undefined. */
export function timestamp(v: unknown): number | undefined {
  if (typeof v !== 'string' || !TIMESTAMP.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : undefined;
}

type Scalar = string | number | boolean;

/** The value as the comparison type, or undefined when it is not of that type. */
function typed(type: ComparisonType, v: unknown): Scalar | undefined {
  if (type === 'timestamp') return timestamp(v);
  return typeof v === type ? (v as Scalar) : undefined;
}

/** The value at a Choice rule's path; States.Runtime when there is none. */
function valueAt(doc: Json, path: string): Json {
  const r = evalPath(doc, path, 'reference');
  if (!r.found) throw runtimeError(`Invalid path '${path}': the condition path references an invalid value`);
  return r.value as Json;
}

const COMPARE: Record<ComparisonOperator, (a: Scalar, b: Scalar) => boolean> = {
  eq: (a, b) => a === b,
  lt: (a, b) => a < b,
  gt: (a, b) => a > b,
  le: (a, b) => a <= b,
  ge: (a, b) => a >= b,
};

/** ASL StringMatches: `*` matches any run, `\*` and `\\` are literal (a backslash escapes the next character). */
export function stringMatches(s: string, pattern: string): boolean {
  const re = pattern.replace(/\\([\s\S])|(\*)|[\s\S]/g, (c, escaped?: string, star?: string) => (star ? '[\\s\\S]*' : escapeRe(escaped ?? c)));
  return new RegExp(`^${re}$`).test(s);
}

const escapeRe = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

export function evaluate(c: Condition, doc: Json): boolean {
  switch (c.kind) {
    case 'and':
      return c.all.every((x) => evaluate(x, doc));
    case 'or':
      return c.any.some((x) => evaluate(x, doc));
    case 'not':
      return !evaluate(c.arg, doc);
    case 'compare':
    case 'comparePath': {
      const a = typed(c.type, valueAt(doc, c.path));
      const b = typed(c.type, c.kind === 'compare' ? c.value : valueAt(doc, c.otherPath));
      if (a === undefined || b === undefined) return false;
      // Booleans have no order: only equality is meaningful.
      if (c.type === 'boolean' && c.op !== 'eq') return false;
      return COMPARE[c.op](a, b);
    }
    case 'matches': {
      const v = valueAt(doc, c.path);
      return typeof v === 'string' && stringMatches(v, c.pattern);
    }
    case 'test': {
      if (c.test === 'present') return evalPath(doc, c.path, 'reference').found === c.expected;
      // isNull; isString, isNumeric, isBoolean, isTimestamp as the comparison types.
      const v = valueAt(doc, c.path);
      return (c.test === 'null' ? v === null : typed(c.test, v) !== undefined) === c.expected;
    }
    case 'jsonata':
      // The compiler admits a JSONata condition only as a whole rule, which decideChoice evaluates.
      throw runtimeError('a JSONata condition inside and/or/not (the compiler refuses it)');
  }
}

/** One rule's condition: a JSONata one asynchronously (its field named as ASL does), any other with `evaluate`. */
async function holds(c: Condition, value: Json, context: Json, field: string): Promise<boolean> {
  return c.kind === 'jsonata' ? evaluateJsonataCondition(c.condition, { input: value, context }, field) : evaluate(c, value);
}

type ChoiceInstruction = Extract<Instruction, { op: 'choice' }>;

/**
 * What a Choice state decides on `value`: the instructions of its first rule
 * that holds, else its default (`next` undefined: neither). A rule that reads
 * an absent path (States.Runtime) or whose JSONata condition fails
 * (States.QueryEvaluationError) is the Choice state's own failure (`failed`,
 * naming it): the compiler folds the Choice into the node before it, and Step
 * Functions reports the failure at the Choice, not at that state. `context`
 * is what a JSONata condition reads as `$states.context`.
 */
export async function decideChoice(choice: ChoiceInstruction, value: Json, context: Json): Promise<{ readonly next?: readonly Instruction[] } | { readonly failed: StatesError }> {
  try {
    for (const [i, rule] of choice.rules.entries()) {
      if (await holds(rule.when, value, context, `Choices[${i}].Condition`)) return { next: rule.then };
    }
    return { next: choice.otherwise };
  } catch (e) {
    if (!(e instanceof StatesError)) throw e;
    return { failed: new StatesError(e.name, `Choice state '${choice.state}': ${e.message}`) };
  }
}
