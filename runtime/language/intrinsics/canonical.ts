/**
 * JSON text that is the same for equal values whatever the order of their
 * keys: how intrinsics compare values (ArrayContains, ArrayUnique) and what
 * the seeds of States.MathRandom and States.UUID hash.
 */
import type { Json } from '../../contract/ir';

export function canonicalJson(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(',')}}`;
}
