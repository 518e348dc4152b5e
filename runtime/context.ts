/** The context object (`$$`) that templates see: the run's id and the state's name. */
import type { Json } from './ir';
import type { Exec } from './types';

export function contextObject(x: Exec, extra?: { [k: string]: Json }): Json {
  return { Execution: { Id: x.invocation.workflowId }, State: { Name: x.rt.ir.node }, ...extra };
}
