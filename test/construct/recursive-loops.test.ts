import { nodesOnCycles } from '../../lib/compiler/cycles';

const graph = (edges: Record<string, string[]>): Map<string, string[]> => new Map(Object.entries(edges));
const onCycles = (edges: Record<string, string[]>): string[] => [...nodesOnCycles(graph(edges))].sort();

describe('nodesOnCycles', () => {
  test('a chain, a fan-out and a diamond have none', () => {
    expect(onCycles({ A: ['B'], B: ['C'], C: [] })).toEqual([]);
    expect(onCycles({ A: ['B', 'C'], B: ['D'], C: ['D'], D: [] })).toEqual([]);
  });

  test('a node that is its own successor (a fold, a launcher), and nothing around it', () => {
    expect(onCycles({ A: ['B'], B: ['B', 'C'], C: [] })).toEqual(['B']);
  });

  test('a loop: its nodes, not the ones before or after it', () => {
    expect(onCycles({ Start: ['A'], A: ['B'], B: ['A', 'Done'], Done: [] })).toEqual(['A', 'B']);
  });

  test('two loops joined by a path: both loops, not the path between them', () => {
    expect(onCycles({ A: ['B'], B: ['A', 'C'], C: ['D'], D: ['E'], E: ['D'] })).toEqual(['A', 'B', 'D', 'E']);
  });

  test('a loop reached from inside another: each is found, visited in any order', () => {
    const edges = { X: ['Y'], Y: ['Z', 'X'], Z: ['W'], W: ['Z'] };
    expect(onCycles(edges)).toEqual(['W', 'X', 'Y', 'Z']);
    expect([...nodesOnCycles(new Map(Object.entries(edges).reverse()))].sort()).toEqual(['W', 'X', 'Y', 'Z']);
  });

  test('successors outside the graph are ignored', () => {
    expect(onCycles({ A: ['Elsewhere'] })).toEqual([]);
  });

  test('10,000 nodes deep: no recursion limit', () => {
    const edges: Record<string, string[]> = {};
    for (let i = 0; i < 10_000; i++) edges[`N${i}`] = [`N${i + 1}`];
    edges.N10000 = ['N5000'];
    const found = nodesOnCycles(graph(edges));
    expect(found.size).toBe(5001);
    expect(found.has('N4999')).toBe(false);
    expect(found.has('N5000')).toBe(true);
  });
});
