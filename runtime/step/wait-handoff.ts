/**
 * The hand-off to a Wait (docs/architecture.md "Waits"): the node before it
 * has committed, and instead of invoking the Wait's node it creates a
 * one-time schedule that invokes it at the due time. The schedule is named
 * after the invocation it delivers, so a duplicate or retry of this node
 * creates nothing new; a due time already past (a late duplicate) invokes at once,
 * as does a Wait that a redriven state's failed attempt waited out (runtime/step/redrive-reuse.ts).
 */
import { runtimeError } from '../contract/errors';
import { foldedStateContext } from '../language/context';
import type { Envelope, WaitSpec } from '../contract/ir';
import { leaseThroughWait } from '../records/retention';
import { invocationName } from '../contract/naming';
import { waitedInFailedAttempt } from './redrive-reuse';
import type { Committed, Exec } from '../ports/execution';
import { waitDue } from '../states/wait-time';

/** A successor that is a Wait (its spec), or one due at a time decided already (a callback Task's retry); and the committed value that reaches it. */
export type PendingWait = ({ readonly spec: WaitSpec } | { readonly at: number }) & { readonly ck: Committed };

/** Delivers `event()` to `functionName` when the wait ends; `event` is built after the lease is extended, so it carries it. */
export async function sendAfterWait(x: Exec, wait: PendingWait, functionName: string, event: () => Envelope): Promise<void> {
  const now = Date.now();
  const due = 'at' in wait ? wait.at : await waitDue(x.rt.ir.node, wait.spec, wait.ck.value, now, foldedStateContext(x, wait.spec.state));
  const { node, iteration, fanOut } = event().unum;
  if (due <= now || ('spec' in wait && (await waitedInFailedAttempt(x, node, iteration, fanOut)))) {
    await x.rt.invoker.invoke(functionName, event());
    return;
  }
  const scheduler = x.rt.scheduler;
  if (!scheduler) throw runtimeError(`node ${x.rt.ir.node}: ${'at' in wait ? 'a delayed retry' : `Wait ${wait.spec.state}`} needs a scheduler, and this runtime has none`);
  await leaseThroughWait(x, Math.ceil(due / 1000));
  // The Wait's node may read this checkpoint by reference: it must outlast the wait too.
  if ((wait.ck.ttl ?? 0) < x.lease) await x.rt.store.extendTtl(wait.ck.key, x.lease);
  await scheduler.schedule({
    name: invocationName(x.run, node, iteration, fanOut),
    functionName,
    event: event(),
    at: due,
    maxDeliverySeconds: x.rt.ir.settings.handoffSeconds,
  });
}
