import type { Json } from '../../runtime/ir';

/** One step of a reference path: an object key or an array index. */
export type PathSegment = string | number;

const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*/;

/**
 * Parses a reference path of the subset Step Functions uses (`$`, `$.a.b`,
 * `$.a[0]`, `$['a b']`) into segments, or returns an error message.
 * Context paths (`$$...`) are not reference paths and are rejected here.
 */
export function parsePath(path: string): PathSegment[] | string {
  if (!path.startsWith('$') || path.startsWith('$$')) return `'${path}' is not a reference path (it must start with '$')`;
  const segments: PathSegment[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    if (rest.startsWith('.')) {
      const m = NAME.exec(rest.slice(1));
      if (!m) return `'${path}' has an invalid name after '.'`;
      segments.push(m[0]);
      rest = rest.slice(1 + m[0].length);
    } else if (rest.startsWith('[')) {
      const m = /^\[(\d+)\]/.exec(rest) ?? /^\['((?:[^'\\]|\\.)*)'\]/.exec(rest);
      if (!m) return `'${path}' has an invalid bracket segment`;
      segments.push(/^\d+$/.test(m[1]) && !m[0].startsWith("['") ? Number(m[1]) : m[1].replace(/\\(.)/g, '$1'));
      rest = rest.slice(m[0].length);
    } else {
      return `'${path}' has unexpected characters at '${rest}'`;
    }
  }
  return segments;
}

/** The value at `segments` inside `value`, or undefined if absent. */
export function select(value: Json | undefined, segments: readonly PathSegment[]): Json | undefined {
  let current = value;
  for (const s of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    if (typeof s === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[s];
    } else {
      if (Array.isArray(current) || !Object.prototype.hasOwnProperty.call(current, s)) return undefined;
      current = current[s];
    }
  }
  return current;
}
