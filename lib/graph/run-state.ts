import type { InspectReport } from '../client/inspect';
import type { NodeRunState } from './mermaid';

const RANK: Record<NodeRunState, number> = { committed: 0, caught: 1, failed: 2 };

/**
 * How far each node got in a run, from `inspect`: its history entries (with
 * `history: true`), else only the run's failed node. The worst outcome of a
 * node's invocations wins, so one failed map branch colours the node red.
 */
export function nodeStatesOfRun(report: InspectReport): Map<string, NodeRunState> {
  const states = new Map<string, NodeRunState>();
  const mark = (node: string, state: NodeRunState): void => {
    const before = states.get(node);
    if (before === undefined || RANK[state] > RANK[before]) states.set(node, state);
  };
  for (const entry of report.history ?? []) mark(entry.node, entry.outcome);
  for (const failure of report.failures) mark(failure.node, failure.caught ? 'caught' : 'failed');
  return states;
}
