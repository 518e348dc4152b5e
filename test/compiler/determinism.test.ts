import fc from 'fast-check';
import type { Instruction } from '../../runtime/contract/ir';
import { compileWorkflow, type CompiledWorkflow } from '../../lib/compiler';
import { validateIr } from '../support/ir-schema';
import { build, randomSeq } from './random-definitions';

/** Every invoke target of the instructions (recursively through choices). */
function invokes(instructions: readonly Instruction[]): Instruction[] {
  const out: Instruction[] = [];
  const stack = [...instructions];
  while (stack.length > 0) {
    const i = stack.pop() as Instruction;
    if (i.op === 'choice') {
      i.rules.forEach((r) => stack.push(...r.then));
      if (i.otherwise) stack.push(...i.otherwise);
    } else if (i.op === 'invoke') out.push(i);
  }
  return out;
}

function checkInvariants(compiled: CompiledWorkflow): void {
  const names = new Set(Object.keys(compiled.nodes));
  expect(Object.values(compiled.nodes).filter((n) => n.ir.entry).map((n) => n.ir.node)).toEqual([compiled.entry]);
  for (const node of Object.values(compiled.nodes)) {
    expect(validateIr(JSON.parse(JSON.stringify(node.ir)))).toEqual({ valid: true, errors: [] });
    for (const s of node.successors) expect(names).toContain(s);
    expect([...node.successors].sort()).toEqual(node.successors);
    for (const ins of invokes(node.ir.instructions)) {
      if (ins.op !== 'invoke') continue;
      const inv = ins.invoke;
      if (inv.kind === 'fanIn') expect(compiled.nodes[inv.target].ir.join?.tails[inv.tail]).toBe(node.ir.node);
      if (inv.kind === 'parallel' || inv.kind === 'map') expect(compiled.nodes[inv.join].ir.join).toBeDefined();
    }
  }
}

describe('determinism', () => {
  it('the same random definition compiles to byte-identical JSON, valid against the schema', () => {
    // fast-check prints the seed and the shrunk counterexample on failure.
    fc.assert(
      fc.property(randomSeq, (spec) => {
        const first = JSON.stringify(compileWorkflow('Random', build(spec)));
        const second = compileWorkflow('Random', build(spec));
        expect(JSON.stringify(second)).toBe(first);
        checkInvariants(second);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the history option', () => {
  it('sets settings.history in every IR only when true; otherwise the IR is byte-identical to the default', () => {
    fc.assert(
      fc.property(randomSeq, (spec) => {
        const plain = JSON.stringify(compileWorkflow('Random', build(spec)));
        expect(JSON.stringify(compileWorkflow('Random', build(spec), { history: false }))).toBe(plain);
        const withHistory = compileWorkflow('Random', build(spec), { history: true });
        for (const node of Object.values(withHistory.nodes)) {
          expect(node.ir.settings.history).toBe(true);
          expect(validateIr(JSON.parse(JSON.stringify(node.ir)))).toEqual({ valid: true, errors: [] });
        }
        // Nothing else changes.
        const stripped = JSON.parse(JSON.stringify(withHistory), (k, v) => (k === 'history' ? undefined : v));
        expect(JSON.stringify(stripped)).toBe(plain);
      }),
      { numRuns: 50 },
    );
  });
});
