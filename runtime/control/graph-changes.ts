/**
 * Whether a run can move to another deployment (`redrive(id, { deployment:
 * 'latest' })`): its checkpoints, fan-in shards and parked invocations are
 * named by node, iteration and branch, so the new deployment must have the
 * same node graph: the same nodes, each leading to the same successors in the
 * same order (a Parallel's branch is its position). Handlers, settings,
 * retries and anything else a node does may change.
 */

/** A deployment's node graph: each node's successors (the nodes it may invoke), in order. */
export type NodeGraph = Readonly<Record<string, readonly string[]>>;

const names = (nodes: readonly string[]): string => (nodes.length === 0 ? 'nothing' : nodes.map((n) => `'${n}'`).join(', '));

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((n, i) => n === b[i]);

/** What changed from graph `from` to graph `to`, one sentence per change; empty when a run can move. */
export function graphChanges(from: NodeGraph, to: NodeGraph): string[] {
  const changes: string[] = [];
  const own = (graph: NodeGraph, node: string): boolean => Object.prototype.hasOwnProperty.call(graph, node);
  for (const node of Object.keys(from).sort()) {
    if (!own(to, node)) changes.push(`node '${node}' was removed`);
    else if (!sameList(from[node], to[node])) changes.push(`node '${node}' now leads to ${names(to[node])} instead of ${names(from[node])}`);
  }
  for (const node of Object.keys(to).sort()) {
    if (!own(from, node)) changes.push(`node '${node}' was added`);
  }
  return changes;
}
