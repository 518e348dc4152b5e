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
});
