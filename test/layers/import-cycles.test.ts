/**
 * The layers of lib/, runtime/ and bin/ form no import cycle (docs/architecture.md,
 * "Layers"). The checker is tested first on small fixtures, so that a pass
 * on the project means something.
 */
import * as path from 'node:path';
import { findCycles, importGraph } from '../support/import-graph';

const ROOT = path.join(__dirname, '..', '..');
const FIXTURES = path.join(__dirname, 'fixtures');

describe('the import graph checker', () => {
  test('reads import type, export from, typeof import(), require() and dynamic import()', () => {
    const graph = importGraph(FIXTURES, ['cycle', 'acyclic']);
    expect(Object.fromEntries(graph)).toEqual({
      'acyclic/index.ts': ['acyclic/leaf.ts', 'acyclic/nested/index.ts'],
      'acyclic/leaf.ts': [],
      'acyclic/nested/index.ts': ['acyclic/leaf.ts'],
      'cycle/a.ts': ['cycle/b.ts'],
      'cycle/b.ts': ['cycle/c.ts'],
      'cycle/c.ts': ['cycle/a.ts'],
      'cycle/self.ts': ['cycle/self.ts'],
    });
  });

  test('names every cycle, in import order, and nothing in an acyclic graph', () => {
    expect(findCycles(importGraph(FIXTURES, ['cycle']))).toEqual([
      ['cycle/a.ts', 'cycle/b.ts', 'cycle/c.ts', 'cycle/a.ts'],
      ['cycle/self.ts', 'cycle/self.ts'],
    ]);
    expect(findCycles(importGraph(FIXTURES, ['acyclic']))).toEqual([]);
  });

  test('finds the shortest way back inside a larger knot', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'a']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'a']]);
  });
});

test('lib/, runtime/ and bin/ import each other without a cycle', () => {
  const graph = importGraph(ROOT, ['lib', 'runtime', 'bin']);
  expect(graph.size).toBeGreaterThan(100);
  const cycles = findCycles(graph).map((cycle) => cycle.join(' -> '));
  expect(cycles).toEqual([]);
});
