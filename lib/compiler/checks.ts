import type { Json } from '../../runtime/ir';
import { inRange } from './function-settings';
import { parsePath } from './jsonpath';

/** One finding about one field of one state. */
export interface Problem {
  readonly field: string;
  readonly message: string;
}

/**
 * Small predicates shared by the validators. Each returns a problem
 * description, or undefined when the value is fine.
 */

export function integerIn(value: number | undefined, range: { readonly min: number; readonly max: number }, unit = ''): string | undefined {
  if (value === undefined || inRange(value, range)) return undefined;
  return `${value}${unit} is not an integer in ${range.min}-${range.max}${unit}`;
}

export function atLeast(value: number | undefined, min: number, integer: boolean): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    return `${value} is not ${integer ? 'an integer' : 'a number'} >= ${min}`;
  }
  return undefined;
}

/** A reference path, or `null` where the field allows it. */
export function pathProblem(path: string | null | undefined, allowNull: boolean): string | undefined {
  if (path === undefined) return undefined;
  if (path === null) return allowNull ? undefined : 'null is not allowed here';
  if (typeof path !== 'string') return `${JSON.stringify(path)} is not a path`;
  const parsed = parsePath(path);
  return typeof parsed === 'string' ? parsed : undefined;
}

/** Plain JSON: no undefined, functions, class instances or non-finite numbers. Iterative, so deep values are fine. */
export function jsonProblem(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${v} is not a JSON number`;
      continue;
    }
    if (Array.isArray(v)) {
      stack.push(...v);
      continue;
    }
    if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      stack.push(...Object.values(v as object));
      continue;
    }
    return `the value is not plain JSON (found ${v === undefined ? 'undefined' : typeof v})`;
  }
  return undefined;
}

/** A payload template: JSON whose `.$` keys hold strings (paths, context paths or intrinsic calls). */
export function templateProblem(template: Json | undefined): string | undefined {
  if (template === undefined) return undefined;
  const json = jsonProblem(template);
  if (json) return json;
  const stack: Json[] = [template];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [key, inner] of Object.entries(v)) {
        if (key.endsWith('.$') && (typeof inner !== 'string' || !(inner.startsWith('$') || inner.startsWith('States.')))) {
          return `'${key}' must be a path ('$...', '$$...') or an intrinsic function call ('States.…'), got ${JSON.stringify(inner)}`;
        }
        stack.push(inner);
      }
    }
  }
  return undefined;
}
