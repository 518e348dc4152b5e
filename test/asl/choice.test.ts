/** Choice states: every JSONPath-mode operator, the Path variants, And/Or/Not, Default, loops. */
import type { ChoiceRule, Condition, Instruction } from '../../runtime/contract/ir';
import { evaluate } from '../../runtime/language/condition';
import { compileAsl, machine, task } from './helpers';

type Case = [operator: string, value: unknown, expected: Condition];

const cmp = (type: string, op: string, value: unknown) => ({ kind: 'compare', type, op, path: '$.v', value }) as Condition;
const cmpPath = (type: string, op: string) => ({ kind: 'comparePath', type, op, path: '$.v', otherPath: '$.w' }) as Condition;
const typeTest = (test: string, expected: boolean) => ({ kind: 'test', test, path: '$.v', expected }) as Condition;

const OPS: [string, string][] = [['Equals', 'eq'], ['LessThan', 'lt'], ['GreaterThan', 'gt'], ['LessThanEquals', 'le'], ['GreaterThanEquals', 'ge']];
const TS = '2026-11-22T00:00:00Z';

const CASES: Case[] = [
  ...OPS.map(([name, op]): Case => [`String${name}`, 'b', cmp('string', op, 'b')]),
  ...OPS.map(([name, op]): Case => [`Numeric${name}`, 2, cmp('number', op, 2)]),
  ...OPS.map(([name, op]): Case => [`Timestamp${name}`, TS, cmp('timestamp', op, TS)]),
  ['BooleanEquals', true, cmp('boolean', 'eq', true)],
  ...OPS.map(([name, op]): Case => [`String${name}Path`, '$.w', cmpPath('string', op)]),
  ...OPS.map(([name, op]): Case => [`Numeric${name}Path`, '$.w', cmpPath('number', op)]),
  ...OPS.map(([name, op]): Case => [`Timestamp${name}Path`, '$.w', cmpPath('timestamp', op)]),
  ['BooleanEqualsPath', '$.w', cmpPath('boolean', 'eq')],
  ['StringMatches', 'log-*.txt', { kind: 'matches', path: '$.v', pattern: 'log-*.txt' }],
  ['IsPresent', true, typeTest('present', true)],
  ['IsNull', false, typeTest('null', false)],
  ['IsString', true, typeTest('string', true)],
  ['IsNumeric', true, typeTest('number', true)],
  ['IsBoolean', true, typeTest('boolean', true)],
  ['IsTimestamp', true, typeTest('timestamp', true)],
];

/** One Choice with a rule per operator (all to Yes), Default No; the Choice follows a Task so it is folded into it. */
function rulesOf(rules: Record<string, unknown>[]): { rules: readonly ChoiceRule[]; otherwise?: readonly Instruction[] } {
  const doc = machine({
    Start: task({ Next: 'Pick' }),
    Pick: { Type: 'Choice', Choices: rules.map((r) => ({ ...r, Next: 'Yes' })), Default: 'No' } as never,
    Yes: task({ Resource: 'Yes' }),
    No: task({ Resource: 'No' }),
  });
  const [choice] = compileAsl(doc).nodes.Start.ir.instructions;
  if (choice.op !== 'choice') throw new Error(`expected a choice, got ${choice.op}`);
  return choice;
}

describe('Choice operators (JSONPath mode)', () => {
  test('the table covers every comparison operator, its Path variant, StringMatches and the six type tests', () => {
    expect(CASES).toHaveLength(16 + 16 + 1 + 6);
  });

  test('each operator becomes its Condition, in rule order, with Default as otherwise', () => {
    const choice = rulesOf(CASES.map(([op, value]) => ({ Variable: '$.v', [op]: value })));
    expect(choice.rules.map((r) => r.when)).toEqual(CASES.map(([, , expected]) => expected));
    expect(choice.rules.every((r) => JSON.stringify(r.then) === JSON.stringify([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Yes' } }]))).toBe(true);
    expect(choice.otherwise).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'No' } }]);
  });

  test('And / Or / Not nest, and the runtime evaluates them as ASL does', () => {
    const rule = {
      And: [
        { Variable: '$.n', NumericGreaterThanEquals: 20 },
        { Or: [{ Variable: '$.kind', StringEquals: 'a' }, { Not: { Variable: '$.kind', StringMatches: 'x*' } }] },
      ],
    };
    const [compiled] = rulesOf([rule]).rules;
    expect(compiled.when).toEqual({
      kind: 'and',
      all: [
        { kind: 'compare', type: 'number', op: 'ge', path: '$.n', value: 20 },
        { kind: 'or', any: [{ kind: 'compare', type: 'string', op: 'eq', path: '$.kind', value: 'a' }, { kind: 'not', arg: { kind: 'matches', path: '$.kind', pattern: 'x*' } }] },
      ],
    });
    // n >= 20 and (kind == 'a' or kind does not match x*)
    expect(evaluate(compiled.when, { n: 20, kind: 'a' })).toBe(true);
    expect(evaluate(compiled.when, { n: 25, kind: 'b' })).toBe(true);
    expect(evaluate(compiled.when, { n: 25, kind: 'xy' })).toBe(false);
    expect(evaluate(compiled.when, { n: 19, kind: 'a' })).toBe(false);
  });

  test('Path variants compare two values of the input', () => {
    const [rule] = rulesOf([{ Variable: '$.v', NumericLessThanPath: '$.w' }]).rules;
    expect(evaluate(rule.when, { v: 1, w: 2 })).toBe(true);
    expect(evaluate(rule.when, { v: 2, w: 2 })).toBe(false);
  });
});

describe('Choice placement', () => {
  test('a Choice that starts the workflow gets an implicit entry node; without Default there is no otherwise', () => {
    const doc = machine({ Pick: { Type: 'Choice', Choices: [{ Variable: '$', StringEquals: 'a', Next: 'A' }] }, A: task() });
    const compiled = compileAsl(doc);
    expect(compiled.entry).toBe('Pick.Enter');
    expect(compiled.nodes['Pick.Enter'].ir.instructions).toEqual([
      { op: 'choice', state: 'Pick', rules: [{ when: { kind: 'compare', type: 'string', op: 'eq', path: '$', value: 'a' }, then: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'A' } }] }] },
    ]);
  });

  test('a Choice looping back to an earlier Task starts a new iteration', () => {
    const doc = machine({
      Step: task({ Next: 'Again?' }),
      'Again?': { Type: 'Choice', Choices: [{ Variable: '$.n', NumericGreaterThan: 0, Next: 'Step' }], Default: 'Done' },
      Done: { Type: 'Succeed' },
    });
    expect(compileAsl(doc).nodes.Step.ir.instructions).toEqual([
      {
        op: 'choice',
        state: 'Again?',
        rules: [{ when: { kind: 'compare', type: 'number', op: 'gt', path: '$.n', value: 0 }, then: [{ op: 'incrIteration' }, { op: 'invoke', invoke: { kind: 'scalar', target: 'Step' } }] }],
        otherwise: [{ op: 'succeed' }],
      },
    ]);
  });
});

describe('Choice InputPath', () => {
  test('a Pass with the InputPath takes the state\'s node name; the Choice follows it and sees the selection', () => {
    const doc = machine({
      Route: { Type: 'Choice', InputPath: '$.order', Choices: [{ Variable: '$.total', NumericGreaterThan: 100, Next: 'Big' }], Default: 'Small' },
      Big: task({ Resource: 'Big' }),
      Small: task({ Resource: 'Small' }),
    });
    const { nodes, entry } = compileAsl(doc);
    expect(entry).toBe('Route');
    expect(nodes.Route.ir.handler).toEqual({ kind: 'pass' });
    expect(nodes.Route.ir.io).toEqual({ inputPath: '$.order' });
    expect(nodes.Route.ir.instructions).toEqual([
      {
        op: 'choice',
        state: 'Route',
        rules: [{ when: { kind: 'compare', type: 'number', op: 'gt', path: '$.total', value: 100 }, then: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'Big' } }] }],
        otherwise: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'Small' } }],
      },
    ]);
  });

  test('InputPath and OutputPath of "$" add nothing', () => {
    const doc = machine({ Start: task({ Next: 'Route' }), Route: { Type: 'Choice', InputPath: '$', OutputPath: '$', Choices: [{ Variable: '$.a', IsPresent: true, Next: 'End' }], Default: 'End' }, End: { Type: 'Succeed' } });
    expect(Object.keys(compileAsl(doc).nodes)).toEqual(['Start']);
  });
});
