/**
 * Deleting a superseded deployment's resources: per function its alias (and
 * the async-invoke settings on it), its version and the versions the alias
 * named before a revert moved it (replaced.ts), the function itself when no
 * other deployment still lists it (its node was removed since), and the
 * deployment's roles, those of replaced versions too. What another
 * deployment not yet removed still lists (the same version, the same role)
 * stays. The entry's `live` alias is never touched: it names the current
 * deployment; nor are the run-control function's `stop` and `redrive`
 * aliases (activation.ts), but with the function itself, when no other
 * deployment lists it (after a rollback to a deployment from before it):
 * first, since Lambda refuses to delete a version an alias names. Every
 * deletion is idempotent.
 */
import { RUN_CONTROL_ACTIONS, RUN_CONTROL_NAME } from '../contract/run-control';
import type { DeploymentFunction, DeploymentRecord } from '../contract/table';
import type { DeploymentResources } from '../ports/deployment-resources';

/** What a removal deleted (resources already gone are not counted). */
export interface Removed {
  readonly aliases: number;
  readonly versions: number;
  readonly functions: string[];
  readonly roles: string[];
}

const rolesOf = (d: DeploymentRecord): string[] =>
  [...d.functions.map((f) => f.roleName), d.schedulerRoleName].filter((r): r is string => r !== undefined);

/** The deployment's versions, those its aliases name first, then those they named before. */
const versionsOf = (d: DeploymentRecord): DeploymentFunction[] => [...d.functions, ...(d.replaced ?? [])];

/** Deletes `deployment`'s resources; `others` are the workflow's deployments not removed (the current one among them). */
export async function removeDeployment(resources: DeploymentResources, deployment: DeploymentRecord, others: readonly DeploymentRecord[]): Promise<Removed> {
  const listed = others.flatMap((o) => o.functions);
  let aliases = 0;
  let versions = 0;
  const functions: string[] = [];
  const all = versionsOf(deployment);
  for (const functionName of new Set(all.map((f) => f.functionName))) {
    await resources.deleteEventInvokeConfig(functionName, deployment.deployment);
    if (await resources.deleteAlias(functionName, deployment.deployment)) aliases++;
    const elsewhere = listed.filter((o) => o.functionName === functionName);
    const runControl = all.some((f) => f.functionName === functionName && f.node === RUN_CONTROL_NAME);
    if (runControl && elsewhere.length === 0) {
      for (const action of RUN_CONTROL_ACTIONS) if (await resources.deleteAlias(functionName, action)) aliases++;
    }
    for (const version of new Set(all.filter((f) => f.functionName === functionName).map((f) => f.version))) {
      if (!elsewhere.some((o) => o.version === version) && (await resources.deleteVersion(functionName, version))) versions++;
    }
    if (elsewhere.length === 0 && (await resources.deleteFunction(functionName))) functions.push(functionName);
  }
  const kept = new Set(others.flatMap(rolesOf));
  const roles: string[] = [];
  const replacedRoles = (deployment.replaced ?? []).map((f) => f.roleName).filter((r): r is string => r !== undefined);
  for (const role of new Set([...rolesOf(deployment), ...replacedRoles])) {
    if (!kept.has(role) && (await resources.deleteRole(role))) roles.push(role);
  }
  return { aliases, versions, functions, roles };
}
