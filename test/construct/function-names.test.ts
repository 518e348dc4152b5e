import { physicalFunctionName } from '../../lib/construct/function-names';

describe('physicalFunctionName', () => {
  test('short valid names are kept', () => {
    expect(physicalFunctionName('Stack', 'Flow', 'Node_1')).toBe('Stack-Flow-Node_1');
  });

  test('long names are cut to 64 characters with a stable hash of the full name', () => {
    const a = physicalFunctionName('S'.repeat(40), 'W'.repeat(20), 'NodeA');
    const b = physicalFunctionName('S'.repeat(40), 'W'.repeat(20), 'NodeB');
    expect(a).toHaveLength(64);
    expect(a).toMatch(/^S+-W+-[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(physicalFunctionName('S'.repeat(40), 'W'.repeat(20), 'NodeA')).toBe(a);
  });

  test('characters Lambda rejects are replaced, and the hash keeps names distinct', () => {
    const dotted = physicalFunctionName('Stack', 'Flow', 'a.b');
    const spaced = physicalFunctionName('Stack', 'Flow', 'a b');
    expect(dotted).toMatch(/^Stack-Flow-a-b-[0-9a-f]{8}$/);
    expect(dotted).not.toBe(spaced);
  });
});
