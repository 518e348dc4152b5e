/** The run record `run#<workflowId>`: written once RUNNING by the entry, and given exactly one final status. */
import { logTransition } from './history';
import { byteLength, ttlIn } from './payload';
import type { Committed, Exec } from './types';

const now = (): string => new Date().toISOString();

export async function startRun(x: Exec): Promise<void> {
  await x.rt.store.startRun(x.inv.workflowId, now(), ttlIn(x.rt.ir.settings.runRetentionSeconds));
}

/** The run's result: inline while small (cheap status polls), else a reference kept alive as long as the record. */
export async function succeedRun(x: Exec, ck: Committed): Promise<void> {
  const { inlineLimitBytes, runRetentionSeconds } = x.rt.ir.settings;
  const ttl = ttlIn(runRetentionSeconds);
  const inline = byteLength(ck.json) <= inlineLimitBytes;
  if (!inline) await x.rt.store.extendTtl(ck.key, ttl);
  await x.rt.store.finishRun(x.inv.workflowId, inline ? { status: 'SUCCEEDED', result: ck.json } : { status: 'SUCCEEDED', resultRef: ck.key }, now(), ttl);
}

export async function failRun(x: Exec, error: string, cause: string): Promise<void> {
  x.metrics.failures = 1;
  await logTransition(x, 'failed', { error: { error, cause } });
  const outcome = { status: 'FAILED' as const, error: { node: x.rt.ir.node, error, cause } };
  await x.rt.store.finishRun(x.inv.workflowId, outcome, now(), ttlIn(x.rt.ir.settings.runRetentionSeconds));
}
