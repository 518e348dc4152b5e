/** Map states: Iterator and ItemProcessor, ItemsPath, ItemSelector / Parameters, MaxConcurrency. */
import { aslError, compileAsl, machine, task } from './helpers';

const processor = { StartAt: 'Square', States: { Square: task({ Resource: 'Square' }) } };
const mapAfterTask = (map: Record<string, unknown>) =>
  machine({ Load: task({ Next: 'Each' }), Each: { Type: 'Map', Next: 'Sum', ...map } as never, Sum: task({ Resource: 'Sum' }) });

describe('Map', () => {
  test('Iterator (the older field): ItemsPath and MaxConcurrency go to the map invoke', () => {
    const { nodes } = compileAsl(mapAfterTask({ Iterator: processor, ItemsPath: '$.items', MaxConcurrency: 5 }));
    expect(nodes.Load.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Square', join: 'Sum', itemsPath: '$.items', maxConcurrency: 5 } }]);
    // At most 5 items run: the tail that completes item i launches item i + 5.
    expect(nodes.Square.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'fanIn', target: 'Sum', size: 'frame', tail: 0, launch: { target: 'Square', maxConcurrency: 5 } } }]);
    expect(nodes.Square.successors).toEqual(['Square', 'Sum']);
  });

  test('MaxConcurrency 0 (or absent) launches every item at once: no tail launches another', () => {
    const { nodes } = compileAsl(mapAfterTask({ Iterator: processor, MaxConcurrency: 0 }));
    expect(nodes.Square.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'fanIn', target: 'Sum', size: 'frame', tail: 0 } }]);
  });

  test('ItemProcessor (INLINE) with ItemSelector: the selector builds each item input from the context object', () => {
    const itemSelector = { 'value.$': '$$.Map.Item.Value', 'index.$': '$$.Map.Item.Index', 'run.$': '$.runId' };
    const { nodes } = compileAsl(mapAfterTask({ ItemProcessor: { ProcessorConfig: { Mode: 'INLINE' }, ...processor }, ItemSelector: itemSelector }));
    expect(nodes.Load.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Square', join: 'Sum', itemsPath: '$', itemSelector, state: 'Each', maxConcurrency: 0 } }]);
  });

  test('Parameters on a Map is the older name of ItemSelector', () => {
    const { nodes } = compileAsl(mapAfterTask({ Iterator: processor, Parameters: { 'n.$': '$$.Map.Item.Value' } }));
    expect(nodes.Load.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Square', join: 'Sum', itemsPath: '$', itemSelector: { 'n.$': '$$.Map.Item.Value' }, state: 'Each', maxConcurrency: 0 } }]);
  });

  test('InputPath applies in the fan-out (the origin checkpoints the state input); ResultSelector and OutputPath in the join', () => {
    const { nodes } = compileAsl(mapAfterTask({ Iterator: processor, InputPath: '$.batch', ResultSelector: { 'squares.$': '$' }, OutputPath: '$.squares' }));
    expect(nodes.Load.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Square', join: 'Each.Join', inputPath: '$.batch', itemsPath: '$', maxConcurrency: 0 } }]);
    expect(nodes['Each.Join'].ir.join).toEqual({ tails: ['Square'], resultSelector: { 'squares.$': '$' }, outputPath: '$.squares' });
    expect(nodes['Each.Join'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Sum' } }]);
  });
});

describe('ResultPath on a Map (applied by its join to the state input)', () => {
  test('ResultPath $.x: no extra states; the join merges the results into the state input, then OutputPath', () => {
    const doc = mapAfterTask({ Iterator: processor, ItemsPath: '$.items', ResultPath: '$.squares', OutputPath: '$.squares' });
    const { nodes } = compileAsl(doc);
    expect(Object.keys(nodes).sort()).toEqual(['Each.Join', 'Load', 'Square', 'Sum']);
    expect(nodes.Load.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Square', join: 'Each.Join', itemsPath: '$.items', maxConcurrency: 0 } }]);
    expect(nodes['Each.Join'].ir.join).toEqual({ tails: ['Square'], resultPath: '$.squares', outputPath: '$.squares' });
  });

  test('ResultPath null keeps the input', () => {
    const { nodes } = compileAsl(mapAfterTask({ Iterator: processor, ResultPath: null }));
    expect(nodes['Each.Join'].ir.join).toEqual({ tails: ['Square'], resultPath: null });
  });
});

describe('nesting', () => {
  test('a Map inside a Map, and a Choice in an item processor, compile; each item processor fans in to its own join', () => {
    const inner = { StartAt: 'Cell', States: { Cell: task({ Resource: 'Cell' }) } };
    const outer = {
      StartAt: 'Row kind',
      States: {
        'Row kind': { Type: 'Choice', Choices: [{ Variable: '$.skip', BooleanEquals: true, Next: 'Skip' }], Default: 'Cells' },
        Skip: { Type: 'Pass', Result: [], End: true },
        Cells: { Type: 'Map', ItemsPath: '$.cells', Iterator: inner, Next: 'Row total' },
        'Row total': task({ Resource: 'RowTotal' }),
      },
    };
    const { nodes } = compileAsl(mapAfterTask({ Iterator: outer, ItemsPath: '$.rows' }));
    expect(nodes.Load.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Row_kind.Enter', join: 'Sum', itemsPath: '$.rows', maxConcurrency: 0 } }]);
    expect(nodes['Row_kind.Enter'].ir.instructions).toEqual([
      {
        op: 'choice',
        state: 'Row kind',
        rules: [{ when: { kind: 'compare', type: 'boolean', op: 'eq', path: '$.skip', value: true }, then: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'Skip' } }] }],
        otherwise: [{ op: 'invoke', invoke: { kind: 'map', target: 'Cell', join: 'Row_total', itemsPath: '$.cells', maxConcurrency: 0 } }],
      },
    ]);
    expect(nodes.Cell.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'fanIn', target: 'Row_total', size: 'frame', tail: 0 } }]);
    expect(nodes.Sum.ir.join).toEqual({ tails: ['Row_total', 'Skip'] });
  });

  test('$$.Map.Item is only available in a Map\'s ItemSelector', () => {
    const doc = mapAfterTask({ Iterator: { StartAt: 'Square', States: { Square: task({ Resource: 'Square', Parameters: { 'i.$': '$$.Map.Item.Index' } }) } } });
    expect(aslError(doc)).toBe("Workflow 'wf', node 'Square', field 'Parameters.i.$': the context path $$.Map.Item.Index is not supported (available here: $$.Execution.Id, $$.State.Name)");
  });
});
