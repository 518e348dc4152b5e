/**
 * One sweep of a workflow's deployments: each superseded one that nothing can
 * use any more (hold.ts) is marked, its resources deleted (removal.ts), and
 * recorded removed; one log line per deployment kept or removed. A
 * deployment whose removal began is finished without being judged again: a
 * sweep that crashed halfway goes on where it stopped.
 */
import type { DeploymentRecord } from '../contract/table';
import type { DeploymentResources } from '../ports/deployment-resources';
import { writeLogLine } from '../ports/log';
import { holdOf } from './hold';
import type { DeploymentRecords } from './records';
import { removeDeployment } from './removal';

export interface SweepDeps {
  readonly workflow: string;
  readonly records: DeploymentRecords;
  readonly resources: DeploymentResources;
  /** The deployment the sweeper itself was deployed with: never removed, whatever the records say. */
  readonly current?: string;
  /** @default Date.now */
  readonly now?: () => number;
}

/** What one sweep did with each superseded deployment it looked at. */
export interface SweepOutcome {
  readonly kept: readonly { readonly deployment: string; readonly reason: string }[];
  readonly removed: readonly string[];
}

const isSuperseded = (d: DeploymentRecord): d is DeploymentRecord & { supersededAt: string } => d.supersededAt !== undefined && d.removedAt === undefined;

/** Sweeps once; throws after trying every deployment when the removal of one failed (the next sweep retries it). */
export async function sweep(deps: SweepDeps): Promise<SweepOutcome> {
  const now = deps.now ?? Date.now;
  const all = await deps.records.list();
  const log = (fields: Record<string, unknown>) => writeLogLine({ timestamp: new Date(now()).toISOString(), level: 'INFO', workflow: deps.workflow, ...fields });
  const kept: { deployment: string; reason: string }[] = [];
  const removed = new Set(all.filter((d) => d.removedAt !== undefined).map((d) => d.deployment));
  const keep = (deployment: string, reason: string) => {
    kept.push({ deployment, reason });
    log({ message: 'unum deployment kept', deployment, reason });
  };
  // Without a current deployment on record, nothing says which functions are still in use.
  if (!all.some((d) => d.supersededAt === undefined)) {
    for (const d of all.filter(isSuperseded)) keep(d.deployment, 'no current deployment is recorded');
    return { kept, removed: [] };
  }
  const failures: string[] = [];
  const removedNow: string[] = [];
  for (const deployment of all.filter(isSuperseded)) {
    try {
      const hold = deployment.deployment === deps.current ? 'it is the deployment the sweeper runs with' : deployment.removingAt === undefined ? await holdOf(deps.records, deployment, now()) : undefined;
      if (hold !== undefined) {
        keep(deployment.deployment, hold);
        continue;
      }
      if (deployment.removingAt === undefined && !(await deps.records.markRemoving(deployment.deployment, new Date(now()).toISOString()))) {
        keep(deployment.deployment, 'it was activated again, or another sweep is removing it');
        continue;
      }
      const others = all.filter((d) => d.deployment !== deployment.deployment && !removed.has(d.deployment));
      const deleted = await removeDeployment(deps.resources, deployment, others);
      const at = now();
      await deps.records.markRemoved(deployment.deployment, new Date(at).toISOString(), Math.floor(at / 1000) + deployment.runRetentionSeconds);
      removed.add(deployment.deployment);
      removedNow.push(deployment.deployment);
      log({ message: 'unum deployment removed', deployment: deployment.deployment, supersededAt: deployment.supersededAt, ...deleted });
    } catch (e) {
      failures.push(`${deployment.deployment}: ${String(e)}`);
      log({ level: 'ERROR', message: 'unum deployment sweep failed', deployment: deployment.deployment, error: String(e) });
    }
  }
  if (failures.length > 0) throw new Error(`unum sweeper: ${failures.length} deployment(s) of ${deps.workflow} could not be swept: ${failures.join('; ')}`);
  return { kept, removed: removedNow };
}
