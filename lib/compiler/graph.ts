import type { AnyState, MapState, Parallel, State } from '../definition';
import { UnumDefinitionError } from './errors';
import { nameProblem } from './names';

/** Where a state lives: the workflow's top level, or one branch of a Parallel / the item processor of a Map. */
export interface Scope {
  readonly container?: Parallel | MapState;
  readonly branch: number;
}

export const ROOT_SCOPE: Scope = { branch: 0 };

/** The validated shape of a definition, computed once with iterative traversals. */
export interface Graph {
  readonly start: AnyState;
  /** Reachable states in depth-first preorder (deterministic: edges in definition order). */
  readonly order: readonly AnyState[];
  readonly scopeOf: ReadonlyMap<State, Scope>;
  /** True when the transition closes a cycle (the target is on the DFS path): it must increment the iteration. */
  isBackEdge(from: State, to: State): boolean;
}

/** Transitions that stay in the state's scope, in definition order. */
export function sameScopeEdges(state: AnyState): State[] {
  const out: (State | undefined)[] = [];
  switch (state.kind) {
    case 'task':
    case 'fold':
    case 'parallel':
    case 'map':
      out.push(state.nextState, ...state.catches.map((c) => c.handler));
      break;
    case 'pass':
    case 'wait':
      out.push(state.nextState);
      break;
    case 'choice':
      out.push(...state.arms.map((a) => a.next), state.otherwiseState);
      break;
    case 'succeed':
    case 'fail':
      break;
  }
  return out.filter((s): s is State => s !== undefined);
}

/** Start states of the scopes a container opens (branches, item processor). */
function childStarts(state: AnyState): (State | undefined)[] {
  if (state.kind === 'parallel') return state.branches;
  if (state.kind === 'map') return [state.processorState];
  return [];
}

interface Frame {
  readonly state: AnyState;
  readonly edges: readonly { readonly to: State; readonly scope: Scope }[];
  next: number;
}

/**
 * Walks the definition from its start (iteratively: a 10,000-state chain must
 * not overflow the stack), assigns each state its scope, and rejects invalid
 * names, duplicate names, states used in two scopes and unreachable states.
 */
export function buildGraph(workflow: string, start: State): Graph {
  const order: AnyState[] = [];
  const scopeOf = new Map<State, Scope>();
  const byName = new Map<string, State>();
  const onPath = new Set<State>();
  const backEdges = new Map<State, Set<State>>();
  const childScopes = new Map<State, Scope[]>();
  const stack: Frame[] = [];

  const scopeFor = (container: Parallel | MapState, branch: number): Scope => {
    let scopes = childScopes.get(container);
    if (!scopes) childScopes.set(container, (scopes = []));
    return (scopes[branch] ??= { container, branch });
  };

  const enter = (raw: State, scope: Scope): void => {
    const state = raw as AnyState;
    const problem = nameProblem(state.id);
    if (problem) throw new UnumDefinitionError(workflow, String(state.id), 'id', problem);
    const sameName = byName.get(state.id);
    if (sameName && sameName !== state) {
      throw new UnumDefinitionError(workflow, state.id, 'id', `two different states are named '${state.id}'; state names must be unique in a workflow`);
    }
    byName.set(state.id, state);
    scopeOf.set(state, scope);
    order.push(state);
    onPath.add(state);
    const edges = sameScopeEdges(state).map((to) => ({ to, scope }));
    childStarts(state).forEach((child, i) => {
      if (child) edges.push({ to: child, scope: scopeFor(state as Parallel | MapState, i) });
    });
    // Branches first, so that preorder lists a container's branches before what follows it.
    edges.sort((a, b) => Number(a.scope === scope) - Number(b.scope === scope));
    stack.push({ state, edges, next: 0 });
  };

  enter(start, ROOT_SCOPE);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.next >= frame.edges.length) {
      stack.pop();
      onPath.delete(frame.state);
      continue;
    }
    const { to, scope } = frame.edges[frame.next++];
    const known = scopeOf.get(to);
    if (known === undefined) {
      enter(to, scope);
    } else if (known !== scope) {
      throw new UnumDefinitionError(workflow, to.id, 'id', `the state is used in two places (${scopeName(known)} and ${scopeName(scope)}); create a separate state for each use`);
    } else if (onPath.has(to)) {
      let targets = backEdges.get(frame.state);
      if (!targets) backEdges.set(frame.state, (targets = new Set()));
      targets.add(to);
    }
  }

  rejectUnreachable(workflow, order, scopeOf);
  return {
    start: start as AnyState,
    order,
    scopeOf,
    isBackEdge: (from, to) => backEdges.get(from)?.has(to) ?? false,
  };
}

function scopeName(scope: Scope): string {
  if (!scope.container) return 'the top level';
  return scope.container.kind === 'map' ? `the item processor of '${scope.container.id}'` : `branch ${scope.branch} of '${scope.container.id}'`;
}

/**
 * A state is unreachable when it is linked to the workflow (it transitions
 * into it, or is linked to such a state) but no path from the start reaches it.
 */
function rejectUnreachable(workflow: string, order: readonly AnyState[], reached: ReadonlyMap<State, Scope>): void {
  const seen = new Set<State>(order);
  const queue: State[] = [...order];
  for (let i = 0; i < queue.length; i++) {
    const state = queue[i] as AnyState;
    const linked = [...state.incoming, ...sameScopeEdges(state), ...childStarts(state).filter((s): s is State => s !== undefined)];
    for (const other of linked) {
      if (seen.has(other)) continue;
      seen.add(other);
      queue.push(other);
      if (!reached.has(other)) {
        throw new UnumDefinitionError(workflow, other.id, 'id', `the state is unreachable: no path from the start of the workflow leads to it`);
      }
    }
  }
}
