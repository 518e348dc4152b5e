/** The run record `run#<workflow>#<workflowId>`: written once RUNNING by the entry, and given exactly one final status. */
import { appendTransition } from './history';
import { byteLength, ttlIn } from './payload';
import type { RunEnd } from './table';
import type { Committed, Exec } from './types';

const now = (): string => new Date().toISOString();
/** The run record (and a result it references) lives for the run retention. */
const runTtl = (x: Exec): number => ttlIn(x.rt.ir.settings.runRetentionSeconds);
const finish = (x: Exec, end: RunEnd, ttl: number): Promise<boolean> => x.rt.store.finishRun(x.run, end, now(), ttl);

export async function startRun(x: Exec): Promise<void> {
  await x.rt.store.startRun(x.run, now(), runTtl(x));
}

/** The run's result: inline while small (cheap status polls), else a reference kept alive as long as the record. */
export async function succeedRun(x: Exec, ck: Committed): Promise<void> {
  const ttl = runTtl(x);
  const inline = byteLength(ck.json) <= x.rt.ir.settings.inlineLimitBytes;
  if (!inline) await x.rt.store.extendTtl(ck.key, ttl);
  await finish(x, inline ? { status: 'SUCCEEDED', result: ck.json } : { status: 'SUCCEEDED', resultRef: ck.key }, ttl);
}

export async function failRun(x: Exec, error: string, cause: string): Promise<void> {
  x.metrics.failures = 1;
  await appendTransition(x, 'failed', { error: { error, cause } });
  await finish(x, { status: 'FAILED', error: { node: x.rt.ir.node, error, cause } }, runTtl(x));
}
