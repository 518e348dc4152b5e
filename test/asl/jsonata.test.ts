/**
 * JSONata mode in ASL documents (issue 38, first part): `QueryLanguage:
 * JSONata` at the top or on a state; Pass `Output`, Task `Arguments` and
 * `Output` carry into the IR; what the runtime does not evaluate yet is
 * refused naming the state and field; an expression that does not parse is
 * a synth error naming the state, the field and the place in it.
 */
import { Pass, QueryLanguage, Task, Definition, compileWorkflow } from '../../lib';
import { aslError, compileAsl, ENTRY, machine, task } from './helpers';

describe('JSONata', () => {
  test('a JSONata document: Task Arguments and Output, a Pass Output folded into the Task, into the IR', () => {
    const doc = machine({
      Price: task({ Arguments: { items: '{% $states.input.order.items %}', currency: 'EUR' }, Output: '{% $merge([$states.input, {"total": $states.result.total}]) %}', Next: 'Tag' }),
      Tag: { Type: 'Pass', Output: { total: '{% $states.input.total %}', tagged: true }, End: true },
    }, { QueryLanguage: 'JSONata' });
    const { nodes } = compileAsl(doc);
    expect(nodes.Price.ir.io).toEqual({ queryLanguage: 'JSONata', arguments: { items: '{% $states.input.order.items %}', currency: 'EUR' }, outputs: '{% $merge([$states.input, {"total": $states.result.total}]) %}' });
    expect(nodes.Price.ir.instructions[0]).toEqual({ op: 'pass', io: { queryLanguage: 'JSONata', outputs: { total: '{% $states.input.total %}', tagged: true } } });
  });

  test('one JSONata state in a JSONPath document; the other states keep JSONPath (and their IR is what it was)', () => {
    const doc = machine({ A: task({ Parameters: { 'x.$': '$.x' }, Next: 'B' }), B: task({ QueryLanguage: 'JSONata', Arguments: '{% $states.input %}' }) });
    const { nodes } = compileAsl(doc);
    expect(nodes.A.ir.io).toEqual({ parameters: { 'x.$': '$.x' } });
    expect(nodes.B.ir.io).toEqual({ queryLanguage: 'JSONata', arguments: '{% $states.input %}' });
  });

  test('refused, naming the state and field: a JSONPath state in a JSONata document, JSONata where it is not evaluated yet, JSONPath fields, lambda:invoke', () => {
    expect(aslError(machine({ A: task({ QueryLanguage: 'JSONPath' }) }, { QueryLanguage: 'JSONata' }))).toContain("node 'A', field 'QueryLanguage': a JSONPath state cannot be in a JSONata document");
    expect(aslError(machine({ A: task({ QueryLanguage: 'JSONata', Catch: [{ ErrorEquals: ['States.ALL'], Next: 'B', Output: {} }], Next: 'B' }), B: { Type: 'Succeed' } }))).toContain("node 'A', field 'Catch[0].Output': Output is not supported here");
    expect(aslError(machine({ A: task({ QueryLanguage: 'JSONata', Assign: { x: 1 } }) }))).toContain('Assign is not supported on a Task state: workflow variables are not supported yet');
    const invoke = task({ QueryLanguage: 'JSONata', Resource: 'arn:aws:states:::lambda:invoke', Arguments: { FunctionName: 'Fn', Payload: '{% $states.input %}' } });
    expect(aslError(machine({ A: invoke }))).toContain('not yet with arn:aws:states:::lambda:invoke');
  });

  test('an expression that does not parse fails synth with the state and the place in the field (asl-validator finds it first)', () => {
    expect(aslError(machine({ A: task({ QueryLanguage: 'JSONata', Arguments: { a: { b: '{% $sum(( %}' } } }) }))).toContain("node 'A', field 'Arguments.a.b': the document is not valid ASL");
  });
});

describe('JSONata in the DSL', () => {
  const entry = ENTRY;
  test('Pass.jsonata and Task.jsonata compile to the same IR as the ASL; JSONPath fields on a JSONata state are refused', () => {
    const def = Definition.from(Task.jsonata('Price', { entry, handler: 'Fn', arguments: { n: '{% $states.input.n %}' }, outputs: '{% $states.result %}' }).next(Pass.jsonata('Tag', { outputs: { ok: true } })));
    const { nodes } = compileWorkflow('wf', def);
    expect(nodes.Price.ir.io).toEqual({ queryLanguage: 'JSONata', arguments: { n: '{% $states.input.n %}' }, outputs: '{% $states.result %}' });
    const mixed = Definition.from(new Task('T', { entry, handler: 'Fn', queryLanguage: QueryLanguage.JSONATA, inputPath: '$.x' }));
    expect(() => compileWorkflow('wf', mixed)).toThrow("field 'inputPath': a JSONata state has arguments and outputs instead of inputPath");
    const stray = Definition.from(new Pass('P', { outputs: { a: 1 } }));
    expect(() => compileWorkflow('wf', stray)).toThrow("field 'outputs': outputs is a JSONata field: set queryLanguage: 'JSONata'");
    const broken = Definition.from(Pass.jsonata('P', { outputs: { a: ['{% $sum(( %}'] } }));
    expect(() => compileWorkflow('wf', broken)).toThrow(/node 'P', field 'outputs': outputs\.a\[0\]: JSONata expression \{% \$sum\(\( %\} does not parse at \d+/);
  });
});
