/** Pass states: Result, Parameters and the path fields become a pass node (no user code), or a pass instruction of the Task before them. */
import { compileAsl, machine, task } from './helpers';

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
    const doc = machine({ Nothing: { Type: 'Pass', Result: false, End: true } });
    expect(compileAsl(doc).nodes.Nothing.ir.handler).toEqual({ kind: 'pass', result: false });
  });

  test('a Pass after a Task folds into it: a pass instruction, no node', () => {
    const doc = machine({ Work: task({ Next: 'Tag' }), Tag: { Type: 'Pass', Result: 'done', ResultPath: '$.status', Next: 'More' }, More: task() });
    const { nodes } = compileAsl(doc);
    expect(Object.keys(nodes)).toEqual(['Work', 'More']);
    expect(nodes.Work.ir.instructions).toEqual([{ op: 'pass', result: 'done', io: { resultPath: '$.status' } }, { op: 'invoke', invoke: { kind: 'scalar', target: 'More' } }]);
  });
});
