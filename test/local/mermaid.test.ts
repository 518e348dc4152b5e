import type { NodeIR } from '../../runtime/ir';
import { toDot, toMermaid, workflowGraph } from '../../lib/graph/mermaid';

const settings = { inlineLimitBytes: 32768, invokeConcurrency: 64, checkpointTtlSeconds: 604800, runRetentionSeconds: 2592000, timeoutSeconds: 30, handoffSeconds: 21630 };
const node = (n: string, instructions: NodeIR['instructions'], extra: Partial<NodeIR> = {}): NodeIR => ({
  version: 1, workflow: 'W', node: n, entry: false, handler: { kind: 'user', export: n }, instructions, settings, functionNames: {}, ...extra,
});

test('fan-outs, maps, fan-ins, choices, loops and ends become Mermaid and DOT', () => {
  const irs: NodeIR[] = [
    node('Split', [{ op: 'invoke', invoke: { kind: 'map', target: 'Count', join: 'Merge', itemsPath: '$.chunks', maxConcurrency: 0 } }], { entry: true }),
    node('Count', [{ op: 'invoke', invoke: { kind: 'fanIn', target: 'Merge', size: 'frame', tail: 0 } }]),
    node('Merge', [{ op: 'choice', state: 'Check', rules: [{ when: { kind: 'compare', type: 'number', op: 'gt', path: '$.n', value: 1 }, then: [{ op: 'incrIteration' }, { op: 'invoke', invoke: { kind: 'scalar', target: 'Split' } }] }], otherwise: [{ op: 'succeed' }] }], { join: { tails: ['Count'] } }),
  ];
  const graph = workflowGraph(irs);
  const mermaid = toMermaid(graph);
  expect(mermaid).toMatch(/^flowchart TD/);
  expect(mermaid).toContain('start --> n_Split');
  expect(mermaid).toContain('n_Split ==>|"map $.chunks"| n_Count');
  expect(mermaid).toContain('n_Count -.->|"fan-in"| n_Merge');
  expect(mermaid).toContain('n_Merge --> choice_0');
  expect(mermaid).toContain('choice_0 -->|"$.n > 1: next iteration"| n_Split');
  expect(mermaid).toContain('choice_0 -->|"otherwise"| end_');
  expect(toDot(graph, 'W')).toContain('n_Split -> n_Count [label="map $.chunks", penwidth=2.5];');
});

test('a choice without otherwise shows the failing path', () => {
  const irs = [node('A', [{ op: 'choice', state: 'Check', rules: [{ when: { kind: 'test', test: 'present', path: '$.x', expected: true }, then: [{ op: 'succeed' }] }] }], { entry: true })];
  expect(toMermaid(workflowGraph(irs))).toContain('|"no match"| fail_');
});
