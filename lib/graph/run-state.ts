import type { InspectReport } from '../client';
import { failStateId, graphNodeId, type NodeRunState } from './mermaid';

const RANK: Record<NodeRunState, number> = { committed: 0, caught: 1, failed: 2 };

/**
 * How far each node got in a run, from `inspect`, by diagram id: its history
 * entries (with `history: true`), else only the run's failed node. The worst
 * outcome of a node's invocations wins, so one failed map branch colours the
 * node red. A run that ended in a Fail state colours that state too.
 */
export function nodeStatesOfRun(report: InspectReport): Map<string, NodeRunState> {
  const states = new Map<string, NodeRunState>();
  const mark = (id: string, state: NodeRunState): void => {
    const before = states.get(id);
    if (before === undefined || RANK[state] > RANK[before]) states.set(id, state);
  };
  for (const entry of report.history ?? []) mark(graphNodeId(entry.node), entry.outcome);
  for (const failure of report.failures) mark(graphNodeId(failure.node), failure.caught ? 'caught' : 'failed');
  // A Fail state has a diagram node of its own (the diagrams skip the id of any other state where a run ended).
  const ended = report.run.error?.state;
  if (ended !== undefined) mark(failStateId(ended), 'failed');
  return states;
}
