/**
 * The checker's invariant 8: a run never leaves the deployment it started on
 * (docs/architecture.md "Deployments"). Its record names the deployment the
 * entry's `live` alias named when the run was started, and every execution
 * of the run ran on that deployment's alias: a start event on `live` (the
 * emulator resolves a qualifier when it accepts an event, so its retries and
 * duplicates run the version `live` named then), everything else on the alias
 * named by the deployment id; never `$LATEST`, a bare version or another
 * deployment's alias.
 */
import { LIVE_ALIAS } from '../../runtime/contract/ir';
import type { TimelineEntry } from '../local/timeline';
import type { RunStatusWithResult } from '../runs/run-status';

/** What invariant 8 compares a run with. */
export interface Pinning {
  /** The entry function (unqualified): only its start events name `live`. */
  readonly entryFunction: string;
  /** The deployment `live` named when the run was started; undefined when not known (a run started elsewhere). */
  readonly startedOn?: string;
}

/** Invariant 8 over every execution of the run in the emulator's timeline (one that made no call too, such as a refusal). */
export function pinningViolations(record: RunStatusWithResult, executions: readonly TimelineEntry[], pinning: Pinning): string[] {
  const deployment = record.deployment;
  if (deployment === undefined) return record.status === 'NOT_FOUND' ? [] : ['invariant 8: the run record names no deployment'];
  const out: string[] = [];
  if (pinning.startedOn !== undefined && pinning.startedOn !== deployment) {
    out.push(`invariant 8: the run was started on ${pinning.startedOn} (what ${LIVE_ALIAS} named), its record says ${deployment}`);
  }
  for (const e of executions) {
    if (e.qualifier === deployment || (e.qualifier === LIVE_ALIAS && e.functionName === pinning.entryFunction)) continue;
    out.push(`invariant 8: ${e.functionName} ran ${e.identity} (attempt ${e.attempt}${e.duplicate ? ', duplicate' : ''}) on ${e.qualifier ?? '$LATEST'}, not on the run's deployment ${deployment}`);
  }
  return out;
}
