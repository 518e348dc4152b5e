/** The run record `run#<workflow>#<workflowId>`: written once RUNNING by the entry, and given exactly one final status. */
import { stateOf } from './context';
import { appendTransition } from './history';
import { byteLength, ttlIn } from './payload';
import type { RunEnd } from './table';
import type { Committed, Exec } from './types';

const now = (): string => new Date().toISOString();
/** The run record (and a result it references) lives for the run retention, and no less than the run's lease (it outlives the run's items). */
const runTtl = (x: Exec): number => Math.max(ttlIn(x.rt.ir.settings.runRetentionSeconds), x.lease);
const finish = (x: Exec, end: RunEnd, ttl: number): Promise<boolean> => x.rt.store.finishRun(x.run, end, now(), ttl);

/**
 * Writes the RUNNING record. False when the run exists and began over a
 * checkpoint retention ago: Lambda redelivers or retries the run's own start
 * within a handoff, so this is another start of a run whose entry checkpoint
 * may have expired, and it must not run the workflow again.
 */
export async function startRun(x: Exec): Promise<boolean> {
  const r = await x.rt.store.startRun(x.run, now(), runTtl(x));
  if (r.created) return true;
  const started = Date.parse(r.startedAt ?? '');
  return started >= Date.now() - x.rt.ir.settings.checkpointTtlSeconds * 1000;
}

/** The run's result: inline while small (cheap status polls), else a reference kept alive as long as the record. */
export async function succeedRun(x: Exec, ck: Committed): Promise<void> {
  const ttl = runTtl(x);
  const inline = byteLength(ck.json) <= x.rt.ir.settings.inlineLimitBytes;
  if (!inline) await x.rt.store.extendTtl(ck.key, ttl);
  await finish(x, inline ? { status: 'SUCCEEDED', result: ck.json } : { status: 'SUCCEEDED', resultRef: ck.key }, ttl);
}

/** Ends the run FAILED at `state` (a Fail or Choice state; by default the one the node runs). */
export async function failRun(x: Exec, error: string, cause: string, state = stateOf(x)): Promise<void> {
  x.metrics.failures = 1;
  await appendTransition(x, 'failed', { error: { state, error, cause } });
  await finish(x, { status: 'FAILED', error: { node: x.rt.ir.node, state, error, cause } }, runTtl(x));
}
