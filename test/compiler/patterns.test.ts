import { Chain, Choice, Condition, Definition, Fail, Fold, MapState, Parallel, Pass, Succeed } from '../../lib/definition';
import type { Instruction } from '../../runtime/contract/ir';
import { compile, ENTRY, fanIn, INCR, instructions, ir, scalar, SUCCEED, task } from './helpers';

describe('chain', () => {
  const compiled = compile(Definition.from(task('A').next(task('B')).next(task('C'))));

  it('gives one node per task in definition order, the first one the entry', () => {
    expect(Object.keys(compiled.nodes)).toEqual(['A', 'B', 'C']);
    expect(compiled.entry).toBe('A');
    expect(Object.values(compiled.nodes).map((n) => n.ir.entry)).toEqual([true, false, false]);
  });

  it('invokes each next node with a scalar invoke and ends with succeed', () => {
    expect(instructions(compiled, 'A')).toEqual([scalar('B')]);
    expect(instructions(compiled, 'B')).toEqual([scalar('C')]);
    expect(instructions(compiled, 'C')).toEqual([SUCCEED]);
    expect(compiled.nodes.A.successors).toEqual(['B']);
    expect(compiled.nodes.C.successors).toEqual([]);
  });

  it('records the handler, default settings and function spec', () => {
    expect(ir(compiled, 'A')).toEqual({
      version: 2,
      workflow: 'W',
      node: 'A',
      entry: true,
      handler: { kind: 'user', export: 'a' },
      instructions: [scalar('B')],
      settings: { inlineLimitBytes: 32768, invokeConcurrency: 64, checkpointTtlSeconds: 604800, runRetentionSeconds: 2592000, timeoutSeconds: 30, handoffSeconds: 21640 },
      deployment: '',
      functionNames: {},
    });
    expect(compiled.nodes.A.fn).toEqual({ entry: ENTRY, exportName: 'a', memorySize: 256, timeoutSeconds: 30, environment: {} });
    expect(compiled.nodes.A.implicit).toBe(false);
    expect(compiled.warnings).toEqual([]);
  });

  it('applies function props and compile options', () => {
    const c = compile(task('A', { memorySize: 1024, timeoutSeconds: 120, environment: { Z: '1', A: '2' }, retryAttempts: 0, maxEventAgeSeconds: 60 }), { inlineLimitBytes: 1000, invokeConcurrency: 8, checkpointTtlSeconds: 100000, runRetentionSeconds: 200000 });
    expect(c.nodes.A.fn).toEqual({ entry: ENTRY, exportName: 'a', memorySize: 1024, timeoutSeconds: 120, environment: { A: '2', Z: '1' }, retryAttempts: 0, maxEventAgeSeconds: 60 });
    expect(Object.keys(c.nodes.A.fn.environment)).toEqual(['A', 'Z']);
    expect(c.nodes.A.ir.settings).toEqual({ inlineLimitBytes: 1000, invokeConcurrency: 8, checkpointTtlSeconds: 100000, runRetentionSeconds: 200000, timeoutSeconds: 120, handoffSeconds: 190 });
  });

  it('accepts a state, a chain or a Definition alike', () => {
    const json = (d: Parameters<typeof compile>[0]) => JSON.stringify(compile(d));
    const make = () => task('A').next(task('B'));
    expect(json(make())).toBe(json(Definition.from(make())));
    expect(json(Chain.sequence(task('A'), task('B')))).toBe(json(make()));
  });
});

describe('parallel (fan-out and fan-in)', () => {
  const build = () => task('Start').next(new Parallel('P').branch(task('B1'), task('B2').next(task('B3')))).next(task('Join'));
  const compiled = compile(build());

  it('the predecessor is the origin and invokes the first node of each branch', () => {
    expect(instructions(compiled, 'Start')).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['B1', 'B2'], join: 'Join' } }]);
    expect(compiled.nodes.Start.successors).toEqual(['B1', 'B2']);
  });

  it('branch tails fan in to the next state with a static size; tails sorted in the join', () => {
    expect(instructions(compiled, 'B1')).toEqual([fanIn('Join', 2, 0)]);
    expect(instructions(compiled, 'B2')).toEqual([scalar('B3')]);
    expect(instructions(compiled, 'B3')).toEqual([fanIn('Join', 2, 1)]);
    expect(ir(compiled, 'Join').join).toEqual({ tails: ['B1', 'B3'], branchTails: [0, 1] });
    expect(instructions(compiled, 'Join')).toEqual([SUCCEED]);
    expect(compiled.nodes.B3.successors).toEqual(['Join']);
  });

  it('adds an implicit origin when the workflow starts with a Parallel and an implicit join when it ends with one', () => {
    const c = compile(new Parallel('P').branch(task('B1'), task('B2')));
    expect(Object.keys(c.nodes)).toEqual(['P.Origin', 'B1', 'B2', 'P.Join']);
    expect(c.entry).toBe('P.Origin');
    expect(c.nodes['P.Origin']).toMatchObject({ implicit: true, ir: { entry: true, handler: { kind: 'pass' } } });
    expect(instructions(c, 'P.Origin')).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['B1', 'B2'], join: 'P.Join' } }]);
    expect(c.nodes['P.Join'].implicit).toBe(true);
    expect(ir(c, 'P.Join').join).toEqual({ tails: ['B1', 'B2'], branchTails: [0, 1] });
    expect(instructions(c, 'P.Join')).toEqual([SUCCEED]);
    expect(c.nodes['P.Join'].fn).toEqual({ memorySize: 256, timeoutSeconds: 30, environment: {} });
  });

  it('a branch ending in a Choice has one tail per arm end, indexed in the sorted list', () => {
    const choice = new Choice('C').when(Condition.booleanEquals('$.x', true), task('Yes')).otherwise(task('No'));
    const c = compile(task('S').next(new Parallel('P').branch(task('Z').next(choice), task('A'))).next(task('J')));
    expect(ir(c, 'J').join).toEqual({ tails: ['A', 'No', 'Yes'], branchTails: [-1, 0] });
    expect(instructions(c, 'Yes')).toEqual([fanIn('J', 2, 2)]);
    expect(instructions(c, 'No')).toEqual([fanIn('J', 2, 1)]);
    expect(instructions(c, 'A')).toEqual([fanIn('J', 2, 0)]);
  });

  it('a Succeed inside a branch ends the branch; a Choice arm with no state after it fans in from the evaluating node', () => {
    const choice = new Choice('C').when(Condition.isPresent('$.x'), new Succeed('Ok')).otherwise(new Fail('Bad', { error: 'E', cause: 'why' }));
    const c = compile(task('S').next(new Parallel('P').branch(task('B').next(choice))).next(task('J')));
    expect(instructions(c, 'B')).toEqual([{ op: 'choice', state: 'C', rules: [{ when: { kind: 'test', test: 'present', path: '$.x', expected: true }, then: [fanIn('J', 1, 0)] }], otherwise: [{ op: 'fail', state: 'Bad', error: 'E', cause: 'why' }] }]);
    expect(ir(c, 'J').join).toEqual({ tails: ['B'], branchTails: [0] });
  });

  it('a branch starting with a Choice gets an implicit node to evaluate it', () => {
    const choice = new Choice('C').when(Condition.isNull('$'), task('X')).otherwise(task('Y'));
    const c = compile(task('S').next(new Parallel('P').branch(choice)).next(task('J')));
    expect(instructions(c, 'S')).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['C.Enter'], join: 'J' } }]);
    expect(c.nodes['C.Enter'].implicit).toBe(true);
    expect(instructions(c, 'C.Enter')).toEqual([{ op: 'choice', state: 'C', rules: [{ when: { kind: 'test', test: 'null', path: '$', expected: true }, then: [scalar('X')] }], otherwise: [scalar('Y')] }]);
  });

  it('io: inputPath/parameters go to the fan-out (the origin checkpoints the state input), the output processing to an implicit join', () => {
    const p = new Parallel('P', { inputPath: '$.in', parameters: { 'v.$': '$.a' }, resultSelector: { 'first.$': '$[0]' }, resultPath: '$.r', outputPath: '$.r.first' }).branch(task('B'));
    const c = compile(task('S').next(p).next(task('J')));
    const input = { state: 'P', inputPath: '$.in', parameters: { 'v.$': '$.a' } };
    expect(instructions(c, 'S')).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['B'], join: 'P.Join', input } }]);
    // The branch start rebuilds an input sent by reference to the origin.
    expect(ir(c, 'B').branchInput).toEqual(input);
    expect(ir(c, 'P.Join').io).toBeUndefined();
    expect(ir(c, 'P.Join').join).toEqual({ tails: ['B'], branchTails: [0], resultSelector: { 'first.$': '$[0]' }, resultPath: '$.r', outputPath: '$.r.first' });
    expect(instructions(c, 'P.Join')).toEqual([scalar('J')]);
    expect(c.nodes.S.successors).toEqual(['B']);
  });

  it('resultPath null and resultPath $: null is output processing (an implicit join), $ is none', () => {
    const discard = compile(task('S').next(new Parallel('P', { resultPath: null }).branch(task('B'))).next(task('J')));
    expect(ir(discard, 'P.Join').join).toEqual({ tails: ['B'], branchTails: [0], resultPath: null });
    const replace = compile(task('S').next(new Parallel('P', { resultPath: '$' }).branch(task('B'))).next(task('J')));
    expect(ir(replace, 'J').join).toEqual({ tails: ['B'], branchTails: [0] });
    expect(replace.nodes['P.Join']).toBeUndefined();
  });

  it('a Parallel nested in a Parallel branch', () => {
    const c = compile(task('S').next(new Parallel('Outer').branch(task('A').next(new Parallel('Inner').branch(task('X'), task('Y'))).next(task('AJ')), task('B'))).next(task('J')));
    expect(instructions(c, 'A')).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['X', 'Y'], join: 'AJ' } }]);
    expect(instructions(c, 'Y')).toEqual([fanIn('AJ', 2, 1)]);
    expect(instructions(c, 'AJ')).toEqual([fanIn('J', 2, 0)]);
    expect(instructions(c, 'B')).toEqual([fanIn('J', 2, 1)]);
  });

  it('a Parallel directly after a Parallel: the first join is implicit and is the second origin', () => {
    const c = compile(task('S').next(new Parallel('P1').branch(task('A'))).next(new Parallel('P2').branch(task('B'))).next(task('E')));
    expect(instructions(c, 'A')).toEqual([fanIn('P1.Join', 1, 0)]);
    expect(instructions(c, 'P1.Join')).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['B'], join: 'E' } }]);
  });
});

describe('map', () => {
  const map = () => new MapState('M', { itemsPath: '$.items', maxConcurrency: 10, itemSelector: { 'v.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index' } });

  it('the origin invokes the processor per item; tails fan in with the frame size', () => {
    const c = compile(task('S').next(map().itemProcessor(task('Item').next(task('Item2')))).next(task('J')));
    expect(instructions(c, 'S')).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Item', join: 'J', itemsPath: '$.items', itemSelector: { 'v.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index' }, state: 'M', maxConcurrency: 10 } }]);
    expect(c.nodes.S.successors).toEqual(['Item', 'J']);
    // maxConcurrency 10: the tail that completes item i launches item i + 10 at the processor's start.
    expect(instructions(c, 'Item2')).toEqual([{ op: 'invoke', invoke: { kind: 'fanIn', target: 'J', size: 'frame', tail: 0, launch: { target: 'Item', maxConcurrency: 10 } } }]);
    expect(c.nodes.Item2.successors).toEqual(['Item', 'J']);
    expect(ir(c, 'J').join).toEqual({ tails: ['Item2'] });
    // Only the item processor's start can rebuild an item sent by reference.
    expect(ir(c, 'Item').mapItems).toEqual({ itemsPath: '$.items', itemSelector: { 'v.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index' }, state: 'M' });
    expect(ir(c, 'Item2').mapItems).toBeUndefined();
  });

  it('defaults: itemsPath $, maxConcurrency 0, no itemSelector; implicit origin and join', () => {
    const c = compile(new MapState('M').itemProcessor(task('Item')));
    expect(c.entry).toBe('M.Origin');
    expect(instructions(c, 'M.Origin')).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Item', join: 'M.Join', itemsPath: '$', maxConcurrency: 0 } }]);
    expect(instructions(c, 'Item')).toEqual([fanIn('M.Join', 'frame', 0)]);
    expect(instructions(c, 'M.Join')).toEqual([SUCCEED]);
  });

  it('a bounded Map: every tail launches the next item, through a Choice, a loop and a catch; the bound is per Map', () => {
    const launch = (target: string, maxConcurrency: number) => ({ target, maxConcurrency });
    const retry = task('Retry');
    const check = new Choice('Check').when(Condition.numberLessThan('$.n', 3), retry).otherwise(task('Done'));
    retry.next(check);
    const handler = task('Handler');
    const first = task('First').addCatch(handler);
    const inner = new MapState('Inner', { itemsPath: '$.parts', maxConcurrency: 2 }).itemProcessor(task('Part'));
    const c = compile(task('S').next(new MapState('M', { maxConcurrency: 3 }).itemProcessor(first.next(inner).next(check))).next(task('J')));
    // The fan-ins a node's instructions may run, through its Choices.
    const fanIns = (list: readonly Instruction[]): unknown[] =>
      list.flatMap((i) => (i.op === 'choice' ? [...i.rules.flatMap((r) => fanIns(r.then)), ...fanIns(i.otherwise ?? [])] : i.op === 'invoke' && i.invoke.kind === 'fanIn' ? [i.invoke] : []));
    const tails = ir(c, 'J').join?.tails ?? [];
    expect(tails).toEqual(['Done', 'Handler']);
    for (const tail of tails) expect(fanIns(instructions(c, tail))).toEqual([expect.objectContaining({ target: 'J', launch: launch('First', 3) })]);
    expect(instructions(c, 'Part')).toEqual([{ op: 'invoke', invoke: { kind: 'fanIn', target: 'Inner.Join', size: 'frame', tail: 0, launch: launch('Part', 2) } }]);
    expect(c.nodes.Done.successors).toEqual(['First', 'J']);
  });

  it('nested map: the inner fan-out and fan-in happen inside the outer item processor', () => {
    const inner = new MapState('Inner', { itemsPath: '$.parts' }).itemProcessor(task('Part'));
    const outer = new MapState('Outer', { itemsPath: '$.docs' }).itemProcessor(task('Doc').next(inner).next(task('DocDone')));
    const c = compile(task('S').next(outer).next(task('All')));
    expect(instructions(c, 'S')).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Doc', join: 'All', itemsPath: '$.docs', maxConcurrency: 0 } }]);
    expect(instructions(c, 'Doc')).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Part', join: 'DocDone', itemsPath: '$.parts', maxConcurrency: 0 } }]);
    expect(instructions(c, 'Part')).toEqual([fanIn('DocDone', 'frame', 0)]);
    expect(instructions(c, 'DocDone')).toEqual([fanIn('All', 'frame', 0)]);
    expect(ir(c, 'DocDone').join).toEqual({ tails: ['Part'] });
    expect(ir(c, 'All').join).toEqual({ tails: ['DocDone'] });
  });

  it('a map nested as the last state of an item processor joins in an implicit node that fans in to the outer join', () => {
    const inner = new MapState('Inner').itemProcessor(task('Part'));
    const c = compile(task('S').next(new MapState('Outer').itemProcessor(inner)).next(task('All')));
    expect(instructions(c, 'S')).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Inner.Origin', join: 'All', itemsPath: '$', maxConcurrency: 0 } }]);
    expect(instructions(c, 'Inner.Origin')).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Part', join: 'Inner.Join', itemsPath: '$', maxConcurrency: 0 } }]);
    expect(instructions(c, 'Inner.Join')).toEqual([fanIn('All', 'frame', 0)]);
  });

  it('io: Map inputPath goes to the fan-out (its item spec), the output processing to an implicit join', () => {
    const m = new MapState('M', { inputPath: '$.data', itemsPath: '$.rows', resultSelector: { 'rows.$': '$' }, resultPath: '$.out', outputPath: '$.out.rows' }).itemProcessor(task('I'));
    const c = compile(task('S').next(m).next(task('J')));
    expect(instructions(c, 'S')).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'I', join: 'M.Join', inputPath: '$.data', itemsPath: '$.rows', maxConcurrency: 0 } }]);
    expect(ir(c, 'I').mapItems).toEqual({ inputPath: '$.data', itemsPath: '$.rows' });
    expect(ir(c, 'M.Join')).toMatchObject({ join: { tails: ['I'], resultSelector: { 'rows.$': '$' }, resultPath: '$.out', outputPath: '$.out.rows' }, instructions: [scalar('J')] });
    expect(ir(c, 'M.Join').io).toBeUndefined();
  });

  it('a Pass after a Map is the join', () => {
    const c = compile(task('S').next(new MapState('M').itemProcessor(task('I'))).next(new Pass('Collect', { outputPath: '$[0]' })));
    expect(ir(c, 'Collect')).toMatchObject({ handler: { kind: 'pass' }, io: { outputPath: '$[0]' }, join: { tails: ['I'] }, instructions: [SUCCEED] });
  });

  it('a map inside a parallel branch', () => {
    const c = compile(task('S').next(new Parallel('P').branch(new MapState('M').itemProcessor(task('I')), task('B'))).next(task('J')));
    expect(instructions(c, 'S')).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['M.Origin', 'B'], join: 'J' } }]);
    expect(instructions(c, 'I')).toEqual([fanIn('M.Join', 'frame', 0)]);
    expect(instructions(c, 'M.Join')).toEqual([fanIn('J', 2, 1)]);
    expect(ir(c, 'J').join).toEqual({ tails: ['B', 'M.Join'], branchTails: [1, 0] });
  });
});

describe('fold', () => {
  it('the Fold after a Map is the join, with handler kind fold, and may invoke itself', () => {
    const fold = new Fold<string, string>('Concat', { entry: ENTRY, handler: 'concat', initial: '', timeoutSeconds: 60 });
    const c = compile(task('S').next(new MapState('M', { itemsPath: '$.chunks' }).itemProcessor(task('Encode'))).next(fold).next(task('Publish')));
    expect(instructions(c, 'Encode')).toEqual([fanIn('Concat', 'frame', 0)]);
    expect(ir(c, 'Concat')).toMatchObject({ handler: { kind: 'fold', export: 'concat', initial: '' }, join: { tails: ['Encode'] }, instructions: [scalar('Publish')] });
    expect(ir(c, 'Concat').settings.timeoutSeconds).toBe(60);
    expect(c.nodes.Concat.successors).toEqual(['Concat', 'Publish']);
    expect(c.nodes.Concat.fn.exportName).toBe('concat');
  });

  it('a Fold after a Parallel folds the branch outputs', () => {
    const c = compile(task('S').next(new Parallel('P').branch(task('A'), task('B'))).next(new Fold('Sum', { entry: ENTRY, handler: 'sum', initial: 0 })));
    expect(ir(c, 'Sum')).toMatchObject({ handler: { kind: 'fold', export: 'sum', initial: 0 }, join: { tails: ['A', 'B'] }, instructions: [SUCCEED] });
  });
});

describe('choice', () => {
  it('is folded into its predecessor as a choice instruction, first match wins', () => {
    const choice = new Choice('Size')
      .when(Condition.numberGreaterThan('$.bytes', 1000), task('Big'))
      .when(Condition.and(Condition.isString('$.kind'), Condition.not(Condition.stringEquals('$.kind', 'x'))), task('Kind'))
      .otherwise(task('Small'));
    const c = compile(task('Measure').next(choice));
    expect(Object.keys(c.nodes)).toEqual(['Measure', 'Big', 'Kind', 'Small']);
    expect(instructions(c, 'Measure')).toEqual([
      {
        op: 'choice',
        state: 'Size',
        rules: [
          { when: { kind: 'compare', type: 'number', op: 'gt', path: '$.bytes', value: 1000 }, then: [scalar('Big')] },
          { when: { kind: 'and', all: [{ kind: 'test', test: 'string', path: '$.kind', expected: true }, { kind: 'not', arg: { kind: 'compare', type: 'string', op: 'eq', path: '$.kind', value: 'x' } }] }, then: [scalar('Kind')] },
        ],
        otherwise: [scalar('Small')],
      },
    ]);
    expect(c.nodes.Measure.successors).toEqual(['Big', 'Kind', 'Small']);
    expect(c.warnings).toEqual([]);
  });

  it('without otherwise: no otherwise in the IR and a warning', () => {
    const c = compile(task('A').next(new Choice('C').when(Condition.isPresent('$.x'), task('B'))));
    expect(instructions(c, 'A')).toEqual([{ op: 'choice', state: 'C', rules: [{ when: { kind: 'test', test: 'present', path: '$.x', expected: true }, then: [scalar('B')] }] }]);
    expect(c.warnings).toEqual(["Workflow 'W', node 'C', field 'otherwise': the Choice has no otherwise: if no condition matches, the run fails with States.NoChoiceMatched"]);
  });

  it('a Choice first gets an implicit entry node; afterwards() continues every arm; chained choices nest', () => {
    const inner = new Choice('C2').when(Condition.numberEquals('$.n', 2), task('Two')).otherwise(new Pass('Other'));
    const choice = new Choice('C1').when(Condition.numberEquals('$.n', 1), task('One')).otherwise(inner.afterwards());
    const c2 = compile(choice.afterwards().next(task('After2')));
    expect(c2.entry).toBe('C1.Enter');
    expect(instructions(c2, 'C1.Enter')).toEqual([
      {
        op: 'choice',
        state: 'C1',
        rules: [{ when: { kind: 'compare', type: 'number', op: 'eq', path: '$.n', value: 1 }, then: [scalar('One')] }],
        otherwise: [{ op: 'choice', state: 'C2', rules: [{ when: { kind: 'compare', type: 'number', op: 'eq', path: '$.n', value: 2 }, then: [scalar('Two')] }], otherwise: [scalar('Other')] }],
      },
    ]);
    for (const n of ['One', 'Two', 'Other']) expect(instructions(c2, n)).toEqual([scalar('After2')]);
  });

  it('a Choice after a Parallel is evaluated by an implicit join', () => {
    const choice = new Choice('C').when(Condition.isPresent('$[0].ok'), new Succeed('Done')).otherwise(new Fail('Failed'));
    const c = compile(task('S').next(new Parallel('P').branch(task('A'))).next(choice));
    expect(instructions(c, 'P.Join')).toEqual([{ op: 'choice', state: 'C', rules: [{ when: { kind: 'test', test: 'present', path: '$[0].ok', expected: true }, then: [SUCCEED] }], otherwise: [{ op: 'fail', state: 'Failed', error: 'Failed' }] }]);
  });

  it('afterwards({ includeOtherwise: true }) makes the continuation the otherwise', () => {
    const choice = new Choice('C').when(Condition.booleanEquals('$.skip', false), task('Work'));
    const c = compile(task('A').next(choice.afterwards({ includeOtherwise: true })).next(task('End')));
    expect(instructions(c, 'A')).toEqual([{ op: 'choice', state: 'C', rules: [{ when: { kind: 'compare', type: 'boolean', op: 'eq', path: '$.skip', value: false }, then: [scalar('Work')] }], otherwise: [scalar('End')] }]);
    expect(instructions(c, 'Work')).toEqual([scalar('End')]);
    expect(c.warnings).toEqual([]);
  });
});

describe('loop', () => {
  it('a Choice jumping back increments the iteration before the back-edge invoke', () => {
    const body = task('Body');
    const c = compile(task('Init').next(body).next(new Choice('More').when(Condition.booleanEquals('$.more', true), body).otherwise(new Succeed('Done'))));
    expect(instructions(c, 'Init')).toEqual([scalar('Body')]);
    expect(instructions(c, 'Body')).toEqual([{ op: 'choice', state: 'More', rules: [{ when: { kind: 'compare', type: 'boolean', op: 'eq', path: '$.more', value: true }, then: [INCR, scalar('Body')] }], otherwise: [SUCCEED] }]);
    expect(c.nodes.Body.successors).toEqual(['Body']);
  });

  it('a longer loop increments only on the back edge', () => {
    const head = task('Head');
    const c = compile(head.next(task('Mid')).next(new Choice('Again').when(Condition.numberLessThan('$.i', 10), head).otherwise(task('Out'))));
    expect(instructions(c, 'Head')).toEqual([scalar('Mid')]);
    expect(instructions(c, 'Mid')).toEqual([{ op: 'choice', state: 'Again', rules: [{ when: { kind: 'compare', type: 'number', op: 'lt', path: '$.i', value: 10 }, then: [INCR, scalar('Head')] }], otherwise: [scalar('Out')] }]);
    // The first state is a loop target: an implicit start node is the entry, which no node invokes.
    expect(c.entry).toBe('Head.Start');
    expect(instructions(c, 'Head.Start')).toEqual([scalar('Head')]);
    expect([ir(c, 'Head.Start').entry, ir(c, 'Head').entry, c.nodes['Head.Start'].implicit]).toEqual([true, false, true]);
  });

  it('the entry is never a successor: a loop back to the first state gets a start node, other workflows none', () => {
    const loops = [
      () => { const h = task('H'); return h.next(new Choice('C').when(Condition.isPresent('$.x'), h).otherwise(new Succeed('Done'))); },
      () => { const m = new MapState('M', { inputPath: '$.m' }).itemProcessor(task('I')); return m.next(task('After')).next(new Choice('C').when(Condition.isPresent('$.x'), m).otherwise(new Succeed('Done'))); },
      () => { const p = new Pass('P'); return p.next(task('T')).next(new Choice('C').when(Condition.isPresent('$.x'), p).otherwise(new Succeed('Done'))); },
    ];
    const entries = loops.map((build) => {
      const c = compile(build());
      expect(Object.values(c.nodes).some((n) => n.successors.includes(c.entry))).toBe(false);
      return c.entry;
    });
    // A loop back to a Map fans out from the Choice's node: the Map's origin is entered only at the start.
    expect(entries).toEqual(['H.Start', 'M.Origin', 'P.Start']);
    expect(compile(task('A').next(task('B'))).entry).toBe('A');
  });

  it('a loop around a Parallel: the back edge re-runs the fan-out one iteration later', () => {
    const p = new Parallel('P').branch(task('A'), task('B'));
    const c = compile(task('S').next(p).next(task('Check')).next(new Choice('Again').when(Condition.isPresent('$.again'), p).otherwise(new Succeed('Done'))));
    expect(instructions(c, 'Check')).toEqual([{ op: 'choice', state: 'Again', rules: [{ when: { kind: 'test', test: 'present', path: '$.again', expected: true }, then: [INCR, { op: 'invoke', invoke: { kind: 'parallel', targets: ['A', 'B'], join: 'Check' } }] }], otherwise: [SUCCEED] }]);
  });

  it('a loop inside a map item', () => {
    const step = task('Step');
    const c = compile(task('S').next(new MapState('M').itemProcessor(step.next(new Choice('Again').when(Condition.isPresent('$.more'), step).otherwise(new Succeed('ItemDone'))))).next(task('J')));
    expect(instructions(c, 'Step')).toEqual([{ op: 'choice', state: 'Again', rules: [{ when: { kind: 'test', test: 'present', path: '$.more', expected: true }, then: [INCR, scalar('Step')] }], otherwise: [fanIn('J', 'frame', 0)] }]);
  });

  it('a back edge to the state after a fan-in goes through an implicit join that increments', () => {
    const head = task('Head');
    const p = new Parallel('P').branch(task('A'));
    p.next(head);
    const c = compile(head.next(new Choice('C').when(Condition.isPresent('$.x'), p).otherwise(new Succeed('Done'))));
    expect(instructions(c, 'Head')).toEqual([{ op: 'choice', state: 'C', rules: [{ when: { kind: 'test', test: 'present', path: '$.x', expected: true }, then: [{ op: 'invoke', invoke: { kind: 'parallel', targets: ['A'], join: 'P.Join' } }] }], otherwise: [SUCCEED] }]);
    expect(instructions(c, 'P.Join')).toEqual([INCR, scalar('Head')]);
  });
});

describe('retry and catch', () => {
  it('records retry rules with defaults and routes caught errors to the handler node', () => {
    const t = task('Risky')
      .addRetry({ errors: ['Throttled'], maxAttempts: 5, intervalSeconds: 2, backoffRate: 1.5, jitter: 'FULL', maxDelaySeconds: 30 })
      .addRetry()
      .addCatch(task('Recover'), { errors: ['Bad'], resultPath: '$.error' })
      .addCatch(new Fail('Failed', { error: 'Unrecoverable' }));
    const c = compile(t.next(task('Next')));
    expect(ir(c, 'Risky').retry).toEqual([
      { errors: ['Throttled'], maxAttempts: 5, intervalSeconds: 2, backoffRate: 1.5, maxDelaySeconds: 30, jitter: 'FULL' },
      { errors: ['States.ALL'], maxAttempts: 3, intervalSeconds: 1, backoffRate: 2, jitter: 'NONE' },
    ]);
    expect(ir(c, 'Risky').catch).toEqual([
      { errors: ['Bad'], next: 'Recover', resultPath: '$.error' },
      { errors: ['States.ALL'], next: 'Failed.Enter' },
    ]);
    expect(instructions(c, 'Failed.Enter')).toEqual([{ op: 'fail', state: 'Failed', error: 'Unrecoverable' }]);
    expect(instructions(c, 'Recover')).toEqual([SUCCEED]);
    expect(c.nodes.Risky.successors).toEqual(['Failed.Enter', 'Next', 'Recover']);
  });

  it('a catch handler inside a branch is another tail of the join', () => {
    const b = task('B').addCatch(task('Fallback'));
    const c = compile(task('S').next(new Parallel('P').branch(b, task('C'))).next(task('J')));
    expect(ir(c, 'J').join).toEqual({ tails: ['B', 'C', 'Fallback'], branchTails: [-1, 1] });
    expect(instructions(c, 'Fallback')).toEqual([fanIn('J', 2, 2)]);
    expect(instructions(c, 'B')).toEqual([fanIn('J', 2, 0)]);
  });

  it('a catch handler that is a Parallel gets an implicit origin', () => {
    const c = compile(task('A').addCatch(new Parallel('Notify').branch(task('Mail'), task('Sms'))));
    expect(ir(c, 'A').catch).toEqual([{ errors: ['States.ALL'], next: 'Notify.Origin' }]);
    expect(instructions(c, 'Notify.Origin')).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['Mail', 'Sms'], join: 'Notify.Join' } }]);
    expect(instructions(c, 'Notify.Join')).toEqual([SUCCEED]);
  });

  it('a Fold may retry and catch', () => {
    const fold = new Fold('F', { entry: ENTRY, initial: 0 }).addRetry({ maxAttempts: 1 }).addCatch(new Fail('Bad'));
    const c = compile(task('S').next(new MapState('M').itemProcessor(task('I'))).next(fold));
    expect(ir(c, 'F')).toMatchObject({ retry: [{ errors: ['States.ALL'], maxAttempts: 1 }], catch: [{ errors: ['States.ALL'], next: 'Bad.Enter' }] });
    expect(c.nodes.F.successors).toEqual(['Bad.Enter', 'F']);
  });

  it('catch handlers may converge with the main path', () => {
    const end = task('End');
    const c = compile(task('A').addCatch(new Pass('Default', { result: { ok: false } }).next(end)).next(end));
    expect(instructions(c, 'A')).toEqual([scalar('End')]);
    expect(ir(c, 'Default').handler).toEqual({ kind: 'pass', result: { ok: false } });
    expect(instructions(c, 'Default')).toEqual([scalar('End')]);
  });
});

describe('pass, succeed, fail', () => {
  it('a Pass that cannot fold (here: the start) is a function node with handler kind pass and its io', () => {
    const c = compile(new Pass('Shape', { result: { n: 1 }, resultPath: '$.extra', inputPath: '$.x', outputPath: '$' }).next(task('A')));
    expect(ir(c, 'Shape')).toMatchObject({ entry: true, handler: { kind: 'pass', result: { n: 1 } }, io: { inputPath: '$.x', resultPath: '$.extra', outputPath: '$' }, instructions: [scalar('A')] });
    expect(c.nodes.Shape.implicit).toBe(false);
    expect(c.nodes.Shape.fn.entry).toBeUndefined();
  });

  it('Succeed and Fail are folded into the predecessor', () => {
    const c = compile(task('A').next(new Choice('C').when(Condition.stringMatches('$.s', 'ok*'), new Succeed('Yes')).otherwise(new Fail('No', { cause: 'no match' }))));
    expect(Object.keys(c.nodes)).toEqual(['A']);
    expect(instructions(c, 'A')).toEqual([{ op: 'choice', state: 'C', rules: [{ when: { kind: 'matches', path: '$.s', pattern: 'ok*' }, then: [SUCCEED] }], otherwise: [{ op: 'fail', state: 'No', error: 'No', cause: 'no match' }] }]);
  });

  it('a workflow that is only a Succeed or a Fail has one implicit node', () => {
    expect(instructions(compile(new Succeed('Done')), 'Done.Enter')).toEqual([SUCCEED]);
    expect(instructions(compile(new Fail('Nope')), 'Nope.Enter')).toEqual([{ op: 'fail', state: 'Nope', error: 'Nope' }]);
  });

  it('Task io fields are recorded in a fixed order', () => {
    const c = compile(task('A', { outputPath: '$.o', resultPath: '$.r', resultSelector: { 'x.$': '$.y' }, parameters: { 'p.$': '$.q', fixed: 1 }, inputPath: null }));
    expect(Object.keys(ir(c, 'A').io ?? {})).toEqual(['inputPath', 'parameters', 'resultSelector', 'resultPath', 'outputPath']);
  });
});

describe('Pass folding (no function for a Pass reached by one function state)', () => {
  const pass = (fields: Record<string, unknown> = {}): Instruction => ({ op: 'pass', ...fields }) as Instruction;

  it('Task -> Pass -> Task: two nodes, the first runs the pass instruction before the invoke', () => {
    const c = compile(task('A').next(new Pass('Shape', { result: { n: 1 }, resultPath: '$.extra', inputPath: '$.x', outputPath: '$' })).next(task('B')));
    expect(Object.keys(c.nodes)).toEqual(['A', 'B']);
    expect(instructions(c, 'A')).toEqual([pass({ result: { n: 1 }, io: { inputPath: '$.x', resultPath: '$.extra', outputPath: '$' } }), scalar('B')]);
    expect(c.nodes.A.successors).toEqual(['B']);
  });

  it('result null is a result (the output is null), distinct from no result, in a pass node and a pass instruction', () => {
    const c = compile(new Pass('Start', { result: null }).next(task('A')).next(new Pass('Clear', { result: null })).next(new Pass('Keep')));
    expect(ir(c, 'Start').handler).toEqual({ kind: 'pass', result: null });
    expect(instructions(c, 'A')).toEqual([pass({ result: null }), pass(), SUCCEED]);
    expect(JSON.parse(JSON.stringify(ir(c, 'A'))).instructions[0]).toEqual({ op: 'pass', result: null });
  });

  it('a chain of Passes folds into one node in order, up to the end of the workflow', () => {
    const c = compile(task('A').next(new Pass('P1', { parameters: { 'v.$': '$' } })).next(new Pass('P2')).next(new Pass('P3', { outputPath: '$.v' })));
    expect(Object.keys(c.nodes)).toEqual(['A']);
    expect(instructions(c, 'A')).toEqual([pass({ io: { parameters: { 'v.$': '$' } } }), pass(), pass({ io: { outputPath: '$.v' } }), SUCCEED]);
  });

  it('a Pass at the start stays a node; the Passes after it fold into it', () => {
    const c = compile(new Pass('First').next(new Pass('Second', { result: 2 })).next(task('T')));
    expect(Object.keys(c.nodes)).toEqual(['First', 'T']);
    expect(c.entry).toBe('First');
    expect(instructions(c, 'First')).toEqual([pass({ result: 2 }), scalar('T')]);
  });

  it('a Pass as a branch tail folds: its predecessor is the tail in the join and in the fan-in position', () => {
    const c = compile(task('S').next(new Parallel('P').branch(task('B1').next(new Pass('Wrap', { resultPath: '$.w', result: 1 })), task('A2'))).next(task('Join')));
    expect(Object.keys(c.nodes)).toEqual(['S', 'B1', 'A2', 'Join']);
    expect(ir(c, 'Join').join).toEqual({ tails: ['A2', 'B1'], branchTails: [1, 0] });
    expect(instructions(c, 'B1')).toEqual([pass({ result: 1, io: { resultPath: '$.w' } }), fanIn('Join', 2, 1)]);
    expect(instructions(c, 'A2')).toEqual([fanIn('Join', 2, 0)]);
  });

  it('a Pass that starts a branch or an item processor stays a node (the fan-out lands on a function)', () => {
    const c = compile(task('S').next(new Parallel('P').branch(new Pass('B0').next(new Pass('B0b')), task('B1'))).next(new MapState('M').itemProcessor(new Pass('Item'))).next(task('J')));
    expect(Object.keys(c.nodes).sort()).toEqual(['B0', 'B1', 'Item', 'J', 'P.Join', 'S']);
    expect(instructions(c, 'B0')).toEqual([pass(), fanIn('P.Join', 2, 0)]);
    expect(ir(c, 'P.Join').join).toEqual({ tails: ['B0', 'B1'], branchTails: [0, 1] });
  });

  it('a Pass after a join folds into the join (an implicit join, a Fold, a Pass that is the join)', () => {
    const viaIo = compile(task('S').next(new MapState('M', { resultSelector: { 'rows.$': '$' } }).itemProcessor(task('I'))).next(new Pass('Shape', { outputPath: '$.rows' })).next(task('T')));
    expect(Object.keys(viaIo.nodes)).toEqual(['S', 'I', 'M.Join', 'T']);
    expect(ir(viaIo, 'M.Join')).toMatchObject({ join: { tails: ['I'], resultSelector: { 'rows.$': '$' } }, instructions: [pass({ io: { outputPath: '$.rows' } }), scalar('T')] });

    const viaFold = compile(task('S').next(new Parallel('P').branch(task('A'), task('B'))).next(new Fold('Sum', { entry: ENTRY, handler: 'sum', initial: 0 })).next(new Pass('Box', { parameters: { 'total.$': '$' } })));
    expect(Object.keys(viaFold.nodes)).toEqual(['S', 'A', 'B', 'Sum']);
    expect(instructions(viaFold, 'Sum')).toEqual([pass({ io: { parameters: { 'total.$': '$' } } }), SUCCEED]);

    const passJoin = compile(task('S').next(new Parallel('P').branch(task('A'))).next(new Pass('Collect', { outputPath: '$[0]' })).next(new Pass('Then', { result: 'x' })));
    expect(Object.keys(passJoin.nodes)).toEqual(['S', 'A', 'Collect']);
    expect(ir(passJoin, 'Collect')).toMatchObject({ handler: { kind: 'pass' }, io: { outputPath: '$[0]' }, join: { tails: ['A'] }, instructions: [pass({ result: 'x' }), SUCCEED] });
  });

  it('a Pass before a Choice folds: the pass instruction comes first, so the choice sees the transformed value', () => {
    const c = compile(task('A').next(new Pass('Pick', { inputPath: '$.inner' })).next(new Choice('C').when(Condition.numberGreaterThan('$.n', 1), task('Big')).otherwise(task('Small'))));
    expect(Object.keys(c.nodes)).toEqual(['A', 'Big', 'Small']);
    expect(instructions(c, 'A')).toEqual([pass({ io: { inputPath: '$.inner' } }), { op: 'choice', state: 'C', rules: [{ when: { kind: 'compare', type: 'number', op: 'gt', path: '$.n', value: 1 }, then: [scalar('Big')] }], otherwise: [scalar('Small')] }]);
  });

  it('a Pass reached from a Choice, from two states, or as a catch handler stays a node', () => {
    const shared = new Pass('Shared');
    const armPass = new Pass('Arm');
    const handler = new Pass('Handler');
    const c = compile(task('A').addCatch(handler).next(new Choice('C').when(Condition.isPresent('$.x'), armPass.next(shared)).otherwise(task('B').next(shared))));
    expect(Object.keys(c.nodes).sort()).toEqual(['A', 'Arm', 'B', 'Handler', 'Shared']);
    expect(instructions(c, 'Arm')).toEqual([scalar('Shared')]);
    expect(instructions(c, 'B')).toEqual([scalar('Shared')]);
    expect(ir(c, 'A').catch).toEqual([{ errors: ['States.ALL'], next: 'Handler' }]);
  });

  it('a loop target Pass stays a node; a Pass before the back edge folds and the increment follows it', () => {
    const head = new Pass('Head');
    const c = compile(task('Init').next(head).next(task('Work')).next(new Pass('Bump', { resultPath: '$.bumped', result: true })).next(new Choice('Again').when(Condition.isPresent('$.more'), head).otherwise(new Succeed('Done'))));
    expect(Object.keys(c.nodes)).toEqual(['Init', 'Head', 'Work']);
    expect(instructions(c, 'Init')).toEqual([scalar('Head')]);
    expect(instructions(c, 'Work')).toEqual([pass({ result: true, io: { resultPath: '$.bumped' } }), { op: 'choice', state: 'Again', rules: [{ when: { kind: 'test', test: 'present', path: '$.more', expected: true }, then: [INCR, scalar('Head')] }], otherwise: [SUCCEED] }]);

    const direct = new Pass('Top');
    const d = compile(task('Init').next(direct).next(task('Body')).next(new Choice('More').when(Condition.isPresent('$.more'), direct).otherwise(new Succeed('End'))));
    expect(Object.keys(d.nodes)).toEqual(['Init', 'Top', 'Body']);
  });

  it('a Pass whose Parameters read $$.State keeps its node (the state name would be the predecessor\'s)', () => {
    const c = compile(task('A').next(new Pass('Named', { parameters: { 'me.$': '$$.State.Name' } })));
    expect(Object.keys(c.nodes)).toEqual(['A', 'Named']);
  });

  it('folds a 10,000-Pass chain without deep recursion', () => {
    let chain = Chain.start(task('A'));
    for (let i = 0; i < 10000; i++) chain = chain.next(new Pass(`P${i}`));
    const c = compile(chain);
    expect(Object.keys(c.nodes)).toEqual(['A']);
    expect(instructions(c, 'A')).toHaveLength(10001);
  });
});

describe('Retry and Catch on a Parallel / Map', () => {
  it('the join is implicit and holds the rules: catch on the join node, retry with the fan-out it runs again', () => {
    const m = new MapState('M', { itemsPath: '$.items' })
      .itemProcessor(task('I').next(task('I2')))
      .addRetry({ errors: ['Busy'], maxAttempts: 2 })
      .addCatch(task('Handle'), { resultPath: '$.error' });
    const c = compile(task('S').next(m).next(task('After')));
    const fanOut = { kind: 'map', target: 'I', join: 'M.Join', itemsPath: '$', maxConcurrency: 0 };
    expect(instructions(c, 'S')).toEqual([{ op: 'invoke', invoke: { ...fanOut, itemsPath: '$.items' } }]);
    expect(ir(c, 'M.Join').join).toEqual({
      tails: ['I2'],
      retry: { rules: [{ errors: ['Busy'], maxAttempts: 2, intervalSeconds: 1, backoffRate: 2, jitter: 'NONE' }], fanOut: { ...fanOut, itemsPath: '$.items' } },
    });
    expect(ir(c, 'M.Join').catch).toEqual([{ errors: ['States.ALL'], next: 'Handle', resultPath: '$.error' }]);
    expect(c.nodes['M.Join'].successors).toEqual(['After', 'Handle', 'I', 'M.Join']);
    // Nodes inside fail the state; nodes outside do not.
    expect([ir(c, 'I').stateErrors, ir(c, 'I2').stateErrors, ir(c, 'S').stateErrors, ir(c, 'M.Join').stateErrors]).toEqual([true, true, undefined, undefined]);
    // A node that can fail the state invokes its join with the failure, tail or not: a successor (function name, invoke permission).
    // The item start is its own successor too: the launcher of a launch tree.
    expect(c.nodes.I.successors).toEqual(['I', 'I2', 'M.Join']);
  });

  it('nodes in an inner container without rules fail it too when an outer one has rules; its join propagates', () => {
    const inner = new Parallel('Inner').branch(task('X'), task('Y'));
    const outer = new Parallel('Outer').branch(task('A').next(inner).next(task('AJ')), task('B')).addCatch(new Pass('Caught'));
    const c = compile(task('S').next(outer));
    expect([ir(c, 'X').stateErrors, ir(c, 'AJ').stateErrors, ir(c, 'B').stateErrors]).toEqual([true, true, true]);
    // Each fails the innermost state around it: X its Inner (whose join is AJ, the next state), A the Outer.
    expect([c.nodes.X.successors, c.nodes.A.successors]).toEqual([['AJ'], ['X', 'Y', 'Outer.Join']]);
    expect(ir(c, 'AJ').join).toEqual({ tails: ['X', 'Y'], branchTails: [0, 1] });
  });

  it('rules on a Map/Parallel followed by a Fold, or invalid rules, are definition errors naming the field', () => {
    const fold = () => new Fold('Sum', { entry: ENTRY, handler: 'sum', initial: 0 });
    expect(() => compile(task('S').next(new MapState('M').itemProcessor(task('I')).addRetry()).next(fold()))).toThrow(
      "Workflow 'W', node 'M', field 'retry[0]': a Map followed by a Fold ('Sum') cannot have Retry rules; put them on the states inside it",
    );
    expect(() => compile(task('S').next(new Parallel('P').branch(task('I')).addRetry({ maxAttempts: -1 })))).toThrow("Workflow 'W', node 'P', field 'retry[0].maxAttempts': -1 is not an integer >= 0");
  });
});
