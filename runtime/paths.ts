/**
 * JSONPath as Step Functions uses it: reference paths (`$.a.b`, `$.a[0]`,
 * `$['a b']`) for InputPath/OutputPath/ResultPath/ItemsPath and conditions,
 * plus `[*]`, `.*` and slices `[a:b]` inside payload templates. Filters and
 * recursive descent are rejected with States.Runtime.
 */
import { runtimeError, StatesError } from './errors';
import type { Json } from './ir';

type Segment =
  | { readonly name: string }
  | { readonly index: number }
  | { readonly wild: true }
  | { readonly slice: readonly [number | undefined, number | undefined] };

const cache = new Map<string, Segment[]>();

export function parsePath(path: string): Segment[] {
  const hit = cache.get(path);
  if (hit) return hit;
  if (typeof path !== 'string' || path[0] !== '$') throw runtimeError(`invalid path ${JSON.stringify(path)}`);
  const segs: Segment[] = [];
  let i = 1;
  const bad = (): never => {
    throw runtimeError(`unsupported path ${JSON.stringify(path)} at position ${i}`);
  };
  while (i < path.length) {
    if (path[i] === '.') {
      i++;
      if (path[i] === '*') {
        segs.push({ wild: true });
        i++;
        continue;
      }
      const start = i;
      while (i < path.length && path[i] !== '.' && path[i] !== '[') i++;
      if (i === start) bad();
      segs.push({ name: path.slice(start, i) });
    } else if (path[i] === '[') {
      const end = path.indexOf(']', i);
      if (end < 0) bad();
      const body = path.slice(i + 1, end).trim();
      const quoted = /^'((?:[^'\\]|\\.)*)'$|^"((?:[^"\\]|\\.)*)"$/.exec(body);
      if (quoted) segs.push({ name: (quoted[1] ?? quoted[2]).replace(/\\(.)/g, '$1') });
      else if (body === '*') segs.push({ wild: true });
      else if (/^\d+$/.test(body)) segs.push({ index: Number(body) });
      else if (/^-?\d*:-?\d*$/.test(body)) {
        const [a, b] = body.split(':').map((n) => (n === '' ? undefined : Number(n)));
        segs.push({ slice: [a, b] });
      } else bad();
      i = end + 1;
    } else bad();
  }
  cache.set(path, segs);
  return segs;
}

export const isObject = (v: unknown): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Evaluates a path. A definite path (no wildcard or slice) yields its value or
 * `found: false`; an indefinite one yields the array of all matches.
 */
export function evalPath(doc: Json, path: string): { found: boolean; value?: Json } {
  let nodes: Json[] = [doc];
  let definite = true;
  for (const s of parsePath(path)) {
    nodes = nodes.flatMap((n): Json[] => {
      if ('name' in s) return isObject(n) && Object.hasOwn(n, s.name) ? [n[s.name]] : [];
      if ('index' in s) return Array.isArray(n) && s.index < n.length ? [n[s.index]] : [];
      // An array's values are its elements, in order.
      if ('wild' in s) return typeof n === 'object' && n !== null ? Object.values(n) : [];
      return Array.isArray(n) ? n.slice(...s.slice) : [];
    });
    if ('wild' in s || 'slice' in s) definite = false;
  }
  if (!definite) return { found: true, value: nodes };
  return nodes.length === 1 ? { found: true, value: nodes[0] } : { found: false };
}

/** The value at a path, or States.Runtime naming the path (InputPath, OutputPath, templates). */
export function selectPath(doc: Json, path: string, what: string): Json {
  const r = evalPath(doc, path);
  if (!r.found) throw runtimeError(`${what}: path ${path} not found in the input`);
  return r.value as Json;
}

/** A template or intrinsic reference: `$$...` reads the context object, `$...` the input. */
export function selectReference(path: string, input: Json, context: Json, what: string): Json {
  return path.startsWith('$$') ? selectPath(context, path.slice(1), what) : selectPath(input, path, what);
}

/**
 * ResultPath: a copy of `doc` with `value` placed at `path`, creating missing
 * objects on the way (ASL). A non-object in the way is States.ResultPathMatchFailure.
 */
export function setPath(doc: Json, path: string, value: Json): Json {
  const segs = parsePath(path);
  if (segs.length === 0) return value;
  const root = structuredClone(doc);
  let cur: Json = root;
  segs.forEach((s, k) => {
    // A name selects in an object, an index inside an array; wildcards and slices never apply.
    let prop: string | number;
    if ('name' in s && isObject(cur)) prop = s.name;
    else if ('index' in s && Array.isArray(cur) && s.index < cur.length) prop = s.index;
    else throw new StatesError('States.ResultPathMatchFailure', `ResultPath ${path} cannot be applied to the input`);
    const container = cur as { [p: string | number]: Json };
    if (k === segs.length - 1) container[prop] = value;
    else {
      if (!Object.hasOwn(container, prop)) container[prop] = {};
      cur = container[prop];
    }
  });
  return root;
}
