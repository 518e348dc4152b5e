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
    expect(nodes.Load.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Square', join: 'Sum', itemsPath: '$', itemSelector, maxConcurrency: 0 } }]);
  });

  test('Parameters on a Map is the older name of ItemSelector', () => {
    const { nodes } = compileAsl(mapAfterTask({ Iterator: processor, Parameters: { 'n.$': '$$.Map.Item.Value' } }));
    expect(nodes.Load.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Square', join: 'Sum', itemsPath: '$', itemSelector: { 'n.$': '$$.Map.Item.Value' }, maxConcurrency: 0 } }]);
  });

  test('InputPath applies before the fan-out (origin node); ResultSelector and OutputPath after it (join node)', () => {
    const { nodes } = compileAsl(mapAfterTask({ Iterator: processor, InputPath: '$.batch', ResultSelector: { 'squares.$': '$' }, OutputPath: '$.squares' }));
    expect(nodes.Load.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Each.Origin' } }]);
    expect(nodes['Each.Origin'].ir.io).toEqual({ inputPath: '$.batch' });
    expect(nodes['Each.Join'].ir.io).toEqual({ resultSelector: { 'squares.$': '$' }, outputPath: '$.squares' });
    expect(nodes['Each.Join'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Sum' } }]);
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

describe('ResultPath on a Map (placed by a merge step)', () => {
  test('ResultPath $.x: a Parallel of [input, the Map], then a Pass that places $[1] at $[0].x', () => {
    const doc = mapAfterTask({ Iterator: processor, ItemsPath: '$.items', ResultPath: '$.squares', OutputPath: '$.squares' });
    const { nodes } = compileAsl(doc);
    expect(nodes.Load.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['Each-input', 'Each-items.Origin'], join: 'Each-result' } }]);
    expect(nodes['Each-items.Origin'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Square', join: 'Each-items.Join', itemsPath: '$.items', maxConcurrency: 0 } }]);
    expect(nodes['Each-result'].ir.io).toEqual({ inputPath: '$[1]', resultPath: '$[0].squares', outputPath: '$[0].squares' });
    expect(nodes['Each-result'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Sum' } }]);
  });

  test('ResultPath null keeps the input: the merge step only selects $[0]', () => {
    const { nodes } = compileAsl(mapAfterTask({ Iterator: processor, ResultPath: null }));
    expect(nodes['Each-result'].ir.io).toEqual({ outputPath: '$[0]' });
  });

  test('helper names never clash with state names', () => {
    const doc = machine({
      Each: { Type: 'Map', Iterator: processor, ResultPath: '$.r', Next: 'Each-input' } as never,
      'Each-input': task({ Resource: 'Next' }),
    });
    const names = Object.keys(compileAsl(doc).nodes);
    expect(names).toContain('Each-input');
    expect(names.filter((n) => /^Each-[0-9a-f]{8}-input$/.test(n))).toHaveLength(1);
  });
});
