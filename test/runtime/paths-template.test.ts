/** Paths, payload templates, intrinsics and io processing, with the ASL specification's examples. */
import { evalIntrinsic, parseIntrinsic } from '../../runtime/intrinsics';
import { processInput, processOutput } from '../../runtime/io';
import type { Json } from '../../runtime/ir';
import { evalPath, setPath } from '../../runtime/paths';
import { applyTemplate } from '../../runtime/template';

test('reference paths (ASL spec)', () => {
  const input = { foo: 123, bar: ['a', 'b', 'c'], car: { cdr: true } };
  expect(evalPath(input, '$.foo').value).toBe(123);
  expect(evalPath(input, '$.bar').value).toEqual(['a', 'b', 'c']);
  expect(evalPath(input, '$.car.cdr').value).toBe(true);
  expect(evalPath(input, "$['car']['cdr']").value).toBe(true);
  expect(evalPath(input, '$.bar[2]').value).toBe('c');
  expect(evalPath(input, '$.bar[3]').found).toBe(false);
  expect(evalPath(input, '$.nope').found).toBe(false);
  expect(evalPath({ 'a b': 1 }, "$['a b']").value).toBe(1);
  expect(evalPath(input, '$').value).toEqual(input);
});

test('wildcards and slices give arrays', () => {
  const input = { items: [{ id: 1 }, { id: 2 }, { id: 3 }] };
  expect(evalPath(input, '$.items[*].id').value).toEqual([1, 2, 3]);
  expect(evalPath(input, '$.items[1:].id').value).toEqual([2, 3]);
  expect(() => evalPath(input, '$.items[?(@.id>1)]')).toThrow(/unsupported path/);
  expect(() => evalPath(input, '$..id')).toThrow(/unsupported path/);
});

test('Parameters payload template (ASL spec example)', () => {
  const input = { flagged: 7, vals: [0, 10, 20, 30, 40, 50] };
  const template = { flagged: true, parts: { 'first.$': '$.vals[0]', 'last3.$': '$.vals[-3:]' }, 'weekday.$': '$$.DayOfWeek' };
  expect(applyTemplate(template, input, { DayOfWeek: 'TUESDAY' })).toEqual({ flagged: true, parts: { first: 0, last3: [30, 40, 50] }, weekday: 'TUESDAY' });
  expect(() => applyTemplate({ 'x.$': '$.missing' }, input, {})).toThrow(/path \$\.missing not found/);
  expect(applyTemplate([{ 'a.$': '$.flagged' }, 1], input, {})).toEqual([{ a: 7 }, 1]);
});

test('InputPath, ResultPath and OutputPath (ASL spec example)', () => {
  const input = { title: 'Numbers to add', numbers: { val1: 3, val2: 4 } };
  const io = { inputPath: '$.numbers', resultPath: '$.sum', outputPath: '$' };
  const handlerInput = processInput(io, input, {}) as { val1: number; val2: number };
  expect(handlerInput).toEqual({ val1: 3, val2: 4 });
  expect(processOutput(io, input, handlerInput.val1 + handlerInput.val2, {})).toEqual({ title: 'Numbers to add', numbers: { val1: 3, val2: 4 }, sum: 7 });
});

test('ResultSelector, null paths and ResultPath into nested objects', () => {
  const input = { a: { b: 1 }, keep: true };
  expect(processOutput({ resultSelector: { 'x.$': '$.r' }, resultPath: '$.a.c' }, input, { r: 5, junk: 1 }, {})).toEqual({ a: { b: 1, c: { x: 5 } }, keep: true });
  expect(processOutput({ resultPath: null }, input, 99, {})).toEqual(input);
  expect(processOutput({ outputPath: null }, input, 99, {})).toEqual({});
  expect(processInput({ inputPath: null }, input, {})).toEqual({});
  expect(processOutput({ resultPath: '$.new.deep' }, input, 1, {})).toEqual({ ...input, new: { deep: 1 } });
  expect(() => setPath({ a: 5 }, '$.a.b', 1)).toThrow(expect.objectContaining({ name: 'States.ResultPathMatchFailure' }));
  // ResultPath never mutates the input.
  expect(input).toEqual({ a: { b: 1 }, keep: true });
});

const intrinsic = (text: string, input: Json, context: Json = {}): Json => evalIntrinsic(parseIntrinsic(text), input, context);

test('intrinsic functions (Step Functions documentation examples)', () => {
  expect(intrinsic("States.Format('Hello, my name is {}.', $.name)", { name: 'Arnav' })).toBe('Hello, my name is Arnav.');
  expect(intrinsic("States.Format('{} {} {}', $.a, 2, null)", { a: 'x' })).toBe('x 2 null');
  expect(intrinsic("States.Format('literal \\{\\} and {}', 'v')", {})).toBe('literal {} and v');
  expect(intrinsic("States.Format('it\\'s {}', $$.Execution.Id)", {}, { Execution: { Id: 'w1' } })).toBe("it's w1");
  expect(intrinsic('States.JsonToString($.someJson)', { someJson: { name: 'Foo', year: 2020 } })).toBe('{"name":"Foo","year":2020}');
  expect(intrinsic('States.StringToJson($.someString)', { someString: '{"number": 20}' })).toEqual({ number: 20 });
  expect(intrinsic('States.JsonMerge($.json1, $.json2, false)', { json1: { a: { a1: 1, a2: 2 }, b: 2 }, json2: { a: { a3: 1, a4: 2 }, c: 3 } })).toEqual({ a: { a3: 1, a4: 2 }, b: 2, c: 3 });
  expect(intrinsic("States.Array('Foo', 2020, $.someJson, null)", { someJson: { random: 'abcdefg' } })).toEqual(['Foo', 2020, { random: 'abcdefg' }, null]);
  expect(intrinsic("States.Array(States.Format('{}-{}', $.a, $.b), States.JsonToString($.c))", { a: 1, b: 'z', c: [1] })).toEqual(['1-z', '[1]']);
  expect(intrinsic("States.Array($['a, b'])", { 'a, b': 5 })).toEqual([5]);
  expect(intrinsic('States.Array()', {})).toEqual([]);
});

test('intrinsic errors', () => {
  expect(() => intrinsic("States.Format('{} {}', 1)", {})).toThrow(/more placeholders/);
  expect(() => intrinsic("States.Format('{}', $.o)", { o: { a: 1 } })).toThrow(/strings, numbers/);
  expect(() => intrinsic('States.JsonMerge($.a, $.a, true)', { a: {} })).toThrow(/deep merge/);
  expect(() => intrinsic("States.StringToJson('{nope')", {})).toThrow(expect.objectContaining({ name: 'States.IntrinsicFailure' }));
  expect(() => intrinsic('States.Hash($.a)', { a: 1 })).toThrow(/unsupported intrinsic/);
  expect(() => parseIntrinsic('States.Array(1) + 2')).toThrow(/trailing input/);
  expect(() => parseIntrinsic('process.exit(1)')).toThrow(/unexpected input/);
});

test('templates call intrinsics', () => {
  expect(applyTemplate({ 'msg.$': "States.Format('Hi {}', $.n)" }, { n: 'Bo' }, {})).toEqual({ msg: 'Hi Bo' });
});
