import { compileWorkflow } from '../../lib/compiler';
import { toDot, toMermaid, workflowGraph } from '../../lib/graph/mermaid';
import { nodeStatesOfRun } from '../../lib/graph/run-state';
import type { InspectReport } from '../../lib/client/inspect';
import { collatz } from '../../examples/collatz/workflow';
import { textPipeline } from '../../examples/text-pipeline/workflow';
import { wordCount } from '../../examples/wordcount/workflow';

const examples = { TextPipeline: textPipeline, WordCount: wordCount, Collatz: collatz };

const graphOf = (name: keyof typeof examples) =>
  workflowGraph(Object.values(compileWorkflow(name, examples[name]()).nodes).map((n) => n.ir));

describe.each(Object.keys(examples) as (keyof typeof examples)[])('diagram of the %s example', (name) => {
  test('Mermaid', () => expect(toMermaid(graphOf(name))).toMatchSnapshot());
  test('DOT', () => expect(toDot(graphOf(name), name)).toMatchSnapshot());
});

test('the word count diagram shows both maps and both fan-ins', () => {
  const text = toMermaid(graphOf('WordCount'));
  expect(text.match(/==>\|"map /g)).toHaveLength(2);
  expect(text.match(/-\.->\|"fan-in"\|/g)).toHaveLength(2);
});

test('the collatz diagram shows its loop back edge', () => {
  expect(toMermaid(graphOf('Collatz'))).toMatch(/next iteration"\| n_Step/);
});

const report = (history: InspectReport['history'], failures: InspectReport['failures'] = []): InspectReport => ({
  run: { workflowId: 'r1', status: failures.length ? 'FAILED' : 'RUNNING' },
  history,
  fanIns: [],
  failures,
});
const entry = (seq: number, node: string, outcome: 'committed' | 'caught' | 'failed') =>
  ({ seq, node, state: node, invocation: `i${seq}`, iteration: 0, indexes: [], at: '2026-11-22T00:00:00Z', outcome });

test('a run colours the nodes it reached, the worst outcome of a node winning', () => {
  const states = nodeStatesOfRun(report([entry(1, 'Split', 'committed'), entry(2, 'CountChunk', 'committed'), entry(3, 'CountChunk', 'failed')], [{ node: 'CountChunk', error: 'Boom', caught: false }]));
  expect([...states]).toEqual([['n_Split', 'committed'], ['n_CountChunk', 'failed']]);
  const text = toMermaid(graphOf('WordCount'), states);
  expect(text).toContain('style n_Split fill:#c8f0c8');
  expect(text).toContain('style n_CountChunk fill:#f4b4b4');
  expect(text).not.toContain('style n_Merge');
  expect(toDot(graphOf('WordCount'), 'WordCount', states)).toContain('n_CountChunk [label="CountChunk", shape=box, style=filled, fillcolor="#f4b4b4"];');
});

test('without a history only the failed node is coloured', () => {
  const states = nodeStatesOfRun(report(undefined, [{ node: 'Merge', error: 'States.TaskFailed', caught: false }]));
  expect([...states]).toEqual([['n_Merge', 'failed']]);
});
