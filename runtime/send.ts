/** Sending an envelope to a node of this workflow: the one place a successor is invoked. */
import { sendAfterWait, type PendingWait } from './delay';
import { runtimeError } from './errors';
import { ENVELOPE_VERSION, type Envelope, type EnvelopeHeader } from './ir';
import type { Exec } from './types';

/** Sends one envelope to `node` (async Invoke), with the run's lease; to a Wait's node, when the wait ends. */
export async function send(x: Exec, node: string, header: Omit<EnvelopeHeader, 'v' | 'workflow' | 'workflowId' | 'node' | 'lease'>, wait?: PendingWait): Promise<void> {
  const functionName = x.rt.ir.functionNames[node];
  if (!functionName) throw runtimeError(`node ${x.rt.ir.node}: no function name for successor ${node}`);
  const event = (): Envelope => ({ unum: { v: ENVELOPE_VERSION, ...x.run, node, ...header, lease: x.lease } });
  if (wait) await sendAfterWait(x, wait, functionName, event);
  else await x.rt.invoker.invoke(functionName, event());
}
