import type { NodeIR } from '../../runtime/contract/ir';
import type { InspectReport } from '../../lib/client/inspect';
import { failStateId, toDot, toMermaid, workflowGraph } from '../../lib/graph/mermaid';
import { nodeStatesOfRun } from '../../lib/graph/run-state';

const settings = { inlineLimitBytes: 32768, invokeConcurrency: 64, checkpointTtlSeconds: 604800, runRetentionSeconds: 2592000, timeoutSeconds: 30, handoffSeconds: 21630 };
const node = (n: string, instructions: NodeIR['instructions'], extra: Partial<NodeIR> = {}): NodeIR => ({
  version: 2, workflow: 'W', node: n, deployment: 'd0123456789abcdef0123', entry: false, handler: { kind: 'user', export: n }, instructions, settings, functionNames: {}, ...extra,
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

test('Choice and Fail states appear by name; a Fail state folded into two functions is one node, coloured where a run ended', () => {
  const declined = { op: 'fail', state: 'Card declined', errorPath: '$.code' } as const;
  const irs = [
    node('A', [{ op: 'choice', state: 'Approved?', rules: [{ when: { kind: 'test', test: 'present', path: '$.ok', expected: true }, then: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'B' } }] }], otherwise: [declined] }], { entry: true }),
    node('B', [{ op: 'choice', state: 'Shipped?', rules: [{ when: { kind: 'test', test: 'present', path: '$.sent', expected: true }, then: [{ op: 'succeed' }] }], otherwise: [declined] }]),
  ];
  const graph = workflowGraph(irs);
  const id = failStateId('Card declined');
  expect(graph.nodes.filter((n) => n.shape === 'fail' && n.id === id)).toEqual([{ id, label: 'Card declined (fail: $.code)', shape: 'fail' }]);
  expect(graph.nodes.filter((n) => n.shape === 'choice').map((n) => n.label)).toEqual(['Approved?', 'Shipped?']);
  expect(graph.edges.filter((e) => e.to === id).map((e) => e.from)).toEqual(['choice_0', 'choice_1']);
  // Ids escape every other character: names that differ only there stay apart.
  expect(failStateId('a b')).not.toBe(failStateId('a_b'));
  const report: InspectReport = { run: { workflowId: 'r', status: 'FAILED', error: { node: 'B', state: 'Card declined', error: 'Card.Declined' } }, fanIns: [], failures: [] };
  const mermaid = toMermaid(graph, nodeStatesOfRun(report));
  expect(mermaid).toContain(`style ${id} fill:#f4b4b4`);
  // A state with no diagram node of its own (the Choice a run ended at, a task) adds no style line.
  const atChoice = nodeStatesOfRun({ ...report, run: { ...report.run, error: { node: 'A', state: 'Approved?', error: 'States.NoChoiceMatched' } } });
  expect(toMermaid(graph, atChoice)).not.toContain('style');
});
