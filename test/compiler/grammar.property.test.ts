/**
 * One grammar: on generated paths and intrinsic calls (valid, near-valid and
 * garbage), the compiler accepts a field's value exactly when the runtime can
 * evaluate it there. "Cannot evaluate" is a States.Runtime error that does
 * not depend on the data; a path that finds nothing, a ResultPath that
 * cannot be placed or an intrinsic given the wrong kind of value are the
 * data's fault and count as evaluable. Context paths (`$$...`) are left to
 * errors.test.ts: the compiler admits only the fields the runtime's context
 * object has, a narrower rule than "evaluates" (`$$.Execution` would give a
 * part of what Step Functions gives).
 */
import * as fc from 'fast-check';
import { pathProblem, templateProblem, type PathKind } from '../../lib/compiler/jsonpath';
import { evaluate } from '../../runtime/language/condition';
import type { Json } from '../../runtime/contract/ir';
import { processInput, processOutput } from '../../runtime/language/io';
import { applyTemplate } from '../../runtime/language/template';

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

/** Path pieces: the grammar's forms, and pieces that break it. */
const PIECES = [
  '.a', '.b', '.n', '.*', '[0]', '[1]', '[-1]', "['a']", '["b c"]', "['it\\'s']", '[*]', '[0:2]', '[:1]', '[-1:]', '[1:]',
  '..a', '..*', '..[0]', '..n', '[?(@.n > 1)]', '[?(@.a)]', "[?(@.a == 'x' && @.b)]", '[?(!@.a || @.n < $.n)]', '[?( (@.n >= 0) )]', '[?(@.n != null)]',
  '[', ']', '.', '[x]', '[1,2]', '[?(@.a =~ /x/)]', ' ', '(', "'", '[?(@..a)]', 'a', '$', '@', '[0:1:2]', '.length()', '[?(@.a >)]', '[?()]', '..', '.a b',
];
const path = fc.array(fc.constantFrom(...PIECES), { maxLength: 5 }).map((pieces) => `$${pieces.join('')}`);
const garbage = fc.stringMatching(/^\$[$.[\]*?@()'"0-9:\-ab, <>=!&|]{0,12}$/);
const anyPath = fc.oneof(path, path, garbage);

const FUNCTIONS = [
  'States.Format', 'States.Array', 'States.JsonMerge', 'States.StringToJson', 'States.JsonToString', 'States.Hash', 'States.MathAdd', 'States.MathRandom', 'States.UUID',
  'States.ArrayPartition', 'States.ArrayRange', 'States.ArrayGetItem', 'States.ArrayLength', 'States.StringSplit', 'States.Base64Decode', 'States.Nope',
];
const literal = fc.constantFrom("'x'", "'{}'", "'{} and {}'", "'\\{\\}'", "'a\\\\b'", "'it\\'s'", "'\\n'", "'{'", '1', '-2.5e3', 'true', 'null', 'false', "'{\"a\":1}'", '0', "'SHA-256'");
const intrinsic: fc.Arbitrary<string> = fc.letrec<{ call: string }>((tie) => ({
  call: fc
    .tuple(fc.constantFrom(...FUNCTIONS), fc.array(fc.oneof({ depthSize: 'small' }, literal, path, tie('call')), { maxLength: 3 }))
    .map(([name, args]) => `${name}(${args.join(', ')})`),
})).call;
/** Cut short at a random place: unclosed strings, calls and brackets. */
const truncated = fc.tuple(intrinsic, fc.nat()).map(([text, n]) => text.slice(0, 1 + (n % text.length)));
const expression = fc.oneof(anyPath, intrinsic, intrinsic, truncated);

const key = fc.constantFrom('a', 'b', 'n', 'b c', "it's");
const doc: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<Json>(1, 2, 'x', '{"a":1}', true, null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** False when evaluating failed for a reason that no input could change. */
function evaluable(run: () => unknown): boolean {
  try {
    run();
    return true;
  } catch (e) {
    const { name, message } = e as Error;
    if (name === 'States.Runtime') return / not found in the input$/.test(message);
    if (name === 'States.ResultPathMatchFailure' || name === 'States.IntrinsicFailure') return true;
    throw e;
  }
}

/** How the runtime evaluates each kind of field. */
const RUNTIME: Record<PathKind, (value: string, input: Json) => unknown> = {
  reference: (value, input) => {
    processOutput({ resultPath: value }, input, 1, {});
    evaluate({ kind: 'test', test: 'present', path: value, expected: true }, input);
  },
  path: (value, input) => processOutput({ outputPath: value }, processInput({ inputPath: value }, input, {}), 1, {}),
  template: (value, input) => applyTemplate({ 'x.$': value }, input, {}),
};

const accepts = (kind: PathKind, value: string): boolean =>
  kind === 'template' ? templateProblem({ 'x.$': value }, 'state') === undefined : pathProblem(value, kind, false) === undefined;

test(`the compiler accepts a path or intrinsic exactly when the runtime can evaluate it (seed ${seed})`, () => {
  let accepted = 0;
  fc.assert(
    fc.property(fc.constantFrom<PathKind>('reference', 'path', 'template'), expression, doc, (kind, value, input) => {
      // Intrinsic calls appear only in templates; context paths are tested elsewhere.
      fc.pre((kind === 'template' || value.startsWith('$')) && !value.includes('$$'));
      const ok = accepts(kind, value);
      if (ok) accepted++;
      expect({ kind, value, evaluable: evaluable(() => RUNTIME[kind](value, input)) }).toEqual({ kind, value, evaluable: ok });
    }),
    { seed, numRuns: 3000 },
  );
  // The generators reach both sides of the property.
  expect(accepted).toBeGreaterThan(300);
});
