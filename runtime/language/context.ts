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

/** The context object of a Choice state `state` folded into this node: `$states.context` of its JSONata conditions. */
export const choiceContext = (x: ContextSource, state: string): Json => contextObject(x, { State: { Name: state } });
