/** The context object (`$$`) that templates see: the run's id and the state's name. */
import type { Json } from '../contract/ir';
import type { Exec } from '../ports/execution';

/** The state the node's function runs (`NodeIR.state`), as run records and `$$.State.Name` name it. */
export const stateOf = (x: Exec): string => x.rt.ir.state ?? x.rt.ir.node;

export function contextObject(x: Exec, extra?: { [k: string]: Json }): Json {
  return { Execution: { Id: x.invocation.workflowId }, State: { Name: stateOf(x) }, ...extra };
}
