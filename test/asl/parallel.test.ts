/** Parallel states: branches, the join, and the io fields split between origin and join. */
import { compileAsl, machine, task } from './helpers';

const branch = (name: string) => ({ StartAt: name, States: { [name]: task({ Resource: name }) } });

describe('Parallel', () => {
  test('after a Task, the Task fans out and the next Task joins the branch outputs', () => {
    const doc = machine({
      Prepare: task({ Next: 'Both' }),
      Both: { Type: 'Parallel', Branches: [branch('Left'), branch('Right')], Next: 'Merge' },
      Merge: task({ Resource: 'Merge' }),
    });
    const { nodes } = compileAsl(doc);
    expect(nodes.Prepare.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['Left', 'Right'], join: 'Merge' } }]);
    expect(nodes.Left.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'fanIn', target: 'Merge', size: 2, tail: 0 } }]);
    expect(nodes.Merge.ir.join).toEqual({ tails: ['Left', 'Right'] });
  });

  test('InputPath and Parameters apply before the fan-out (origin node); ResultSelector and OutputPath after the fan-in (join node)', () => {
    const doc = machine({
      Both: {
        Type: 'Parallel',
        Branches: [branch('Left'), branch('Right')],
        InputPath: '$.job',
        Parameters: { 'id.$': '$.id' },
        ResultSelector: { 'left.$': '$[0]', 'right.$': '$[1]' },
        ResultPath: '$',
        OutputPath: '$.left',
        End: true,
      },
    });
    const { nodes, entry } = compileAsl(doc);
    expect(entry).toBe('Both.Origin');
    expect(nodes['Both.Origin'].ir.io).toEqual({ inputPath: '$.job', parameters: { 'id.$': '$.id' } });
    expect(nodes['Both.Join'].ir.io).toEqual({ resultSelector: { 'left.$': '$[0]', 'right.$': '$[1]' }, outputPath: '$.left' });
    expect(nodes['Both.Join'].ir.instructions).toEqual([{ op: 'succeed' }]);
  });

  test('a branch may end in Succeed (it ends the branch, not the run)', () => {
    const doc = machine({
      Both: { Type: 'Parallel', Branches: [{ StartAt: 'L', States: { L: task({ Next: 'Ok' }), Ok: { Type: 'Succeed' } } }, branch('R')], Next: 'Merge' },
      Merge: task(),
    });
    expect(compileAsl(doc).nodes.L.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'fanIn', target: 'Merge', size: 2, tail: 0 } }]);
  });
});

describe('ResultPath on a Parallel (placed by a merge step)', () => {
  test('the inner Parallel keeps InputPath, Parameters and ResultSelector; the merge step applies ResultPath and OutputPath', () => {
    const doc = machine({
      Both: {
        Type: 'Parallel',
        Branches: [branch('Left'), branch('Right')],
        InputPath: '$.job',
        Parameters: { 'id.$': '$.id' },
        ResultSelector: { 'left.$': '$[0]' },
        ResultPath: "$['both results']",
        End: true,
      },
    });
    const { nodes, entry } = compileAsl(doc);
    expect(entry).toBe('Both.Origin');
    expect(nodes['Both.Origin'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['Both-input', 'Both-items.Origin'], join: 'Both-result' } }]);
    expect(nodes['Both-items.Origin'].ir.io).toEqual({ inputPath: '$.job', parameters: { 'id.$': '$.id' } });
    expect(nodes['Both-items.Join'].ir.io).toEqual({ resultSelector: { 'left.$': '$[0]' } });
    expect(nodes['Both-result'].ir.io).toEqual({ inputPath: '$[1]', resultPath: "$[0]['both results']", outputPath: '$[0]' });
    expect(nodes['Both-result'].ir.instructions).toEqual([{ op: 'succeed' }]);
  });
});
