/** Succeed and Fail states: instructions of their predecessor, not functions. */
import { compileAsl, machine, task } from './helpers';

describe('Succeed and Fail', () => {
  test('Succeed ends the run with its input', () => {
    const { nodes } = compileAsl(machine({ Work: task({ Next: 'Done' }), Done: { Type: 'Succeed', Comment: 'ok' } }));
    expect(nodes.Work.ir.instructions).toEqual([{ op: 'succeed' }]);
    expect(Object.keys(nodes)).toEqual(['Work']);
  });

  test('Succeed with InputPath / OutputPath: a Pass with the paths runs first (folded into the Task), then the run ends', () => {
    const { nodes } = compileAsl(machine({ Work: task({ Next: 'Done' }), Done: { Type: 'Succeed', InputPath: '$.items', OutputPath: '$[0]' } }));
    expect(nodes.Work.ir.instructions).toEqual([{ op: 'pass', io: { inputPath: '$.items', outputPath: '$[0]' } }, { op: 'succeed' }]);
    expect(Object.keys(nodes)).toEqual(['Work']);
  });

  test('Fail ends the run with Error and Cause', () => {
    const { nodes } = compileAsl(machine({ Work: task({ Next: 'Broken' }), Broken: { Type: 'Fail', Error: 'Order.Invalid', Cause: 'no items' } }));
    expect(nodes.Work.ir.instructions).toEqual([{ op: 'fail', state: 'Broken', error: 'Order.Invalid', cause: 'no items' }]);
  });

  test('Fail without Error records the ASL state name', () => {
    const { nodes } = compileAsl(machine({ Work: task({ Next: 'It broke' }), 'It broke': { Type: 'Fail' } }));
    expect(nodes.Work.ir.instructions).toEqual([{ op: 'fail', state: 'It broke', error: 'It broke' }]);
  });
});
