/** ASL state names -> node names: deterministic, valid, and collision-free (lib/asl/names.ts). */
import { createHash } from 'crypto';
import { NAME_PATTERN } from '../../lib/compiler';
import { NodeNames } from '../../lib/asl';
import { compileAsl, machine, task } from './helpers';

const hash8 = (name: string): string => createHash('sha256').update(name).digest('hex').slice(0, 8);

describe('node names of ASL states', () => {
  test('valid names are kept; runs of other characters become _', () => {
    const names = new NodeNames(['Hello', 'Re-encode', 'vpxenc And xcdec', 'xcenc Replace Key Frame', 'a.b/c', 'Größe']);
    expect(['Hello', 'Re-encode', 'vpxenc And xcdec', 'xcenc Replace Key Frame', 'a.b/c', 'Größe'].map((n) => names.node(n))).toEqual([
      'Hello', 'Re-encode', 'vpxenc_And_xcdec', 'xcenc_Replace_Key_Frame', 'a_b_c', 'Gr_e',
    ]);
  });

  test('a result that equals a kept name or another result, or is too long, gets a hash suffix', () => {
    const long = `${'x'.repeat(70)} y`;
    const names = new NodeNames(['a b', 'a_b', 'c d', 'c:d', long]);
    expect(names.node('a_b')).toBe('a_b');
    expect(names.node('a b')).toBe(`a_b-${hash8('a b')}`);
    expect(names.node('c d')).toBe(`c_d-${hash8('c d')}`);
    expect(names.node('c:d')).toBe(`c_d-${hash8('c:d')}`);
    expect(names.node(long)).toBe(`${'x'.repeat(55)}-${hash8(long)}`);
    for (const n of ['a b', 'a_b', 'c d', 'c:d', long]) expect(names.node(n)).toMatch(NAME_PATTERN);
    expect(names.asl(`a_b-${hash8('a b')}`)).toBe('a b');
  });

  test('the mapping does not depend on the order of states', () => {
    const a = new NodeNames(['c d', 'c:d', 'x']);
    const b = new NodeNames(['x', 'c:d', 'c d']);
    expect(['c d', 'c:d', 'x'].map((n) => a.node(n))).toEqual(['c d', 'c:d', 'x'].map((n) => b.node(n)));
  });

  test('nested states are renamed too, and states whose names clash after renaming both compile', () => {
    const doc = machine({
      'step one': task({ Next: 'step_one' }),
      step_one: task({ Next: 'each item' }),
      'each item': { Type: 'Map', Iterator: { StartAt: 'do it', States: { 'do it': task() } }, End: true },
    });
    const compiled = compileAsl(doc);
    expect(Object.keys(compiled.nodes).sort()).toEqual([`step_one-${hash8('step one')}`, 'step_one', 'do_it', 'each_item.Join'].sort());
  });

  test('a node keeps the ASL name of its state: $$.State.Name and run records name the state as the document does', () => {
    const doc = machine({
      'step one': task({ Next: 'each item' }),
      'each item': { Type: 'Map', ItemSelector: { 'map.$': '$$.State.Name' }, Iterator: { StartAt: 'do it', States: { 'do it': task() } }, Next: 'Stop here' },
      'Stop here': { Type: 'Fail', Error: 'Stopped' },
    });
    const { nodes } = compileAsl(doc);
    expect(nodes.step_one.ir.state).toBe('step one');
    expect(nodes.do_it.ir.state).toBe('do it');
    expect(nodes['each_item.Join'].ir.state).toBe('each item');
    expect(nodes.step_one.ir.instructions[0]).toMatchObject({ invoke: { kind: 'map', state: 'each item' } });
    expect(nodes['each_item.Join'].ir.instructions).toEqual([{ op: 'fail', state: 'Stop here', error: 'Stopped' }]);
  });

  test('ErrorPath and CausePath reach the Fail instruction', () => {
    const doc = machine({ Work: task({ Next: 'Declined' }), Declined: { Type: 'Fail', ErrorPath: '$.code', CausePath: "States.Format('no: {}', $.why)" } });
    expect(compileAsl(doc).nodes.Work.ir.instructions).toEqual([{ op: 'fail', state: 'Declined', errorPath: '$.code', causePath: "States.Format('no: {}', $.why)" }]);
  });

  test('an ErrorPath the runtime cannot evaluate is an error naming the state and field', () => {
    const doc = machine({ Work: task({ Next: 'Declined' }), Declined: { Type: 'Fail', ErrorPath: 'States.Nope($.code)' } });
    expect(() => compileAsl(doc)).toThrow(/node 'Declined', field 'ErrorPath': .*States\.Nope/);
  });
});
