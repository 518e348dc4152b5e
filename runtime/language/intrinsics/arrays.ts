/** The array intrinsics, as the Step Functions documentation defines them. */
import type { Json } from '../../contract/ir';
import { canonicalJson } from './canonical';
import { fail, type IntrinsicFunction } from './signature';

/** States.ArrayRange gives at most this many elements. */
export const MAX_RANGE = 1000;

const positive = (v: Json): string | undefined => ((v as number) > 0 ? undefined : 'must be a positive integer');
const nonZero = (v: Json): string | undefined => (v === 0 ? 'must not be 0' : undefined);

/** How many elements ArrayRange(start, end, step) has: none when the step leads away from the end. */
const rangeLength = (start: number, end: number, step: number): number => Math.max(0, Math.floor((end - start) / step) + 1);

export const ARRAY_FUNCTIONS: Readonly<Record<string, IntrinsicFunction>> = {
  'States.Array': { params: [], rest: { name: 'element', type: 'any' }, returns: 'array', run: (args) => [...args] },

  'States.ArrayPartition': {
    params: [
      { name: 'array', type: 'array' },
      { name: 'chunk size', type: 'integer', check: positive },
    ],
    returns: 'array',
    run: ([array, size]) => {
      const [items, n] = [array as Json[], size as number];
      const chunks: Json[] = [];
      for (let i = 0; i < items.length; i += n) chunks.push(items.slice(i, i + n));
      return chunks;
    },
  },

  'States.ArrayContains': {
    params: [
      { name: 'array', type: 'array' },
      { name: 'value', type: 'any' },
    ],
    returns: 'boolean',
    run: ([array, value]) => {
      const wanted = canonicalJson(value);
      return (array as Json[]).some((e) => canonicalJson(e) === wanted);
    },
  },

  'States.ArrayRange': {
    params: [
      { name: 'start', type: 'integer' },
      { name: 'end', type: 'integer' },
      { name: 'step', type: 'integer', check: nonZero },
    ],
    returns: 'array',
    run: ([first, last, by]) => {
      const [start, end, step] = [first as number, last as number, by as number];
      const n = rangeLength(start, end, step);
      if (n > MAX_RANGE) fail(`States.ArrayRange(${start}, ${end}, ${step}) would have ${n} elements; at most ${MAX_RANGE} are allowed`);
      return Array.from({ length: n }, (_, i) => start + i * step);
    },
  },

  'States.ArrayGetItem': {
    params: [
      { name: 'array', type: 'array' },
      { name: 'index', type: 'integer', check: (v) => ((v as number) < 0 ? 'must not be negative' : undefined) },
    ],
    returns: 'any',
    run: ([array, index]) => {
      const items = array as Json[];
      const i = index as number;
      return i < items.length ? items[i] : fail(`States.ArrayGetItem: index ${i} is out of range for an array of ${items.length} element(s)`);
    },
  },

  'States.ArrayLength': { params: [{ name: 'array', type: 'array' }], returns: 'integer', run: ([array]) => (array as Json[]).length },

  'States.ArrayUnique': {
    params: [{ name: 'array', type: 'array' }],
    returns: 'array',
    run: ([array]) => {
      // The first of equal elements stays, in place.
      const seen = new Set<string>();
      return (array as Json[]).filter((e) => {
        const key = canonicalJson(e);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    },
  },
};
