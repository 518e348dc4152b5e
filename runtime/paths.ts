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
        const [a, b] = body.split(':');
        segs.push({ slice: [a === '' ? undefined : Number(a), b === '' ? undefined : Number(b)] });
      } else bad();
      i = end + 1;
    } else bad();
  }
  cache.set(path, segs);
  return segs;
}

const isObject = (v: unknown): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Evaluates a path. A definite path (no wildcard or slice) yields its value or
 * `found: false`; an indefinite one yields the array of all matches.
 */
export function evalPath(doc: Json, path: string): { found: boolean; value?: Json } {
  let nodes: Json[] = [doc];
  let definite = true;
  for (const s of parsePath(path)) {
    const next: Json[] = [];
    for (const n of nodes) {
      if ('name' in s) {
        if (isObject(n) && Object.prototype.hasOwnProperty.call(n, s.name)) next.push(n[s.name]);
      } else if ('index' in s) {
        if (Array.isArray(n) && s.index < n.length) next.push(n[s.index]);
      } else if ('wild' in s) {
        if (Array.isArray(n)) next.push(...n);
        else if (isObject(n)) next.push(...Object.values(n));
      } else if (Array.isArray(n)) {
        next.push(...n.slice(s.slice[0], s.slice[1]));
      }
    }
    if ('wild' in s || 'slice' in s) definite = false;
    nodes = next;
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
    const last = k === segs.length - 1;
    const fail = (): never => {
      throw new StatesError('States.ResultPathMatchFailure', `ResultPath ${path} cannot be applied to the input`);
    };
    if ('name' in s) {
      if (!isObject(cur)) fail();
      const o = cur as { [k: string]: Json };
      if (last) o[s.name] = value;
      else {
        if (!Object.prototype.hasOwnProperty.call(o, s.name)) o[s.name] = {};
        cur = o[s.name];
      }
    } else if ('index' in s) {
      if (!Array.isArray(cur) || s.index >= cur.length) fail();
      const a = cur as Json[];
      if (last) a[s.index] = value;
      else cur = a[s.index];
    } else fail();
  });
  return root;
}
