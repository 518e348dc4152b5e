/** The context object (`$$`) that templates see: the run's id and the state's name. */
import type { Json, NodeIR } from '../contract/ir';

/** What the context object is read from: an execution (runtime/ports/execution.ts `Exec`) has it. */
export interface ContextSource {
  readonly rt: { readonly ir: Pick<NodeIR, 'state' | 'node'> };
  readonly invocation: { readonly workflowId: string };
}

/** The state the node's function runs (`NodeIR.state`), as run records and `$$.State.Name` name it. */
export const stateOf = (x: ContextSource): string => x.rt.ir.state ?? x.rt.ir.node;

export function contextObject(x: ContextSource, extra?: { [k: string]: Json }): Json {
  return { Execution: { Id: x.invocation.workflowId }, State: { Name: stateOf(x) }, ...extra };
}

/**
 * The context object of the state `state` folded into this node or fanned
 * out from it (a Choice, a Fail, a Wait, a Parallel, a Map): its
 * `State.Name` is that state's, not the node's.
 */
export const foldedStateContext = (x: ContextSource, state: string, extra?: { [k: string]: Json }): Json => contextObject(x, { State: { Name: state }, ...extra });
