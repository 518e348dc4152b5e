/**
 * A deployment activated (CloudFormation created or updated the workflow's
 * `Custom::UnumDeployment`): recorded, with the versions its aliases named
 * before (replaced.ts), and every other current deployment superseded.
 * Idempotent: CloudFormation may send the same request again. A rollback to
 * a superseded deployment, or its content deployed again, makes it current
 * again.
 */
import type { DeploymentFunction, DeploymentRecord } from '../contract/table';
import type { DeploymentRecords } from './records';
import { replacedBy } from './replaced';

/** Why `record`, which the sweeper is removing, cannot be activated. */
export const removingError = (record: DeploymentRecord): Error =>
  new Error(`deployment ${record.deployment} was superseded at ${record.supersededAt} and the sweeper is removing its versions and aliases: deploy a change, or deploy again after the next sweep`);

const same = (a: readonly DeploymentFunction[], b: readonly DeploymentFunction[]): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Records `deployment` as the current one at `at` (ISO-8601), its aliases
 * having been `moved` from the versions listed; what was done, for the answer
 * to CloudFormation. Throws when it cannot be current.
 */
export async function recordDeployment(records: DeploymentRecords, deployment: Omit<DeploymentRecord, 'activatedAt' | 'replaced'>, at: string, moved: readonly DeploymentFunction[] = []): Promise<string> {
  const id = deployment.deployment;
  const fresh = replacedBy(undefined, deployment.functions, moved);
  const existing = await records.put({ ...deployment, activatedAt: at, ...(fresh.length === 0 ? {} : { replaced: fresh }) });
  if (existing?.removingAt !== undefined) throw removingError(existing);
  let changed = false;
  if (existing !== undefined) {
    const replaced = replacedBy(existing, deployment.functions, moved);
    changed = !same(existing.functions, deployment.functions) || !same(existing.replaced ?? [], replaced);
    if ((changed || existing.supersededAt !== undefined) && !(await records.reactivate(id, at, deployment.functions, replaced))) throw removingError(existing);
  }
  const superseded: string[] = [];
  for (const other of await records.list()) {
    if (other.deployment === id || other.supersededAt !== undefined || other.removedAt !== undefined) continue;
    if (await records.supersede(other.deployment, at)) superseded.push(other.deployment);
  }
  const what = existing === undefined ? 'recorded' : existing.supersededAt !== undefined ? 'activated again' : changed ? 'recorded with new versions' : 'already current';
  return `deployment ${id} ${what}${superseded.length > 0 ? `; superseded ${superseded.join(', ')}` : ''}`;
}
