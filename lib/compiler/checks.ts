import { inRange } from './function-settings';

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
