/** Sending an envelope to a node of this workflow: the one place a successor is invoked. */
import { sendAfterWait, type PendingWait } from './wait-handoff';
import { runtimeError } from '../contract/errors';
import { ENVELOPE_VERSION, type Envelope, type EnvelopeHeader } from '../contract/ir';
import type { Exec } from '../ports/execution';

/** Sends one envelope to `node` (async Invoke) of this node's deployment, with the run's lease; to a Wait's node, when the wait ends. */
export async function send(x: Exec, node: string, header: Omit<EnvelopeHeader, 'v' | 'workflow' | 'deployment' | 'workflowId' | 'node' | 'lease'>, wait?: PendingWait): Promise<void> {
  const functionName = x.rt.ir.functionNames[node];
  if (!functionName) throw runtimeError(`node ${x.rt.ir.node}: no function name for successor ${node}`);
  const event = (): Envelope => ({ unum: { v: ENVELOPE_VERSION, ...x.run, deployment: x.rt.ir.deployment, node, ...header, lease: x.lease } });
  if (wait) await sendAfterWait(x, wait, functionName, event);
  else await x.rt.invoker.invoke(functionName, event());
}
