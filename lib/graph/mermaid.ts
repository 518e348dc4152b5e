/**
 * Diagrams of a workflow from its per-node IR (what deploys, not the DSL):
 * Mermaid flowchart text, and Graphviz DOT for an SVG when `dot` is installed.
 * Both come from one edge list, so they always show the same graph.
 */
import type { Condition, Instruction, NodeIR } from '../../runtime/contract/ir';

export interface GraphNode {
  readonly id: string;
  readonly label: string;
  readonly shape: 'task' | 'pass' | 'fold' | 'choice' | 'start' | 'end' | 'fail';
}

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly label?: string;
  readonly style: 'solid' | 'map' | 'fanIn' | 'catch' | 'loop';
}

export interface WorkflowGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

/** How far a node got in one run, for colouring a diagram (`unum graph --run`). */
export type NodeRunState = 'committed' | 'caught' | 'failed';

/** The diagram id of a workflow node. */
export function graphNodeId(node: string): string {
  return `n_${node.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/**
 * The diagram id of a Fail state: one node however many functions it is
 * folded into. Any character but a letter or digit is escaped, so that
 * different state names (an ASL name may hold any character) get different ids.
 */
export function failStateId(state: string): string {
  return `fail_${state.replace(/[^A-Za-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
}

/** Builds the graph of a workflow from its nodes' IR. */
export function workflowGraph(irs: readonly NodeIR[]): WorkflowGraph {
  const nodes: GraphNode[] = [{ id: 'start', label: 'start', shape: 'start' }];
  const edges: GraphEdge[] = [];
  const id = graphNodeId;
  let choices = 0;
  let ends = 0;
  const endNode = (shape: 'end' | 'fail', label: string): string => {
    const endId = `${shape}_${ends++}`;
    nodes.push({ id: endId, label, shape });
    return endId;
  };
  const failState = (state: string, label: string): string => {
    const failId = failStateId(state);
    if (!nodes.some((n) => n.id === failId)) nodes.push({ id: failId, label, shape: 'fail' });
    return failId;
  };
  const walk = (from: string, instructions: readonly Instruction[], loop: boolean): void => {
    let looping = loop;
    for (const ins of instructions) {
      // A folded Pass deploys nothing: the diagram shows functions, so it adds no node.
      if (ins.op === 'pass') continue;
      if (ins.op === 'incrIteration') looping = true;
      else if (ins.op === 'succeed') edges.push({ from, to: endNode('end', 'end'), style: 'solid' });
      else if (ins.op === 'fail') edges.push({ from, to: failState(ins.state, `${ins.state} (fail: ${ins.error ?? ins.errorPath})`), style: 'solid' });
      else if (ins.op === 'choice') {
        const c = `choice_${choices++}`;
        nodes.push({ id: c, label: ins.state, shape: 'choice' });
        edges.push({ from, to: c, style: looping ? 'loop' : 'solid' });
        for (const rule of ins.rules) walkBranch(c, rule.then, describeCondition(rule.when), looping);
        if (ins.otherwise) walkBranch(c, ins.otherwise, 'otherwise', looping);
        else edges.push({ from: c, to: endNode('fail', 'fail: States.NoChoiceMatched'), label: 'no match', style: 'solid' });
      } else {
        const inv = ins.invoke;
        if (inv.kind === 'scalar') edges.push({ from, to: id(inv.target), style: looping ? 'loop' : 'solid', ...(looping ? { label: 'next iteration' } : {}) });
        else if (inv.kind === 'parallel') inv.targets.forEach((t, i) => edges.push({ from, to: id(t), label: `branch ${i}`, style: 'solid' }));
        else if (inv.kind === 'map') edges.push({ from, to: id(inv.target), label: `map ${inv.itemsPath}`, style: 'map' });
        else edges.push({ from, to: id(inv.target), label: 'fan-in', style: 'fanIn' });
      }
    }
  };
  const walkBranch = (from: string, instructions: readonly Instruction[], label: string, loop: boolean): void => {
    // A branch that only invokes or ends gets its label on its first edge.
    const before = edges.length;
    walk(from, instructions, loop);
    const first = edges[before];
    if (first && first.from === from) edges[before] = { ...first, label: first.label ? `${label}: ${first.label}` : label };
    else if (!first) edges.push({ from, to: endNode('end', 'end'), label, style: 'solid' });
  };
  const sorted = [...irs].sort((a, b) => Number(b.entry) - Number(a.entry));
  for (const ir of sorted) {
    const shape = ir.handler.kind === 'user' ? 'task' : ir.handler.kind;
    nodes.push({ id: id(ir.node), label: ir.handler.kind === 'fold' ? `${ir.node} (fold)` : ir.node, shape });
  }
  for (const ir of sorted) {
    if (ir.entry) edges.push({ from: 'start', to: id(ir.node), style: 'solid' });
    walk(id(ir.node), ir.instructions, false);
    for (const c of ir.catch ?? []) edges.push({ from: id(ir.node), to: id(c.next), label: `catch ${c.errors.join(', ')}`, style: 'catch' });
  }
  return { nodes, edges };
}

/** Short text of a condition for an edge label. */
export function describeCondition(c: Condition): string {
  const ops = { eq: '==', lt: '<', gt: '>', le: '<=', ge: '>=' } as const;
  switch (c.kind) {
    case 'compare': return `${c.path} ${ops[c.op]} ${JSON.stringify(c.value)}`;
    case 'comparePath': return `${c.path} ${ops[c.op]} ${c.otherPath}`;
    case 'matches': return `${c.path} matches ${JSON.stringify(c.pattern)}`;
    case 'test': return `${c.expected ? '' : 'not '}is${c.test} ${c.path}`;
    case 'and': return c.all.map((x) => `(${describeCondition(x)})`).join(' and ');
    case 'or': return c.any.map((x) => `(${describeCondition(x)})`).join(' or ');
    case 'not': return `not (${describeCondition(c.arg)})`;
    case 'jsonata': return c.condition;
  }
}

function mermaidText(s: string): string {
  return `"${s.replace(/"/g, '#quot;')}"`;
}

const STATE_COLOURS: Record<NodeRunState, string> = { committed: '#c8f0c8', caught: '#f8e0a0', failed: '#f4b4b4' };

/** Mermaid flowchart text; with `states`, nodes are filled by how far a run got (keys: diagram ids, `graphNodeId` and `failStateId`). */
export function toMermaid(graph: WorkflowGraph, states?: ReadonlyMap<string, NodeRunState>): string {
  const shapes: Record<GraphNode['shape'], [string, string]> = {
    task: ['[', ']'], pass: ['([', '])'], fold: ['[[', ']]'], choice: ['{', '}'], start: ['((', '))'], end: ['((', '))'], fail: ['[/', '/]'],
  };
  const arrows: Record<GraphEdge['style'], string> = { solid: '-->', map: '==>', fanIn: '-.->', catch: '-.->', loop: '-->' };
  const lines = ['flowchart TD'];
  for (const n of graph.nodes) {
    const [open, close] = shapes[n.shape];
    lines.push(`  ${n.id}${open}${mermaidText(n.label)}${close}`);
  }
  for (const e of graph.edges) {
    lines.push(`  ${e.from} ${arrows[e.style]}${e.label ? `|${mermaidText(e.label)}|` : ''} ${e.to}`);
  }
  const ids = new Set(graph.nodes.map((n) => n.id));
  for (const [id, state] of states ?? []) if (ids.has(id)) lines.push(`  style ${id} fill:${STATE_COLOURS[state]}`);
  return lines.join('\n');
}

/** Graphviz DOT text; `states` as in `toMermaid`. */
export function toDot(graph: WorkflowGraph, name = 'workflow', states?: ReadonlyMap<string, NodeRunState>): string {
  const shapes: Record<GraphNode['shape'], string> = {
    task: 'box', pass: 'box, style=rounded', fold: 'box3d', choice: 'diamond', start: 'circle', end: 'doublecircle', fail: 'octagon',
  };
  const styles: Record<GraphEdge['style'], string> = { solid: '', map: ', penwidth=2.5', fanIn: ', style=dashed', catch: ', style=dotted, color=red', loop: ', color=blue' };
  const q = (s: string): string => JSON.stringify(s);
  const lines = [`digraph ${q(name)} {`, '  rankdir=TB;', '  node [fontname="Helvetica"]; edge [fontname="Helvetica", fontsize=10];'];
  const fills = new Map([...(states ?? [])].map(([id, state]) => [id, STATE_COLOURS[state]]));
  for (const n of graph.nodes) {
    const fill = fills.get(n.id);
    const shape = shapes[n.shape];
    const filled = shape.includes('style=') ? shape.replace('style=rounded', 'style="rounded,filled"') : `${shape}, style=filled`;
    lines.push(`  ${n.id} [label=${q(n.label)}, shape=${fill ? `${filled}, fillcolor=${q(fill)}` : shape}];`);
  }
  for (const e of graph.edges) lines.push(`  ${e.from} -> ${e.to} [${e.label ? `label=${q(e.label)}` : 'label=""'}${styles[e.style]}];`);
  lines.push('}');
  return lines.join('\n');
}
