/**
 * JSONata in Choice, Wait, Fail and Succeed states (issue 38): an ASL
 * document and the DSL give the same IR; the runtime decides a Choice, ends
 * a Wait and names a Fail's error from the expressions, as the `jsonata`
 * package evaluates them; what cannot be evaluated the same way by every
 * execution of a node, or is not translated, is refused naming the state and field.
 */
import jsonata from 'jsonata';
import { Choice, Condition, Definition, Fail, MapState, Parallel, Pass, QueryLanguage, Succeed, Task, Wait, WaitTime, compileWorkflow } from '../../lib';
import type { Instruction, Json } from '../../runtime/contract/ir';
import { decideChoice } from '../../runtime/language/condition';
import { useJsonataEngine } from '../../runtime/language/jsonata';
import { jsonataEngine } from '../../runtime/language/jsonata-engine';
import { failure } from '../../runtime/states/fail';
import type { Exec } from '../../runtime/ports/execution';
import { usesJsonata } from '../../lib/construct/bundling';
import { aslError, compileAsl, ENTRY, machine, task } from './helpers';

useJsonataEngine(jsonataEngine);

const ROUTE = machine({
  Price: task({ Next: 'Route' }),
  Route: {
    Type: 'Choice',
    Choices: [
      { Condition: '{% $states.input.total > 100 %}', Next: 'Big' },
      { Condition: "{% $states.context.State.Name = 'Route' and $count($states.input.lines) = 0 %}", Next: 'Empty' },
    ],
    Default: 'Hold',
  },
  Big: task({ Next: 'Done' }),
  Empty: { Type: 'Fail', Error: '{% "Order." & $states.input.kind %}', Cause: 'no lines' },
  Hold: { Type: 'Wait', Seconds: '{% $states.input.delay %}', Output: { held: '{% $states.input.total %}' }, Next: 'Done' },
  Done: { Type: 'Succeed', Output: { total: '{% $states.input.total %}' } },
}, { QueryLanguage: 'JSONata' });

describe('an ASL document with JSONata Choice, Wait, Fail and Succeed states', () => {
  const { nodes } = compileAsl(ROUTE);
  const choice = nodes.Price.ir.instructions.find((i) => i.op === 'choice') as Extract<Instruction, { op: 'choice' }>;

  test('the Choice folds into the state before it with its conditions as written; its Fail and its Wait go into the IR', () => {
    expect(choice.rules.map((r) => r.when)).toEqual([
      { kind: 'jsonata', condition: '{% $states.input.total > 100 %}' },
      { kind: 'jsonata', condition: "{% $states.context.State.Name = 'Route' and $count($states.input.lines) = 0 %}" },
    ]);
    expect(choice.rules[1].then).toEqual([{ op: 'fail', state: 'Empty', queryLanguage: 'JSONata', error: '{% "Order." & $states.input.kind %}', cause: 'no lines' }]);
    expect(choice.otherwise).toEqual([{ op: 'invoke', invoke: expect.objectContaining({ target: 'Hold', wait: { state: 'Hold', secondsExpression: '{% $states.input.delay %}' } }) }]);
    expect(nodes.Hold.ir.io).toEqual({ queryLanguage: 'JSONata', outputs: { held: '{% $states.input.total %}' } });
    // Succeed's Output: a JSONata Pass in front of it, which takes the state's name.
    expect(nodes.Done.ir.io).toEqual({ queryLanguage: 'JSONata', outputs: { total: '{% $states.input.total %}' } });
  });

  test('the engine is bundled where JSONata is evaluated: the node the Choice folds into, the Wait, and Big, into which Done\'s Pass folds', () => {
    expect(usesJsonata(nodes.Price.ir)).toBe(true);
    expect(usesJsonata(nodes.Hold.ir)).toBe(true);
    expect(usesJsonata(nodes.Big.ir)).toBe(true);
    expect(usesJsonata(compileAsl(machine({ A: task({ Next: 'B' }), B: task() })).nodes.A.ir)).toBe(false);
  });

  test('the DSL writes the same IR (Choice.jsonata, Condition.jsonata, Wait.jsonata, WaitTime.seconds, Fail.jsonata)', () => {
    const done = Pass.jsonata('Done', { outputs: { total: '{% $states.input.total %}' } }).next(new Succeed('Done-succeed'));
    const route = Choice.jsonata('Route')
      .when(Condition.jsonata('{% $states.input.total > 100 %}'), new Task('Big', { entry: ENTRY, handler: 'Fn' }).next(done))
      .when(Condition.jsonata("{% $states.context.State.Name = 'Route' and $count($states.input.lines) = 0 %}"), Fail.jsonata('Empty', { error: '{% "Order." & $states.input.kind %}', cause: 'no lines' }))
      .otherwise(Wait.jsonata('Hold', { time: WaitTime.seconds('{% $states.input.delay %}'), outputs: { held: '{% $states.input.total %}' } }).next(done));
    const dsl = compileWorkflow('wf', Definition.from(new Task('Price', { entry: ENTRY, handler: 'Fn' }).next(route)));
    expect(dsl.nodes.Price.ir.instructions).toEqual(nodes.Price.ir.instructions);
    expect(dsl.nodes.Hold.ir).toEqual(nodes.Hold.ir);
    expect(dsl.nodes.Done.ir.io).toEqual(nodes.Done.ir.io);
  });
});

describe('the runtime decides a JSONata Choice as the jsonata package evaluates its conditions', () => {
  const { nodes } = compileAsl(ROUTE);
  const choice = nodes.Price.ir.instructions.find((i) => i.op === 'choice') as Extract<Instruction, { op: 'choice' }>;
  const context = { Execution: { Id: 'run-1' }, State: { Name: 'Route' } };
  const target = (decided: Awaited<ReturnType<typeof decideChoice>>): string => {
    if ('failed' in decided) return `failed ${decided.failed.name}: ${decided.failed.message}`;
    const first = decided.next?.[0];
    return first === undefined ? 'none' : first.op === 'invoke' && 'target' in first.invoke ? first.invoke.target : first.op === 'fail' ? `fail ${first.state}` : first.op;
  };
  const reference = async (input: Json): Promise<string> => {
    for (const [i, rule] of choice.rules.entries()) {
      const condition = (rule.when as { condition: string }).condition.slice(2, -2);
      if ((await jsonata(condition).evaluate(input, { states: { input, context } })) === true) return i === 0 ? 'Big' : 'fail Empty';
    }
    return 'Hold';
  };

  test.each<[string, Json]>([
    ['a big order', { total: 150, lines: [1] }],
    ['an empty one', { total: 0, lines: [] }],
    ['a small one', { total: 20, lines: [1, 2] }],
  ])('%s', async (_name, input) => {
    expect(target(await decideChoice(choice, input, context))).toBe(await reference(input));
  });

  test('a condition that gives no boolean, or fails, is the Choice state\'s States.QueryEvaluationError', async () => {
    expect(target(await decideChoice(choice, { lines: [] }, context))).toBe("failed States.QueryEvaluationError: Choice state 'Route': Choices[0].Condition: the expression gives no value (undefined)");
    const odd = { ...choice, rules: [{ when: { kind: 'jsonata' as const, condition: '{% $states.input.total %}' }, then: [] }] };
    expect(target(await decideChoice(odd, { total: 3 }, context))).toBe("failed States.QueryEvaluationError: Choice state 'Route': Choices[0].Condition: the condition gives 3, not a boolean");
  });
});

describe('a JSONata Fail names its error and cause from expressions', () => {
  const x = { rt: { ir: { node: 'Price' } }, invocation: { workflowId: 'run-1' } } as unknown as Exec;
  const fail = { op: 'fail' as const, state: 'Empty', queryLanguage: 'JSONata' as const, error: '{% "Order." & $states.input.kind %}', cause: '{% $states.context.State.Name %}' };

  test('strings as written, expressions evaluated over the state input, with the Fail state\'s context', async () => {
    expect(await failure(x, fail, { kind: 'Empty' })).toEqual({ error: 'Order.Empty', cause: 'Empty' });
    expect(await failure(x, { ...fail, error: 'Plain', cause: undefined }, {})).toEqual({ error: 'Plain', cause: '' });
  });

  test('an expression that gives no string is States.QueryEvaluationError', async () => {
    await expect(failure(x, { ...fail, error: '{% $states.input.code %}' }, { code: 7 })).rejects.toMatchObject({ name: 'States.QueryEvaluationError', message: 'Fail Empty Error: the expression gave 7, not a string' });
  });
});

describe('refused at synth, naming the state and the field', () => {
  const choiceOn = (condition: Json, extra: Record<string, Json> = {}): Record<string, Json> =>
    machine({ A: { Type: 'Choice', Choices: [{ Condition: condition, Next: 'B', ...extra }], Default: 'B' }, B: { Type: 'Succeed' } }, { QueryLanguage: 'JSONata' });

  test.each(['$now()', '$millis()', '$uuid()', '$random()', '($f := $now; $f())'])('a condition that reads %s (a duplicate of the node could decide otherwise)', (call) => {
    expect(aslError(choiceOn(`{% $states.input.x = ${call} %}`))).toMatch(/node 'A', field 'Choices\[0\]\.Condition': the condition reads \$(now|millis|uuid|random), whose value changes/);
  });

  test('a seeded $random decides alike every time, and is accepted', () => {
    expect(() => compileAsl(choiceOn('{% $random(7) < 0.5 %}'))).not.toThrow();
  });

  test('a condition that does not parse, Output and Assign on a rule or the Choice', () => {
    expect(aslError(choiceOn('{% $states.input.x > %}'))).toContain("node 'A', field 'Choices[0].Condition': the document is not valid ASL");
    expect(aslError(choiceOn('{% true %}', { Output: {} }))).toContain("node 'A', field 'Choices[0].Output': Output is not supported here");
    const stateOutput = machine({ A: { Type: 'Choice', Output: {}, Choices: [{ Condition: '{% true %}', Next: 'B' }] }, B: { Type: 'Succeed' } }, { QueryLanguage: 'JSONata' });
    expect(aslError(stateOutput)).toContain("node 'A', field 'Output': Output is not supported on a Choice state: a JSONata Choice's Output is not supported");
  });

  test('the DSL: a JSONata condition in a JSONPath Choice, a JSONPath one in a JSONata Choice, a JSONata one inside and()', () => {
    const b = (): Pass => new Pass('B');
    const compile = (c: Choice): string => {
      try {
        compileWorkflow('wf', Definition.from(c));
      } catch (e) {
        return (e as Error).message;
      }
      return 'compiled';
    };
    expect(compile(new Choice('C').when(Condition.jsonata('{% true %}'), b()))).toBe("Workflow 'wf', node 'C', field 'when[0]': Condition.jsonata() needs a JSONata Choice: create it with Choice.jsonata(id)");
    expect(compile(Choice.jsonata('C').when(Condition.isPresent('$.a'), b()))).toBe("Workflow 'wf', node 'C', field 'when[0]': a JSONata Choice takes Condition.jsonata('{% ... %}') rules");
    expect(compile(new Choice('C').when(Condition.and(Condition.jsonata('{% true %}')), b()))).toContain("field 'when[0]': Condition.jsonata() is a whole rule of a Choice.jsonata, not part of and/or/not");
    expect(compile(Choice.jsonata('C').when(Condition.jsonata('$states.input.a'), b()))).toContain("field 'when[0].condition': a JSONata condition is a string '{% <expression> %}'");
  });

  test('a Wait or Fail expression outside JSONata mode, paths in JSONata mode, an expression that does not parse', () => {
    const compile = (s: Wait | Fail): string => {
      try {
        compileWorkflow('wf', Definition.from(new Pass('P').next(s)));
      } catch (e) {
        return (e as Error).message;
      }
      return 'compiled';
    };
    expect(compile(new Wait('W', { time: WaitTime.seconds('{% 3 %}') }))).toContain("node 'W', field 'time.secondsExpression': a JSONata expression gives the time only in a JSONata Wait");
    expect(compile(Wait.jsonata('W', { time: WaitTime.secondsPath('$.s') }))).toContain("node 'W', field 'time.secondsPath': a JSONata Wait reads no paths");
    expect(compile(Wait.jsonata('W', { time: WaitTime.timestamp('{% $states.input.( %}') }))).toContain("node 'W', field 'time.timestampExpression': time.timestampExpression: JSONata expression");
    expect(compile(new Fail('F', { queryLanguage: 'JSONata', errorPath: '$.e' }))).toContain("node 'F', field 'errorPath': a JSONata Fail reads no paths");
    expect(compile(Fail.jsonata('F', { cause: '{% ( %}' }))).toContain("node 'F', field 'cause': cause: JSONata expression");
  });
});

describe('JSONata Parallel and Map states', () => {
  const FAN_OUT = machine({
    Both: {
      Type: 'Parallel',
      Arguments: { values: '{% $states.input.numbers %}' },
      Branches: [machine({ Sum: task() }), machine({ Each: { Type: 'Map', Items: '{% $states.input.values %}', ItemSelector: { v: '{% $states.context.Map.Item.Value %}' }, MaxConcurrency: 2, ItemProcessor: machine({ Scale: task() }), Output: '{% $states.result.n %}', End: true } })],
      Output: { sum: '{% $states.result[0] %}', kept: '{% $states.input.label %}' },
      End: true,
    },
  }, { QueryLanguage: 'JSONata' });
  const { nodes } = compileAsl(FAN_OUT);
  const fanOuts = (node: string) => nodes[node].ir.instructions.flatMap((i) => (i.op === 'invoke' && (i.invoke.kind === 'map' || i.invoke.kind === 'parallel') ? [i.invoke] : []));

  test('the branch input, the items and the item selector go into the fan-outs, the Outputs into the joins, as written', () => {
    const [parallel] = fanOuts(Object.keys(nodes).find((n) => fanOuts(n).some((f) => f.kind === 'parallel')) as string);
    expect(parallel).toMatchObject({ kind: 'parallel', input: { state: 'Both', queryLanguage: 'JSONata', arguments: { values: '{% $states.input.numbers %}' } } });
    const [map] = fanOuts(Object.keys(nodes).find((n) => fanOuts(n).some((f) => f.kind === 'map')) as string);
    expect(map).toMatchObject({ kind: 'map', queryLanguage: 'JSONata', items: '{% $states.input.values %}', itemSelector: { v: '{% $states.context.Map.Item.Value %}' }, state: 'Each', maxConcurrency: 2 });
    const joins = Object.values(nodes).flatMap((n) => (n.ir.join ? [n.ir.join] : []));
    expect(joins.map((j) => ({ queryLanguage: j.queryLanguage, outputs: j.outputs }))).toEqual(expect.arrayContaining([
      { queryLanguage: 'JSONata', outputs: { sum: '{% $states.result[0] %}', kept: '{% $states.input.label %}' } },
      { queryLanguage: 'JSONata', outputs: '{% $states.result.n %}' },
    ]));
    // The engine goes where items are made or rebuilt (the origin, the item processor's start) and where the joins run.
    const scale = nodes.Scale.ir;
    expect(scale.mapItems?.queryLanguage).toBe('JSONata');
    expect(usesJsonata(scale)).toBe(true);
    for (const n of Object.values(nodes).filter((x) => x.ir.join)) expect(usesJsonata(n.ir)).toBe(true);
  });

  test('the DSL writes the same IR (Parallel.jsonata, Map.jsonata)', () => {
    const each = MapState.jsonata('Each', { items: '{% $states.input.values %}', itemSelector: { v: '{% $states.context.Map.Item.Value %}' }, maxConcurrency: 2, outputs: '{% $states.result.n %}' })
      .itemProcessor(Task.jsonata('Scale', { entry: ENTRY, handler: 'Fn' }));
    const both = Parallel.jsonata('Both', { arguments: { values: '{% $states.input.numbers %}' }, outputs: { sum: '{% $states.result[0] %}', kept: '{% $states.input.label %}' } })
      .branch(Task.jsonata('Sum', { entry: ENTRY, handler: 'Fn' }), each);
    const dsl = compileWorkflow('wf', Definition.from(both));
    for (const [name, node] of Object.entries(nodes)) expect({ name, ir: dsl.nodes[name]?.ir }).toEqual({ name, ir: node.ir });
  });

  test('a JSONata Fail or Wait after a JSONPath Task bundles the engine into that Task\'s function', () => {
    const doc = machine({ A: task({ Next: 'F' }), F: { Type: 'Fail', QueryLanguage: 'JSONata', Error: '{% $states.input.code %}' } });
    expect(usesJsonata(compileAsl(doc).nodes.A.ir)).toBe(true);
    const wait = machine({ A: task({ Next: 'W' }), W: { Type: 'Wait', QueryLanguage: 'JSONata', Seconds: '{% $states.input.s %}', End: true } });
    expect(usesJsonata(compileAsl(wait).nodes.A.ir)).toBe(true);
  });

  test('refused, naming the state and the field: items or arguments that read the clock or a random value, an expression for MaxConcurrency, a path, items in a JSONPath Map', () => {
    const map = (extra: Record<string, Json>): Record<string, Json> => machine({ M: { Type: 'Map', ItemProcessor: machine({ S: task() }), End: true, ...extra } }, { QueryLanguage: 'JSONata' });
    expect(aslError(map({ ItemSelector: { id: '{% $uuid() %}' } }))).toContain("node 'M', field 'ItemSelector': itemSelector.id reads $uuid, whose value changes");
    expect(aslError(map({ Items: '{% [$random(), 1] %}' }))).toContain("node 'M', field 'Items': items reads $random");
    expect(aslError(map({ MaxConcurrency: '{% 2 %}' }))).toContain("node 'M', field 'MaxConcurrency': the concurrency bound is fixed at deploy time");
    const withPath = Definition.from(new MapState('M', { queryLanguage: QueryLanguage.JSONATA, itemsPath: '$.a' }).itemProcessor(new Pass('S')));
    expect(() => compileWorkflow('wf', withPath)).toThrow("field 'itemsPath': a JSONata Map reads no path");
    const parallel = machine({ P: { Type: 'Parallel', Arguments: { at: '{% $now() %}' }, Branches: [machine({ S: task() })], End: true } }, { QueryLanguage: 'JSONata' });
    expect(aslError(parallel)).toContain("node 'P', field 'Arguments': arguments.at reads $now");
    const jsonPathMap = Definition.from(new MapState('M', { items: [1, 2] }).itemProcessor(new Pass('S')));
    expect(() => compileWorkflow('wf', jsonPathMap)).toThrow("field 'items': items is a JSONata field: set queryLanguage: 'JSONata'");
  });
});
