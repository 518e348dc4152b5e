/**
 * Interpreter of the typed Condition AST (runtime/ir.ts) over a node's
 * committed output. A comparison whose path is absent or holds another type is
 * false (documented difference from ASL, which raises States.Runtime).
 */
import type { ComparisonOperator, ComparisonType, Condition, Json } from './ir';
import { evalPath } from './paths';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Milliseconds of an RFC 3339 timestamp (the form ASL accepts), or undefined. */
function timestamp(v: unknown): number | undefined {
  if (typeof v !== 'string' || !TIMESTAMP.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The value as the comparison type, or undefined when it is not of that type. */
function typed(type: ComparisonType, v: unknown): string | number | boolean | undefined {
  switch (type) {
    case 'string':
      return typeof v === 'string' ? v : undefined;
    case 'number':
      return typeof v === 'number' ? v : undefined;
    case 'boolean':
      return typeof v === 'boolean' ? v : undefined;
    case 'timestamp':
      return timestamp(v);
  }
}

function compare(op: ComparisonOperator, a: string | number | boolean, b: string | number | boolean): boolean {
  switch (op) {
    case 'eq':
      return a === b;
    case 'lt':
      return a < b;
    case 'gt':
      return a > b;
    case 'le':
      return a <= b;
    case 'ge':
      return a >= b;
  }
}

/** ASL StringMatches: `*` matches any run, `\*` and `\\` are literal. */
export function stringMatches(s: string, pattern: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) re += escapeRe(pattern[++i]);
    else re += c === '*' ? '[\\s\\S]*' : escapeRe(c);
  }
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
      const left = evalPath(doc, c.path);
      const a = left.found ? typed(c.type, left.value) : undefined;
      let b: string | number | boolean | undefined;
      if (c.kind === 'compare') b = c.type === 'timestamp' ? timestamp(c.value) : typed(c.type, c.value);
      else {
        const right = evalPath(doc, c.otherPath);
        b = right.found ? typed(c.type, right.value) : undefined;
      }
      if (a === undefined || b === undefined) return false;
      // Booleans have no order: only equality is meaningful.
      if (c.type === 'boolean' && c.op !== 'eq') return false;
      return compare(c.op, a, b);
    }
    case 'matches': {
      const v = evalPath(doc, c.path);
      return v.found && typeof v.value === 'string' && stringMatches(v.value, c.pattern);
    }
    case 'test': {
      const v = evalPath(doc, c.path);
      let result: boolean;
      if (!v.found) result = false;
      else if (c.test === 'present') result = true;
      else if (c.test === 'null') result = v.value === null;
      else if (c.test === 'timestamp') result = timestamp(v.value) !== undefined;
      else result = typeof v.value === c.test;
      return result === c.expected;
    }
  }
}
