/** The JSON intrinsics: States.JsonMerge, States.StringToJson, States.JsonToString. */
import type { Json } from '../../contract/ir';
import { fail, type IntrinsicFunction } from './signature';

type JsonObject = { [k: string]: Json };

/** `b`'s keys over `a`'s, in a new object (a shallow merge: Step Functions has no other). */
export function jsonMerge(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    // Defined, not assigned: a key "__proto__" is a key like any other.
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export const JSON_FUNCTIONS: Readonly<Record<string, IntrinsicFunction>> = {
  'States.JsonMerge': {
    params: [
      { name: 'first object', type: 'object' },
      { name: 'second object', type: 'object' },
      // Step Functions supports only the shallow merge, and requires saying so.
      { name: 'deep merge', type: 'boolean', check: (v: Json) => (v === false ? undefined : 'must be false: Step Functions (and unum) merge shallowly only') },
    ],
    returns: 'object',
    run: ([a, b]) => jsonMerge(a as JsonObject, b as JsonObject),
  },
  'States.StringToJson': {
    params: [{ name: 'JSON text', type: 'string' }],
    returns: 'any',
    run: ([text]) => {
      try {
        return JSON.parse(text as string) as Json;
      } catch {
        return fail(`States.StringToJson: not JSON: ${(text as string).slice(0, 100)}`);
      }
    },
  },
  'States.JsonToString': { params: [{ name: 'value', type: 'any' }], returns: 'string', run: ([value]) => JSON.stringify(value) },
};
