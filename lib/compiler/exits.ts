import type { AnyState, State } from '../definition';
import { UnumDefinitionError } from './errors';
import { sameScopeEdges, type Graph } from './graph';

/** States where a path may leave its scope: end of the workflow or branch, Succeed, Fail, or a Choice that may match nothing. */
function isExit(state: AnyState): boolean {
  switch (state.kind) {
    case 'succeed':
    case 'fail':
      return true;
    case 'choice':
      return !state.hasOtherwise;
    default:
      return state.nextState === undefined;
  }
}

/**
 * Rejects loops with no exit: every state must reach an exit of its own scope
 * (a reverse breadth-first search from the exits, linear in the graph size).
 */
export function rejectLoopsWithoutExit(workflow: string, graph: Graph): void {
  const predecessors = new Map<State, AnyState[]>();
  for (const state of graph.order) {
    for (const to of sameScopeEdges(state)) {
      let preds = predecessors.get(to);
      if (!preds) predecessors.set(to, (preds = []));
      preds.push(state);
    }
  }
  const canExit = new Set<State>();
  const queue: State[] = [];
  for (const state of graph.order) {
    if (isExit(state)) {
      canExit.add(state);
      queue.push(state);
    }
  }
  for (let i = 0; i < queue.length; i++) {
    for (const pred of predecessors.get(queue[i]) ?? []) {
      if (!canExit.has(pred)) {
        canExit.add(pred);
        queue.push(pred);
      }
    }
  }
  const stuck = graph.order.find((s) => !canExit.has(s));
  if (stuck) {
    throw new UnumDefinitionError(workflow, stuck.id, 'next', 'the state is in a loop with no exit: no path from it reaches a Succeed, a Fail or the end of its workflow/branch');
  }
}
