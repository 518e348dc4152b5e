/** Paths, payload templates, intrinsics and io processing, with the ASL specification's examples. */
import { evalIntrinsic, parseIntrinsic } from '../../runtime/language/intrinsics';
import { processInput, processOutput } from '../../runtime/language/io';
import type { Json } from '../../runtime/contract/ir';
import { evalPath, pathOf, setPath } from '../../runtime/language/paths';
import { applyTemplate } from '../../runtime/language/template';

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
  const input = { items: [{ id: 1 }, { id: 2 }, { id: 3 }], o: { a: 1, b: 2 } };
  expect(evalPath(input, '$.items[*].id').value).toEqual([1, 2, 3]);
  expect(evalPath(input, '$.items.*.id').value).toEqual([1, 2, 3]);
  expect(evalPath(input, '$.o.*').value).toEqual([1, 2]);
  expect(evalPath(input, '$.items[1:].id').value).toEqual([2, 3]);
  expect(evalPath(input, '$.items[-2:].id').value).toEqual([2, 3]);
  expect(evalPath(input, '$.items[:1]').value).toEqual([{ id: 1 }]);
  expect(evalPath(input, '$.items[-1].id').value).toBe(3);
  expect(evalPath(input, '$["o"]["a"]').value).toBe(1);
  expect(evalPath(input, '$.items[*].missing').value).toEqual([]);
});

test('filters, as Step Functions (Jayway JsonPath) reads them', () => {
  const input: Json = {
    limit: 2,
    items: [{ id: 1, tag: 'a' }, { id: 2, tag: 'b', ok: true }, { id: 3, tag: 'b', ok: null }, { id: '4' }],
    one: { id: 5 },
  };
  const ids = (path: string): Json => (evalPath(input, path).value as { id: Json }[]).map((x) => x.id);
  expect(ids('$.items[?(@.id > 1)]')).toEqual([2, 3]);
  expect(ids('$.items[?(@.id >= 2 && @.tag == "b")]')).toEqual([2, 3]);
  expect(ids("$.items[?(@.tag == 'a' || @.id == '4')]")).toEqual([1, '4']);
  expect(ids('$.items[?(@.ok)]')).toEqual([2, 3]);
  expect(ids('$.items[?(!@.ok)]')).toEqual([1, '4']);
  expect(ids('$.items[?(@.id < $.limit)]')).toEqual([1]);
  expect(ids('$.items[?(@.tag != "b")]')).toEqual([1]);
  expect(ids('$.items[?( (@.id == 1 || @.id == 3) && @.tag )]')).toEqual([1, 3]);
  expect(ids('$.items[?(@.ok == null)]')).toEqual([3]);
  // An object is tested itself; a comparison across types, or with a missing value, is false.
  expect(ids('$.one[?(@.id == 5)]')).toEqual([5]);
  expect(ids('$.items[?(@.id > "1")]')).toEqual(['4']);
  expect(evalPath(input, '$.items[?(@.id > 1)].tag').value).toEqual(['b', 'b']);
});

test('recursive descent', () => {
  const input: Json = { a: { v: 1, b: [{ v: 2 }, { c: { v: 3 } }] }, v: 0 };
  expect(evalPath(input, '$..v').value).toEqual([0, 1, 2, 3]);
  expect(evalPath(input, '$.a..v').value).toEqual([1, 2, 3]);
  expect(evalPath(input, '$..b[1]').value).toEqual([{ c: { v: 3 } }]);
  expect(evalPath(input, '$..[?(@.v > 1)]').value).toEqual([{ v: 2 }, { v: 3 }]);
  expect(evalPath({ a: [1, { b: 2 }] }, '$..*').value).toEqual([[1, { b: 2 }], 1, { b: 2 }, 2]);
});

test('syntax errors are States.Runtime naming the path and the position', () => {
  for (const [path, position] of [['$.a[', 4], ['$.', 2], ['$a', 1], ['$.a[?(@.b ~ 1)]', 10], ['$.a[1,2]', 5], ['$.a b', 3], ['@.a', 0], ['$.a[?(@..b)]', 10]] as const) {
    expect(() => evalPath({}, path)).toThrow(expect.objectContaining({ name: 'States.Runtime', message: expect.stringContaining(`invalid path ${JSON.stringify(path)}`) }));
    expect(() => evalPath({}, path)).toThrow(new RegExp(`at position ${position}$`));
  }
});

test('path kinds: a reference path names one place; only templates read the context object', () => {
  for (const path of ['$.a[*]', '$..a', '$.a[0:1]', '$.a[-1]', '$.a[?(@.b)]', '$.*']) {
    expect(() => pathOf(path, 'reference')).toThrow(/a reference path has only names and non-negative indexes/);
    expect(() => pathOf(path, 'path')).not.toThrow();
  }
  expect(pathOf("$.a['b c'][0]", 'reference').steps).toEqual([{ name: 'a' }, { name: 'b c' }, { index: 0 }]);
  expect(() => pathOf('$$.Execution.Id', 'path')).toThrow(/context object/);
  expect(pathOf('$$.Execution.Id', 'template').root).toBe('$$');
  expect(() => setPath({ a: [1] }, '$.a[*]', 1)).toThrow(expect.objectContaining({ name: 'States.Runtime' }));
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

test('the four string escapes Step Functions documents: \\\' \\{ \\} \\\\', () => {
  expect(intrinsic("States.Format('a\\\\b {} \\{\\} \\'q\\'', 1)", {})).toBe("a\\b 1 {} 'q'");
  expect(intrinsic("States.Array('\\\\', '\\{}')", {})).toEqual(['\\', '{}']);
  // An escaped backslash before a placeholder leaves the placeholder.
  expect(intrinsic("States.Format('\\\\{}', 'x')", {})).toBe('\\x');
  expect(() => parseIntrinsic("States.Format('a\\nb')")).toThrow(/must end with ' and may only escape/);
});

test('intrinsic errors that depend on the data: States.IntrinsicFailure at run time', () => {
  expect(() => intrinsic("States.Format('{}', $.o)", { o: { a: 1 } })).toThrow(/strings, numbers/);
  expect(() => intrinsic('States.JsonMerge($.a, $.a, $.deep)', { a: {}, deep: 'yes' })).toThrow(/deep merge\) must be a boolean/);
  expect(() => intrinsic("States.StringToJson('{nope')", {})).toThrow(expect.objectContaining({ name: 'States.IntrinsicFailure' }));
  expect(() => intrinsic('States.StringToJson($.n)', { n: 1 })).toThrow(expect.objectContaining({ name: 'States.IntrinsicFailure' }));
});

test('intrinsic errors that do not depend on the data: found when parsing (the compiler rejects them)', () => {
  for (const [text, message] of [
    ["States.Format('{} {}', 1)", /2 placeholder\(s\) for 1 argument/],
    ["States.Format('{}', 1, 2)", /1 placeholder\(s\) for 2 argument/],
    ["States.Format('{', 1)", /escape a brace/],
    ['States.Format($.t, 1)', /string literal template/],
    ['States.JsonMerge($.a, $.a, 1)', /deep merge\) must be a boolean/],
    ['States.JsonToString($.a, $.b)', /takes 1 argument/],
    ['States.Hash($.a)', /States.Hash takes 2 argument\(s\), got 1/],
    ['States.Array(1) + 2', /unexpected input/],
    ['process.exit(1)', /expected a path, a literal or an intrinsic function/],
    ["States.Format('{}', $.a", /expected '\)'/],
    ['States.Array($.a[?(@.b)', /expected '\]'/],
  ] as const) {
    expect(() => parseIntrinsic(text)).toThrow(expect.objectContaining({ name: 'States.Runtime', message: expect.stringMatching(message) }));
  }
});

test('intrinsic arguments take the full path grammar', () => {
  const input = { items: [{ id: 1 }, { id: 2 }], deep: { id: 3 } };
  expect(intrinsic('States.Array($.items[?(@.id > 1)], $..id)', input)).toEqual([[{ id: 2 }], [1, 2, 3]]);
  expect(intrinsic("States.JsonToString($['items'][0])", input)).toBe('{"id":1}');
});

test('templates call intrinsics', () => {
  expect(applyTemplate({ 'msg.$': "States.Format('Hi {}', $.n)" }, { n: 'Bo' }, {})).toEqual({ msg: 'Hi Bo' });
});
