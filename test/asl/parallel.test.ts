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
    expect(nodes.Merge.ir.join).toEqual({ tails: ['Left', 'Right'], branchTails: [0, 1] });
  });

  test('InputPath and Parameters apply in the fan-out (the origin checkpoints the state input); ResultSelector and OutputPath in the join', () => {
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
    expect(nodes['Both.Origin'].ir.io).toBeUndefined();
    const input = { state: 'Both', inputPath: '$.job', parameters: { 'id.$': '$.id' } };
    expect(nodes['Both.Origin'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['Left', 'Right'], join: 'Both.Join', input } }]);
    expect(nodes.Left.ir.branchInput).toEqual(input);
    expect(nodes['Both.Join'].ir.join).toEqual({ tails: ['Left', 'Right'], branchTails: [0, 1], resultSelector: { 'left.$': '$[0]', 'right.$': '$[1]' }, outputPath: '$.left' });
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

describe('ResultPath on a Parallel (applied by its join to the state input)', () => {
  test('no extra states: the origin fans out with InputPath and Parameters, the join applies ResultSelector, ResultPath and OutputPath', () => {
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
    expect(Object.keys(nodes).sort()).toEqual(['Both.Join', 'Both.Origin', 'Left', 'Right']);
    expect(nodes['Both.Join'].ir.join).toEqual({ tails: ['Left', 'Right'], branchTails: [0, 1], resultSelector: { 'left.$': '$[0]' }, resultPath: "$['both results']" });
  });
});

describe('Retry and Catch on a Parallel or Map', () => {
  test('become the rules of the state: its join retries the fan-out or routes the error to the Catch target', () => {
    const doc = machine({
      Load: task({ Next: 'Both' }),
      Both: {
        Type: 'Parallel',
        Branches: [branch('Left'), branch('Right')],
        Retry: [{ ErrorEquals: ['Busy'], MaxAttempts: 2, IntervalSeconds: 3, BackoffRate: 1.5 }],
        Catch: [{ ErrorEquals: ['States.ALL'], Next: 'Recover', ResultPath: '$.error' }],
        Next: 'Each',
      },
      Each: { Type: 'Map', ItemsPath: '$.items', Iterator: { StartAt: 'Item', States: { Item: task() } }, Catch: [{ ErrorEquals: ['Bad'], Next: 'Recover' }], End: true },
      Recover: task(),
    });
    const { nodes } = compileAsl(doc);
    expect(nodes['Both.Join'].ir.join?.retry).toEqual({
      rules: [{ errors: ['Busy'], maxAttempts: 2, intervalSeconds: 3, backoffRate: 1.5, jitter: 'NONE' }],
      fanOut: { kind: 'parallel', targets: ['Left', 'Right'], join: 'Both.Join' },
    });
    expect(nodes['Both.Join'].ir.catch).toEqual([{ errors: ['States.ALL'], next: 'Recover', resultPath: '$.error' }]);
    expect(nodes['Each.Join'].ir.catch).toEqual([{ errors: ['Bad'], next: 'Recover' }]);
    expect(nodes.Left.ir.stateErrors).toBe(true);
    expect(nodes.Item.ir.stateErrors).toBe(true);
  });
});
