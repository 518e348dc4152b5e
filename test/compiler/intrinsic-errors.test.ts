/**
 * Intrinsic calls that cannot succeed on any input are synth errors naming
 * the workflow, the state and the field: an argument count, a literal of the
 * wrong type or value, a call that returns the wrong type. The same calls
 * with values from the input compile (their problems are the data's,
 * States.IntrinsicFailure at run time).
 */
import { Fail, MapState, Pass } from '../../lib/definition';
import { compile, expectDefinitionError, task } from './helpers';

const W = (node: string, field: string, detail: string): string => `Workflow 'W', node '${node}', field '${field}': ${detail}`;
const withParameters = (value: string) => task('A', { parameters: { 'x.$': value } });

test('every supported function compiles in a template', () => {
  const calls = [
    'States.ArrayPartition($.a, 2)', 'States.ArrayContains($.a, 1)', 'States.ArrayRange(1, $.n, 2)', 'States.ArrayGetItem($.a, 0)', 'States.ArrayLength($.a)',
    'States.ArrayUnique($.a)', 'States.Base64Encode($.s)', 'States.Base64Decode($.s)', "States.Hash($.s, 'SHA-512')", 'States.JsonMerge($.o, $.p, false)',
    'States.MathRandom(1, 10)', 'States.MathRandom(1, 10, $.seed)', 'States.MathAdd($.n, -1)', "States.StringSplit($.s, ',;')", 'States.UUID()',
    "States.Format('{}-{}', States.UUID(), States.MathAdd(States.ArrayLength($.a), 1))",
  ];
  const parameters = Object.fromEntries(calls.map((c, i) => [`v${i}.$`, c]));
  expect(compile(task('A', { parameters })).nodes.A.ir.io?.parameters).toEqual(parameters);
});

test('problems that do not depend on the data name the workflow, the state and the field', () => {
  expectDefinitionError(
    () => compile(withParameters("States.Hash($.s, 'SHA-3')")),
    W('A', 'parameters', `'x.$': invalid intrinsic "States.Hash($.s, 'SHA-3')": States.Hash: argument 2 (algorithm) must be one of MD5, SHA-1, SHA-256, SHA-384, SHA-512, got "SHA-3" at position 17`),
  );
  expectDefinitionError(
    () => compile(withParameters('States.ArrayRange(1, $.n, 0)')),
    W('A', 'parameters', `'x.$': invalid intrinsic "States.ArrayRange(1, $.n, 0)": States.ArrayRange: argument 3 (step) must not be 0, got 0 at position 26`),
  );
  expectDefinitionError(() => compile(withParameters('States.UUID($.a)')), W('A', 'parameters', `'x.$': invalid intrinsic "States.UUID($.a)": States.UUID takes 0 argument(s), got 1 at position 16`));
  expectDefinitionError(
    () => compile(withParameters('States.MathAdd(States.UUID(), 1)')),
    W('A', 'parameters', `'x.$': invalid intrinsic "States.MathAdd(States.UUID(), 1)": States.MathAdd: argument 1 (first number) must be an integer, and States.UUID gives a string at position 15`),
  );
  const map = new MapState('M', { itemsPath: '$.items', itemSelector: { 'part.$': 'States.ArrayPartition($$.Map.Item.Value, -2)' } }).itemProcessor(task('I'));
  expectDefinitionError(
    () => compile(task('A').next(map)),
    W('M', 'itemSelector', `'part.$': invalid intrinsic "States.ArrayPartition($$.Map.Item.Value, -2)": States.ArrayPartition: argument 2 (chunk size) must be a positive integer, got -2 at position 41`),
  );
  expectDefinitionError(
    () => compile(new Pass('P').next(new Fail('F', { causePath: "States.Base64Decode(States.Array('x'))" }))),
    W('F', 'causePath', `invalid intrinsic "States.Base64Decode(States.Array('x'))": States.Base64Decode: argument 1 (data) must be a string, and States.Array gives an array at position 20`),
  );
});
