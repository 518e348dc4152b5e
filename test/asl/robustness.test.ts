/**
 * "Never a crash or a silent drop": documents mutated at random (a field
 * removed, replaced by another JSON value, or added) are either imported or
 * rejected with an UnumDefinitionError — never a TypeError or another crash.
 */
import * as fc from 'fast-check';
import type { Json } from '../../runtime/contract/ir';
import { UnumDefinitionError } from '../../lib/compiler';
import { fromAsl } from '../../lib/asl';
import { DEFAULT_TASK } from './helpers';
import { readFixture } from './app/workflows';

const BASES: Json[] = ['features.asl.json', 'video-frames.asl.json'].map((f) => JSON.parse(readFixture(f)) as Json);

const FIELDS = ['Type', 'Next', 'End', 'Resource', 'Parameters', 'InputPath', 'OutputPath', 'ResultPath', 'ResultSelector', 'ItemsPath', 'ItemSelector', 'ItemProcessor', 'Choices', 'Default', 'Retry', 'Catch', 'Iterator', 'Branches', 'Variable', 'TimeoutSeconds', 'Error', 'Seconds', 'QueryLanguage'];

/** Every object inside `doc`, with the path to it. */
function objects(doc: Json): { [k: string]: Json }[] {
  const out: { [k: string]: Json }[] = [];
  const stack: Json[] = [doc];
  while (stack.length > 0) {
    const v = stack.pop() as Json;
    if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      out.push(v);
      stack.push(...Object.values(v));
    }
  }
  return out;
}

const mutation = fc.record({
  base: fc.nat(BASES.length - 1),
  target: fc.nat(),
  kind: fc.constantFrom('delete', 'replace', 'add'),
  field: fc.constantFrom(...FIELDS),
  value: fc.oneof(fc.constant(null), fc.integer({ min: -2, max: 1000 }), fc.constantFrom('', '$', '$.x', 'x', 'States.ALL', 'INLINE'), fc.constant([]), fc.constant({}), fc.boolean()),
});

test('mutated documents are imported or rejected with an UnumDefinitionError', () => {
  fc.assert(
    fc.property(mutation, ({ base, target, kind, field, value }) => {
      const doc = JSON.parse(JSON.stringify(BASES[base])) as Json;
      const all = objects(doc);
      const obj = all[target % all.length];
      const keys = Object.keys(obj);
      if (kind === 'delete' && keys.length > 0) delete obj[keys[target % keys.length]];
      else if (kind === 'replace' && keys.length > 0) obj[keys[target % keys.length]] = value as Json;
      else obj[field] = value as Json;
      try {
        fromAsl(doc as object, { workflowName: 'wf', defaultTask: DEFAULT_TASK });
      } catch (e) {
        if (!(e instanceof UnumDefinitionError)) throw e;
      }
    }),
    // Each import runs asl-validator (~0.3 s): enough runs to hit every state kind, within a test's time.
    { numRuns: 60, seed: 6 },
  );
});
