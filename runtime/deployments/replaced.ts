/**
 * The versions (and their roles) a deployment's aliases no longer name: an
 * activation of content already deployed (a revert to a retained deployment)
 * publishes new versions and moves the aliases onto them. They are remembered
 * in the deployment's record so that its removal deletes them too rather
 * than leak them.
 */
import type { DeploymentFunction, DeploymentRecord } from '../contract/table';

const sameVersion = (a: DeploymentFunction, b: DeploymentFunction): boolean => a.functionName === b.functionName && a.version === b.version;

/**
 * What `functions` replace: the versions `previous` (its record, undefined
 * when none) remembered or listed, and those the aliases named before an
 * activation `moved` them (their roles unknown unless `previous` lists the
 * version), less the versions and roles `functions` name. Read from the
 * record as well as from the aliases, so a request retried after moving the
 * aliases still finds what they named before.
 */
export function replacedBy(previous: DeploymentRecord | undefined, functions: readonly DeploymentFunction[], moved: readonly DeploymentFunction[]): DeploymentFunction[] {
  const roles = new Set(functions.map((f) => f.roleName));
  const replaced: DeploymentFunction[] = [];
  for (const f of [...(previous?.replaced ?? []), ...(previous?.functions ?? []), ...moved]) {
    if (functions.some((n) => sameVersion(n, f)) || replaced.some((r) => sameVersion(r, f))) continue;
    const { roleName: _role, ...version } = f;
    replaced.push(f.roleName === undefined || roles.has(f.roleName) ? version : f);
  }
  return replaced;
}
