/** Pass states: Result, Parameters and the path fields become a pass node (no user code), or a pass instruction of the Task before them. */
import type { Json } from '../../runtime/contract/ir';
import { applyTemplate } from '../../runtime/language/template';
import { aslError, compileAsl, machine, task } from './helpers';

describe('Pass', () => {
  test('Result and the path fields carry over; the node has no function entry', () => {
    const doc = machine({
      Defaults: { Type: 'Pass', Result: { retries: 3 }, ResultPath: '$.config', InputPath: '$', OutputPath: '$', Comment: 'adds defaults', Next: 'Work' },
      Work: task(),
    });
    const node = compileAsl(doc).nodes.Defaults;
    expect(node.ir.handler).toEqual({ kind: 'pass', result: { retries: 3 } });
    expect(node.ir.io).toEqual({ inputPath: '$', resultPath: '$.config', outputPath: '$' });
    expect(node.fn.entry).toBeUndefined();
    expect(node.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Work' } }]);
  });

  test('Parameters without Result: the template output is the result', () => {
    const doc = machine({ Shape: { Type: 'Pass', Parameters: { 'id.$': '$.order.id', 'tag.$': "States.Format('order-{}', $.order.id)" }, End: true } });
    const ir = compileAsl(doc).nodes.Shape.ir;
    expect(ir.handler).toEqual({ kind: 'pass' });
    expect(ir.io).toEqual({ parameters: { 'id.$': '$.order.id', 'tag.$': "States.Format('order-{}', $.order.id)" } });
    expect(ir.instructions).toEqual([{ op: 'succeed' }]);
  });

  test('a literal null or false Result is kept (it is not "no Result")', () => {
    for (const result of [false, null]) {
      const doc = machine({ Nothing: { Type: 'Pass', Result: result, End: true } });
      expect(compileAsl(doc).nodes.Nothing.ir.handler).toEqual({ kind: 'pass', result });
    }
  });

  test('a Pass after a Task folds into it: a pass instruction, no node', () => {
    const doc = machine({ Work: task({ Next: 'Tag' }), Tag: { Type: 'Pass', Result: 'done', ResultPath: '$.status', Next: 'More' }, More: task() });
    const { nodes } = compileAsl(doc);
    expect(Object.keys(nodes)).toEqual(['Work', 'More']);
    expect(nodes.Work.ir.instructions).toEqual([{ op: 'pass', result: 'done', io: { resultPath: '$.status' } }, { op: 'invoke', invoke: { kind: 'scalar', target: 'More' } }]);
  });
});

describe('payload templates: the runtime grammar decides, asl-validator only where it is not stricter than Step Functions', () => {
  const shape = (parameters: Json): Record<string, Json> => machine({ Shape: { Type: 'Pass', Parameters: parameters, End: true } });

  test('the escaped backslash (which asl-validator refuses) is accepted and evaluates as Step Functions documents', () => {
    const parameters = { 'path.$': "States.Format('C:\\\\{}\\\\\\{x\\}', $.dir)", 'quote.$': "States.Array('it\\'s')" };
    const ir = compileAsl(shape(parameters)).nodes.Shape.ir;
    expect(ir.io?.parameters).toEqual(parameters);
    expect(applyTemplate(ir.io?.parameters as Json, { dir: 'tmp' }, {})).toEqual({ path: 'C:\\tmp\\{x}', quote: ["it's"] });
  });

  test('filters, recursive descent, bracket names and .* are accepted and run', () => {
    const parameters = { 'big.$': '$.items[?(@.n > 1)]', 'all.$': '$..n', 'q.$': '$["a b"]', 'v.$': '$.o.*' };
    const ir = compileAsl(shape(parameters)).nodes.Shape.ir;
    const input = { items: [{ n: 1 }, { n: 2 }], 'a b': 3, o: { x: 4 } };
    expect(applyTemplate(ir.io?.parameters as Json, input, {})).toEqual({ big: [{ n: 2 }], all: [1, 2], q: 3, v: [4] });
  });

  test('an escape Step Functions does not document is rejected, naming the field', () => {
    expect(aslError(shape({ 'x.$': "States.Format('a\\tb')" }))).toBe(
      `Workflow 'wf', node 'Shape', field 'Parameters.x.$': invalid intrinsic "States.Format('a\\\\tb')": a string literal must end with ' and may only escape \\' \\{ \\} and \\\\ at position 14`,
    );
  });
});

