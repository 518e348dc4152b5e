/**
 * States.MathRandom and States.UUID, drawn from a hash rather than a random
 * source, because a step's input must not change between executions of the
 * same invocation (duplicates, Lambda's retries, a branch that rebuilds a
 * Parallel's or Map's input from the origin's checkpoint): every execution
 * of the same evaluation draws the same value.
 *
 * Without a seed, the hash is of the evaluation's identity: the context
 * object (the run id, the state's name, and in a Map's ItemSelector the
 * item and its index), the input the template reads, the place of the `.$`
 * key in its template, and where the call starts in the expression. The
 * invocation's own name is not used: a branch rebuilding a Parallel's input
 * runs in another invocation and must draw what the origin drew. So two
 * evaluations differ when any of those differ; a loop that comes back to a
 * state with the same input draws the same value again.
 *
 * With a seed, States.MathRandom depends on the seed, the start and the
 * end only, as Step Functions documents ("the same seed value returns
 * identical numbers").
 */
import { createHash } from 'node:crypto';
import type { Json } from '../../contract/ir';
import { canonicalJson } from './canonical';
import { fail, type IntrinsicFunction } from './signature';

/** The identity of one evaluation of the call at `at` of the template value at `site`, as 32 bytes. */
export function evaluationIdentity(context: Json, input: Json, site: string, at: number): Buffer {
  return createHash('sha256').update(canonicalJson([context, input, site, at])).digest();
}

/** An integer in [start, end) from the first 8 bytes of `bytes` (the modulo bias, at most the range's size / 2^64, is immaterial). */
function drawBetween(bytes: Buffer, start: number, end: number): number {
  return start + Number(bytes.readBigUInt64BE(0) % BigInt(end - start));
}

/** A version 4 UUID whose 122 free bits are the first bytes of `bytes`. */
export function uuidOf(bytes: Buffer): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const RANDOM_FUNCTIONS: Readonly<Record<string, IntrinsicFunction>> = {
  'States.MathRandom': {
    params: [
      { name: 'start', type: 'integer' },
      { name: 'end', type: 'integer' },
      { name: 'seed', type: 'number' },
    ],
    optional: 1,
    returns: 'integer',
    run: ([start, end, seed], e) => {
      const [from, to] = [start as number, end as number];
      if (from >= to) return fail(`States.MathRandom: the start (${from}) must be less than the end (${to}), which is excluded`);
      const bytes = seed === undefined ? e.identity() : createHash('sha256').update(`States.MathRandom seed ${canonicalJson(seed)}`).digest();
      return drawBetween(bytes, from, to);
    },
  },
  'States.UUID': { params: [], returns: 'string', run: (_args, e) => uuidOf(e.identity()) },
};
