/**
 * JSONata in Step Functions' JSONata mode (runtime/language/jsonata.ts on the
 * engine of jsonata-engine.ts): a template's `{% %}` strings give what the
 * `jsonata` package itself gives for the expression over the same input and
 * `$states` (the outside reference), every other value is taken as written;
 * Step Functions' functions; `States.QueryEvaluationError` naming the field.
 */
import fc from 'fast-check';
import jsonata from 'jsonata';
import type { Json } from '../../runtime/contract/ir';
import { jsonataEngine } from '../../runtime/language/jsonata-engine';
import { evaluateJsonataCondition, evaluateJsonataTemplate, jsonataExpressions, JsonataSyntaxError, type StatesVariable, useJsonataEngine } from '../../runtime/language/jsonata';

useJsonataEngine(jsonataEngine);

const states = (input: Json, extra: Partial<StatesVariable> = {}): StatesVariable => ({ input, context: { Execution: { Id: 'run-1' }, State: { Name: 'S' } }, ...extra });
const reference = async (expression: string, s: StatesVariable): Promise<unknown> => jsonata(expression).evaluate(s.input, { states: s });

const EXPRESSIONS = [
  '$states.input.items[price > 10].name',
  '$sum($states.input.items.price)',
  '$count($states.input.items)',
  '{"total": $sum($states.input.items.price), "names": $join($states.input.items.name, ",")}',
  '$states.input.items ~> $map(function($v) { $v.price * 2 })',
  '$uppercase($states.input.customer)',
  '$states.context.Execution.Id & "/" & $states.context.State.Name',
  'items[0].name',
  '$states.input.items^(>price).name',
  '$string($states.input.items[1])',
];

test.each(EXPRESSIONS)('%s gives what the jsonata package gives', async (expression) => {
  const s = states({ customer: 'ada', items: [{ name: 'a', price: 5 }, { name: 'b', price: 20 }, { name: 'c', price: 12 }] });
  const expected = JSON.parse(JSON.stringify(await reference(expression, s))) as Json;
  expect(await evaluateJsonataTemplate(`{% ${expression} %}`, s, 'Output')).toEqual(expected);
});

test('property: arithmetic and string functions over random inputs agree with the jsonata package', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 20 }), fc.string({ maxLength: 20 }), async (numbers, text) => {
      const s = states({ numbers, text });
      for (const expression of ['$sum($states.input.numbers)', '$max($states.input.numbers)', '$length($states.input.text)', '$reverse($states.input.numbers)', '$states.input.numbers[$ > 0]']) {
        const expected = await reference(expression, s);
        const got = await evaluateJsonataTemplate({ v: `{% ${expression} %}` }, s, 'Output');
        expect(got).toEqual(expected === undefined ? {} : { v: JSON.parse(JSON.stringify(expected)) });
      }
    }),
    { numRuns: 50, verbose: true },
  );
});

test('a template: expressions anywhere in objects and arrays, literals as written, keys whose value is nothing left out', async () => {
  const s = states({ a: 1, list: [1, 2] }, { result: { ok: true } });
  expect(await evaluateJsonataTemplate({ x: '{% $states.input.a + 1 %}', lit: '$.a', arr: ['{% $states.result.ok %}', 3, 'plain'], missing: '{% $states.input.nope %}', nested: { y: '{%$states.input.list%}' } }, s, 'Output'))
    .toEqual({ x: 2, lit: '$.a', arr: [true, 3, 'plain'], nested: { y: [1, 2] } });
  expect(await evaluateJsonataTemplate('{% $states.input.list %}', s, 'Arguments')).toEqual([1, 2]);
  expect(await evaluateJsonataTemplate(42, s, 'Arguments')).toBe(42);
});

test('Step Functions\' functions: $partition, $range, $hash, $random with a seed, $uuid, $parse; $eval is not available', async () => {
  const s = states({ a: [1, 2, 3, 4, 5] });
  const v = await evaluateJsonataTemplate({
    p: '{% $partition($states.input.a, 2) %}',
    r: '{% $range(1, 9, 2) %}',
    down: '{% $range(5, 1, -2) %}',
    h: "{% $hash('abc', 'SHA-256') %}",
    seeded: '{% [$random(7), $random(7)] %}',
    u: '{% $uuid() %}',
    j: '{% $parse(\'{"k": [1, null]}\') %}',
  }, s, 'Output') as Record<string, Json>;
  expect(v).toMatchObject({ p: [[1, 2], [3, 4], [5]], r: [1, 3, 5, 7, 9], down: [5, 3, 1], h: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', j: { k: [1, null] } });
  const [a, b] = v.seeded as number[];
  expect(a).toBe(b);
  expect(a).toBeGreaterThanOrEqual(0);
  expect(a).toBeLessThan(1);
  expect(v.u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  await expect(evaluateJsonataTemplate('{% $eval("1") %}', s, 'Output')).rejects.toMatchObject({ name: 'States.QueryEvaluationError', message: expect.stringContaining('$eval is not available') });
  await expect(evaluateJsonataTemplate("{% $hash('abc', 'SHA-3') %}", s, 'Output')).rejects.toMatchObject({ name: 'States.QueryEvaluationError' });
  await expect(evaluateJsonataTemplate('{% $range(1, 5000, 1) %}', s, 'Output')).rejects.toThrow('at most 1000');
});

test('States.QueryEvaluationError names the field: an error, nothing for the whole field, a function, a condition that is not a boolean', async () => {
  const s = states({ a: 'x' });
  await expect(evaluateJsonataTemplate('{% $states.input.nope %}', s, 'Output')).rejects.toMatchObject({ name: 'States.QueryEvaluationError', message: 'Output: the expression gives no value (undefined)' });
  await expect(evaluateJsonataTemplate({ k: '{% $number("abc") + "x" %}' }, s, 'Arguments')).rejects.toMatchObject({ name: 'States.QueryEvaluationError', message: expect.stringMatching(/^Arguments\.k: /) });
  await expect(evaluateJsonataTemplate('{% $sum %}', s, 'Output')).rejects.toMatchObject({ message: 'Output: the expression gives a function, not a JSON value' });
  await expect(evaluateJsonataCondition('{% $states.input.a %}', s, 'Choices[0].Condition')).rejects.toMatchObject({ message: 'Choices[0].Condition: the condition gives "x", not a boolean' });
  expect(await evaluateJsonataCondition('{% $states.input.a = "x" %}', s, 'Choices[0].Condition')).toBe(true);
});

test('at synth: every expression of a template with where it is, and a syntax error with its position', () => {
  expect(jsonataExpressions({ a: '{% x %}', b: ['{% y %}', 'z'], c: { d: '{% $states.input %}' } }, 'Output')).toEqual([
    { where: 'Output.a', expression: 'x' },
    { where: 'Output.b[0]', expression: 'y' },
    { where: 'Output.c.d', expression: '$states.input' },
  ]);
  expect(() => jsonataEngine.check('$foo((')).toThrow(JsonataSyntaxError);
  expect(() => jsonataEngine.check('$foo((')).toThrow(/does not parse at \d+/);
  expect(() => jsonataEngine.check('$sum([1,2])')).not.toThrow();
});
