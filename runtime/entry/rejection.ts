/**
 * A rejected event (runtime/entry/envelope.ts): no retry can change it, so the
 * handler returns normally, without a Lambda retry, after saying what was
 * wrong: an ERROR log line, the RejectedEvents metric and, when the event
 * names a run, that run's FAILED record.
 */
import type { UnumEventError } from '../contract/errors';
import type { NodeIR } from '../contract/ir';
import { emitMetrics, writeLogLine } from '../ports/log';
import { ttlIn } from '../records/payload';
import type { CheckpointStore } from '../ports/store';

/** What the handler returns for a rejected event (a synchronous caller sees it). */
export interface Rejection {
  readonly workflowId?: string;
  readonly rejected: { readonly error: string; readonly cause: string };
}

export async function rejectEvent(ir: NodeIR, store: () => CheckpointStore, e: UnumEventError): Promise<Rejection> {
  const { workflowId } = e;
  const error = { node: ir.node, error: e.error, cause: e.message };
  writeLogLine({ timestamp: new Date().toISOString(), level: 'ERROR', message: 'unum rejected event', workflow: ir.workflow, workflowId, ...error });
  emitMetrics(ir.workflow, ir.node, { rejectedEvents: 1 });
  if (workflowId !== undefined) {
    const run = { workflow: ir.workflow, workflowId };
    const at = new Date().toISOString();
    const ttl = ttlIn(ir.settings.runRetentionSeconds);
    // A start request may name any run id, even one in flight: it only creates a record where
    // none exists. An envelope comes from this workflow's own functions: its run cannot go on.
    if (ir.entry) await store().rejectRun(run, error, at, ttl);
    else await store().finishRun(run, { status: 'FAILED', error }, at, ttl);
  }
  return { ...(workflowId === undefined ? {} : { workflowId }), rejected: { error: error.error, cause: error.cause } };
}
