/**
 * A workflow's deployments as the sweeper records them (runtime/contract/table
 * deployments.ts; docs/architecture.md "Deployments"): the list item names
 * every recorded deployment, each record says when it was activated,
 * superseded and removed, its functions and its node graph. The current
 * deployment (the one the entry's `live` alias names) is the newest one not
 * superseded: a deploy records the new one before it supersedes the old.
 */
import { currentOf, decodeDeploymentList, decodeDeploymentRecord, type DeploymentRecord, deploymentKey, formatOf, newestFirst } from '../../runtime/contract/table';
import type { TableReader } from '../runs/table-reader';

/** One deployment of a workflow in a listing (`UnumClient.listDeployments`, `unum deployments`). */
export interface DeploymentSummary {
  /** The deployment id (`DEPLOYMENT_ID_PATTERN`), the name of its functions' aliases. */
  readonly deployment: string;
  /** ISO-8601 time CloudFormation activated it. */
  readonly activatedAt: string;
  /** ISO-8601 time a later deployment was activated; absent for the current one. */
  readonly supersededAt?: string;
  /** ISO-8601 time the sweeper began removing its versions, aliases and roles (no run of it could run or be redriven any more). */
  readonly removingAt?: string;
  /** ISO-8601 time the sweeper had removed them. */
  readonly removedAt?: string;
  /** New runs start on it: it is the current deployment, the entry's `live` alias. */
  readonly live: boolean;
  /** Functions whose version, alias and role it keeps deployed (0 once removed): what it costs in Lambda code storage. */
  readonly retainedFunctions: number;
}

/** A deployment record, and the table format it was written in: its runtime's, since the deployment's own sweeper records it. */
type RecordedDeployment = DeploymentRecord & { readonly format: number };

/** Every recorded deployment of `workflow`, newest first. */
export async function readDeployments(table: TableReader, workflow: string): Promise<RecordedDeployment[]> {
  const ids = decodeDeploymentList(await table.get(deploymentKey(workflow)));
  const items = await table.getMany(ids.map((id) => deploymentKey(workflow, id)));
  // An id whose record expired (removed, past the run retention) stays listed until the sweeper drops it.
  const records = ids.flatMap((id) => {
    const item = items.get(deploymentKey(workflow, id));
    return item ? [{ ...decodeDeploymentRecord(item), format: formatOf(item) }] : [];
  });
  return newestFirst(records);
}

/** The listing of `workflow`'s deployments, newest first. */
export async function listDeployments(table: TableReader, workflow: string): Promise<DeploymentSummary[]> {
  const records = await readDeployments(table, workflow);
  const current = currentOf(records);
  return records.map((r) => ({
    deployment: r.deployment,
    activatedAt: r.activatedAt,
    ...(r.supersededAt !== undefined ? { supersededAt: r.supersededAt } : {}),
    ...(r.removingAt !== undefined ? { removingAt: r.removingAt } : {}),
    ...(r.removedAt !== undefined ? { removedAt: r.removedAt } : {}),
    live: r === current,
    retainedFunctions: r.removedAt === undefined ? r.functions.length : 0,
  }));
}
