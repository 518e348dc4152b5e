/**
 * Every intrinsic function of the Step Functions documentation, with its
 * examples; the errors that depend on the data (States.IntrinsicFailure at
 * run time) and those that do not (found when parsing, so at synth); and the
 * determinism of States.MathRandom and States.UUID.
 */
import * as fc from 'fast-check';
import type { Json } from '../../runtime/contract/ir';
import { evalIntrinsic, parseIntrinsic } from '../../runtime/language/intrinsics';
import { applyTemplate } from '../../runtime/language/template';

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

const intrinsic = (text: string, input: Json = {}, context: Json = {}, site?: string): Json => evalIntrinsic(parseIntrinsic(text), input, context, site);
const runFailure = (message: RegExp) => expect.objectContaining({ name: 'States.IntrinsicFailure', message: expect.stringMatching(message) });
const parseFailure = (message: RegExp) => expect.objectContaining({ name: 'States.Runtime', message: expect.stringMatching(message) });

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const NINE = { inputArray: [1, 2, 3, 4, 5, 6, 7, 8, 9] };

describe('arrays', () => {
  test('the documentation examples', () => {
    expect(intrinsic('States.ArrayPartition($.inputArray,4)', NINE)).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9]]);
    expect(intrinsic('States.ArrayContains($.inputArray, $.lookingFor)', { ...NINE, lookingFor: 5 })).toBe(true);
    expect(intrinsic('States.ArrayRange(1, 9, 2)')).toEqual([1, 3, 5, 7, 9]);
    expect(intrinsic('States.ArrayGetItem($.inputArray, $.index)', { ...NINE, index: 5 })).toBe(6);
    expect(intrinsic('States.ArrayLength($.inputArray)', NINE)).toBe(9);
    expect(intrinsic('States.ArrayUnique($.inputArray)', { inputArray: [1, 2, 3, 3, 3, 3, 3, 3, 4] })).toEqual([1, 2, 3, 4]);
  });

  test('values compare as JSON, whatever the order of keys', () => {
    const input: Json = { list: [{ a: 1, b: [1, { c: null }] }, 'x', { b: 2 }], wanted: { b: [1, { c: null }], a: 1 } };
    expect(intrinsic('States.ArrayContains($.list, $.wanted)', input)).toBe(true);
    expect(intrinsic("States.ArrayContains($.list, 'y')", input)).toBe(false);
    expect(intrinsic('States.ArrayContains($.list, 1)', { list: ['1', [1]] })).toBe(false);
    expect(intrinsic('States.ArrayUnique($.list)', { list: [{ a: 1, b: 2 }, 1, { b: 2, a: 1 }, '1', 1, null, null] })).toEqual([{ a: 1, b: 2 }, 1, '1', null]);
  });

  test('ranges: downwards, empty, rounded, at most 1000 elements', () => {
    expect(intrinsic('States.ArrayRange(5, -5, -5)')).toEqual([5, 0, -5]);
    expect(intrinsic('States.ArrayRange(1, 10, 4)')).toEqual([1, 5, 9]);
    expect(intrinsic('States.ArrayRange(3, 1, 1)')).toEqual([]);
    expect(intrinsic('States.ArrayRange(1.4, 2.6, 0.6)')).toEqual([1, 2, 3]);
    expect(intrinsic('States.ArrayRange(1, 1000, 1)')).toHaveLength(1000);
    expect(() => intrinsic('States.ArrayRange(0, 1000, 1)')).toThrow(runFailure(/States.ArrayRange\(0, 1000, 1\) would have 1001 elements; at most 1000/));
    expect(() => intrinsic('States.ArrayRange(0, 10, $.step)', { step: 0.2 })).toThrow(runFailure(/argument 3 \(step\) must not be 0, got 0.2/));
  });

  test('partitions and items: a non-integer is rounded; a chunk size below 1 or an index out of range fails', () => {
    expect(intrinsic('States.ArrayPartition($.a, 1.6)', { a: [1, 2, 3] })).toEqual([[1, 2], [3]]);
    expect(intrinsic('States.ArrayPartition($.a, 5)', { a: [] })).toEqual([]);
    expect(() => intrinsic('States.ArrayPartition($.a, $.n)', { a: [1], n: 0 })).toThrow(runFailure(/States.ArrayPartition: argument 2 \(chunk size\) must be a positive integer, got 0/));
    expect(intrinsic('States.ArrayGetItem($.a, 0)', { a: [null] })).toBeNull();
    expect(() => intrinsic('States.ArrayGetItem($.a, $.i)', { a: [1, 2], i: 2 })).toThrow(runFailure(/index 2 is out of range for an array of 2 element/));
    expect(() => intrinsic('States.ArrayGetItem($.a, $.i)', { a: [1, 2], i: -1 })).toThrow(runFailure(/argument 2 \(index\) must not be negative/));
  });

  test('partitioning then concatenating gives the array back (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 30 }), fc.integer({ min: 1, max: 12 }), (a, n) => {
        const chunks = intrinsic('States.ArrayPartition($.a, $.n)', { a: a as Json[], n }) as Json[][];
        expect(chunks.flat()).toEqual(a);
        expect(chunks.every((c, i) => c.length === (i === chunks.length - 1 ? a.length - n * i : n))).toBe(true);
      }),
      { seed },
    );
  });

  test('ArrayUnique is idempotent, keeps first occurrences, and its elements are all contained (property)', () => {
    const element = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom<Json>('a', null, { k: 1, j: 2 }, { j: 2, k: 1 }, [1]));
    fc.assert(
      fc.property(fc.array(element, { maxLength: 20 }), (a) => {
        const once = intrinsic('States.ArrayUnique($.a)', { a }) as Json[];
        expect(intrinsic('States.ArrayUnique($.a)', { a: once })).toEqual(once);
        // The elements' own keys, sorted, as the replacer: equal objects written in another key order give the same text.
        expect(once.length).toBe(new Set(a.map((e) => JSON.stringify(e, Object.keys(e ?? {}).sort()))).size);
        for (const e of a) expect(intrinsic('States.ArrayContains($.u, $.e)', { u: once, e })).toBe(true);
      }),
      { seed },
    );
  });
});

describe('encoding and hashing', () => {
  test('the documentation examples', () => {
    expect(intrinsic('States.Base64Encode($.input)', { input: 'Data to encode' })).toBe('RGF0YSB0byBlbmNvZGU=');
    expect(intrinsic('States.Base64Decode($.base64)', { base64: 'RGF0YSB0byBlbmNvZGU=' })).toBe('Data to encode');
    // The documentation prints this digest with one of its 40 digits missing (d74485e8 as d7485e8).
    expect(intrinsic('States.Hash($.Data, $.Algorithm)', { Data: 'input data', Algorithm: 'SHA-1' })).toBe('aaff4a450a104cd177d28d18d74485e8cae074b7');
  });

  test('every algorithm, of the UTF-8 bytes', () => {
    const digests = ['MD5', 'SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'].map((a) => intrinsic(`States.Hash('abc', '${a}')`) as string);
    expect(digests.map((d) => d.length)).toEqual([32, 40, 64, 96, 128]);
    expect(digests[0]).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(digests[2]).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(intrinsic("States.Base64Encode('é')")).toBe('w6k=');
  });

  test('inputs of at most 10,000 characters; Base64 that is not, or is not UTF-8, fails', () => {
    const long = 'x'.repeat(10_001);
    for (const f of ['States.Base64Encode($.s)', 'States.Base64Decode($.s)', "States.Hash($.s, 'MD5')"]) {
      expect(() => intrinsic(f, { s: long })).toThrow(runFailure(/argument 1 \(data\) has 10001 characters; at most 10,000 are allowed/));
    }
    expect(intrinsic("States.Hash($.s, 'MD5')", { s: long.slice(1) })).toHaveLength(32);
    expect(() => intrinsic("States.Base64Decode('abc')")).toThrow(runFailure(/not Base64: abc/));
    expect(() => intrinsic("States.Base64Decode('a=bc')")).toThrow(runFailure(/not Base64/));
    expect(() => intrinsic("States.Base64Decode('/w==')")).toThrow(runFailure(/not UTF-8/));
    expect(intrinsic('States.Base64Decode($.s)', { s: 'RGF0YSB0\r\nbyBlbmNvZGU=' })).toBe('Data to encode');
    expect(() => intrinsic("States.Hash($.s, $.a)", { s: 'x', a: 'sha1' })).toThrow(runFailure(/argument 2 \(algorithm\) must be one of MD5, SHA-1, SHA-256, SHA-384, SHA-512, got "sha1"/));
  });

  test('decoding what was encoded gives the string back (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (s) => {
        const encoded = intrinsic('States.Base64Encode($.s)', { s });
        expect(intrinsic('States.Base64Decode($.e)', { e: encoded })).toBe(s);
      }),
      { seed },
    );
  });
});

describe('JSON', () => {
  const documented = { json1: { a: { a1: 1, a2: 2 }, b: 2 }, json2: { a: { a3: 1, a4: 2 }, c: 3 } };

  test('a shallow merge (the documentation example); a deep one is refused, as Step Functions refuses it', () => {
    expect(intrinsic('States.JsonMerge($.json1, $.json2, false)', documented)).toEqual({ a: { a3: 1, a4: 2 }, b: 2, c: 3 });
    expect(() => intrinsic('States.JsonMerge($.json1, $.json2, true)', documented)).toThrow(/argument 3 \(deep merge\) must be false: Step Functions \(and unum\) merge shallowly only/);
    expect(() => intrinsic('States.JsonMerge($.json1, $.json2, $.deep)', { ...documented, deep: true })).toThrow(runFailure(/argument 3 \(deep merge\) must be false/));
    // The arguments are not changed.
    expect(documented.json1.a).toEqual({ a1: 1, a2: 2 });
  });

  test('a key named __proto__ is a key like any other', () => {
    const a = JSON.parse('{"__proto__": {"p": 1}, "k": 1}') as Json;
    const b = JSON.parse('{"__proto__": {"q": 2}}') as Json;
    const merged = intrinsic('States.JsonMerge($.a, $.b, false)', { a, b }) as Record<string, Json>;
    expect(JSON.stringify(merged)).toBe('{"__proto__":{"q":2},"k":1}');
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
  });

  test('wrong types fail at run time, naming the function and the argument', () => {
    expect(() => intrinsic('States.JsonMerge($.a, $.b, false)', { a: {}, b: [1] })).toThrow(runFailure(/States.JsonMerge: argument 2 \(second object\) must be an object, got \[1\]/));
    expect(() => intrinsic('States.JsonMerge($.a, $.a, $.deep)', { a: {}, deep: 'yes' })).toThrow(runFailure(/argument 3 \(deep merge\) must be a boolean/));
  });
});

describe('math', () => {
  test('the documentation examples', () => {
    expect(intrinsic('States.MathAdd($.value1, $.step)', { value1: 111, step: -1 })).toBe(110);
    const random = intrinsic('States.MathRandom($.start, $.end)', { start: 1, end: 999 }) as number;
    expect(Number.isInteger(random) && random >= 1 && random < 999).toBe(true);
  });

  test('integers: rounded, and MathAdd within 32 bits', () => {
    expect(intrinsic('States.MathAdd(1.2, -2.7)')).toBe(-2);
    expect(intrinsic('States.MathAdd(2147483647, -2147483648)')).toBe(-1);
    expect(() => intrinsic('States.MathAdd($.a, 1)', { a: 2 ** 31 })).toThrow(runFailure(/argument 1 \(first number\) must be between -2147483648 and 2147483647/));
    expect(() => intrinsic('States.MathAdd($.a, 1)', { a: '1' })).toThrow(runFailure(/argument 1 \(first number\) must be an integer, got "1"/));
  });

  test('MathRandom: the start is included, the end is not; a start not below the end fails', () => {
    const draws = new Set(Array.from({ length: 200 }, (_, i) => intrinsic('States.MathRandom(0, 3)', { i })));
    expect([...draws].sort()).toEqual([0, 1, 2]);
    expect(intrinsic('States.MathRandom(7, 8)', { any: 1 })).toBe(7);
    expect(() => intrinsic('States.MathRandom($.s, 5)', { s: 5 })).toThrow(runFailure(/the start \(5\) must be less than the end \(5\)/));
  });

  test('MathRandom with a seed depends on the seed, the start and the end only', () => {
    const seeded = (input: Json, context: Json, site: string): Json => intrinsic('States.MathRandom(1, 1000000, $.seed)', input, context, site);
    const a = seeded({ seed: 42, other: 1 }, { Execution: { Id: 'r1' } }, 'here');
    expect(seeded({ seed: 42, other: 2 }, { Execution: { Id: 'r2' } }, 'there')).toBe(a);
    const others = [7, 43, 44, 45].map((s) => seeded({ seed: s }, {}, ''));
    expect(others.some((v) => v !== a)).toBe(true);
  });
});

describe('strings', () => {
  test('the documentation examples: one delimiter, and several', () => {
    expect(intrinsic('States.StringSplit($.inputString, $.splitter)', { inputString: '1,2,3,4,5', splitter: ',' })).toEqual(['1', '2', '3', '4', '5']);
    expect(intrinsic('States.StringSplit($.inputString, $.splitter)', { inputString: 'This.is+a,test=string', splitter: '.+,=' })).toEqual(['This', 'is', 'a', 'test', 'string']);
  });

  test('no empty pieces', () => {
    expect(intrinsic("States.StringSplit(',a,,b,', ',')")).toEqual(['a', 'b']);
    expect(intrinsic("States.StringSplit('', ',')")).toEqual([]);
    expect(intrinsic("States.StringSplit('abc', '')")).toEqual(['abc']);
  });

  test('the documentation example of nested intrinsics', () => {
    // The documentation's template has three placeholders for these two values, which Step Functions would refuse: two here.
    const myArn =
      "States.Format('{}.{}', States.ArrayGetItem(States.StringSplit(States.ArrayGetItem(States.StringSplit($.ImageRecipe.Arn, '/'), 2), '.'), 0), " +
      "States.ArrayGetItem(States.StringSplit(States.ArrayGetItem(States.StringSplit($.ImageRecipe.Arn, '/'), 2), '.'), 1))";
    expect(intrinsic(myArn, { ImageRecipe: { Arn: 'arn:aws:imagebuilder:us-east-1:123456789012:image-recipe/recipe/1.2.3' } })).toBe('1.2');
  });
});

describe('States.UUID and States.MathRandom without a seed: the same evaluation draws the same value', () => {
  const context = { Execution: { Id: 'run-1' }, State: { Name: 'Draw' } };

  test('a version 4 UUID, the same for every execution of the same evaluation', () => {
    const uuid = intrinsic('States.UUID()', { n: 1 }, context, 'k') as string;
    expect(uuid).toMatch(V4);
    expect(intrinsic('States.UUID()', { n: 1 }, structuredClone(context), 'k')).toBe(uuid);
    // Key order does not make another evaluation.
    expect(intrinsic('States.UUID()', { n: 1 }, { State: { Name: 'Draw' }, Execution: { Id: 'run-1' } }, 'k')).toBe(uuid);
  });

  test('another run, state, input, place in the template or call draws another value', () => {
    const uuid = intrinsic('States.UUID()', { n: 1 }, context, 'k');
    const others = [
      intrinsic('States.UUID()', { n: 1 }, { ...context, Execution: { Id: 'run-2' } }, 'k'),
      intrinsic('States.UUID()', { n: 1 }, { ...context, State: { Name: 'Other' } }, 'k'),
      intrinsic('States.UUID()', { n: 2 }, context, 'k'),
      intrinsic('States.UUID()', { n: 1 }, context, 'j'),
      ...(intrinsic('States.Array(States.UUID(), States.UUID())', { n: 1 }, context, 'k') as Json[]),
    ];
    expect(new Set([uuid, ...others]).size).toBe(others.length + 1);
  });

  test('in a template: equal calls under different keys differ, and every Map item draws its own', () => {
    const template = { 'a.$': 'States.UUID()', nested: { 'a.$': 'States.UUID()' }, list: [{ 'a.$': 'States.UUID()' }], 'r.$': 'States.MathRandom(0, 1000000000)' };
    const once = applyTemplate(template, { x: 1 }, context) as { a: string; nested: { a: string }; list: { a: string }[]; r: number };
    expect(applyTemplate(template, { x: 1 }, structuredClone(context))).toEqual(once);
    expect(new Set([once.a, once.nested.a, once.list[0].a]).size).toBe(3);
    const item = (index: number): Json => applyTemplate({ 'id.$': 'States.UUID()' }, { x: 1 }, { ...context, Map: { Item: { Index: index, Value: 'v' } } });
    expect(item(0)).not.toEqual(item(1));
  });

  test('UUIDs are version 4 and MathRandom stays in its range, on any input (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 1000 }), (input, start, size) => {
        expect(intrinsic('States.UUID()', input as Json, context)).toMatch(V4);
        const r = intrinsic('States.MathRandom($$.start, $$.end)', input as Json, { start, end: start + size }) as number;
        expect(Number.isInteger(r) && r >= start && r < start + size).toBe(true);
      }),
      { seed },
    );
  });
});

test('errors that do not depend on the data are found when parsing (the compiler rejects them)', () => {
  for (const [text, message] of [
    ['States.Nope($.a)', /the intrinsic function States.Nope is not supported \(supported: States.Array, States.ArrayPartition, .*States.UUID/],
    ['States.UUID(1)', /States.UUID takes 0 argument\(s\), got 1/],
    ['States.MathRandom(1)', /States.MathRandom takes 2 or 3 argument\(s\), got 1/],
    ['States.ArrayRange(1, 2)', /States.ArrayRange takes 3 argument\(s\), got 2/],
    ['States.Format()', /States.Format takes at least 1 argument\(s\), got 0/],
    ["States.Hash($.a, 'SHA-3')", /States.Hash: argument 2 \(algorithm\) must be one of MD5, SHA-1, SHA-256, SHA-384, SHA-512, got "SHA-3"/],
    ['States.Hash($.a, 256)', /States.Hash: argument 2 \(algorithm\) must be a string, got 256/],
    ['States.ArrayRange(1, 9, 0)', /States.ArrayRange: argument 3 \(step\) must not be 0, got 0/],
    ['States.ArrayRange(1, 9, -0.4)', /argument 3 \(step\) must not be 0, got -0.4/],
    ['States.ArrayPartition($.a, 0)', /argument 2 \(chunk size\) must be a positive integer, got 0/],
    ["States.ArrayLength('abc')", /States.ArrayLength: argument 1 \(array\) must be an array, got "abc"/],
    ['States.ArrayGetItem($.a, -1)', /argument 2 \(index\) must not be negative/],
    ['States.JsonMerge($.a, $.b, 1)', /argument 3 \(deep merge\) must be a boolean, got 1/],
    ['States.MathAdd(1, 4294967296)', /argument 2 \(second number\) must be between/],
    ['States.MathRandom(1, 2, true)', /argument 3 \(seed\) must be a number, got true/],
    ['States.Base64Encode(States.Array($.a))', /States.Base64Encode: argument 1 \(data\) must be a string, and States.Array gives an array/],
    ['States.ArrayLength(States.MathAdd(1, 2))', /argument 1 \(array\) must be an array, and States.MathAdd gives an integer/],
  ] as const) {
    expect(() => parseIntrinsic(text)).toThrow(parseFailure(message));
  }
  // A call whose type depends on the data passes: States.StringToJson and States.ArrayGetItem give any value.
  expect(intrinsic("States.ArrayLength(States.StringToJson('[1,2]'))")).toBe(2);
  expect(intrinsic('States.MathAdd(States.ArrayLength($.a), States.ArrayGetItem($.a, 0))', { a: [5] })).toBe(6);
});
