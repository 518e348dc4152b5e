/** Sending an envelope to a node of this workflow: the one place a successor is invoked. */
import { runtimeError } from './errors';
import { ENVELOPE_VERSION, type EnvelopeHeader } from './ir';
import type { Exec } from './types';

/** Sends one envelope to `node` (async Invoke), with the run's lease. */
export async function send(x: Exec, node: string, header: Omit<EnvelopeHeader, 'v' | 'workflow' | 'workflowId' | 'node' | 'lease'>): Promise<void> {
  const functionName = x.rt.ir.functionNames[node];
  if (!functionName) throw runtimeError(`node ${x.rt.ir.node}: no function name for successor ${node}`);
  await x.rt.invoker.invoke(functionName, { unum: { v: ENVELOPE_VERSION, ...x.run, node, ...header, lease: x.lease } });
}
