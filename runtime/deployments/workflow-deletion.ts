/**
 * The workflow deleted, at a Delete of its `Custom::UnumDeployment`: its
 * stack deleted or the workflow removed from it (CloudFormation deletes the
 * resource first, since it depends on everything), or a failed Create rolled
 * back. The construct retains every deployment's functions, versions and
 * roles, so that a later deployment never deletes what an older run uses;
 * nothing else deletes them, so they go here: every function the deployment
 * records and the resource's properties name (unqualified: its versions,
 * aliases and async-invoke settings with it), then every role they name.
 * The table's items stay: the table goes with the stack, or stays as the
 * user set it.
 *
 * A deletion that fails is logged and the rest goes on, and the answer is
 * SUCCESS naming what was left: a Delete answered FAILED blocks the stack's
 * deletion, and CloudFormation has no way to retry it usefully. A deployment
 * is recorded removed once all of its functions and roles are gone; one with
 * something left stays marked removing, for a sweeper of the workflow
 * deployed again to finish.
 */
import type { DeploymentRecord } from '../contract/table';
import type { DeploymentResources } from '../ports/deployment-resources';
import { writeLogLine } from '../ports/log';
import type { NamedResources } from './properties';
import type { DeploymentRecords } from './records';

export interface WorkflowDeletionDeps {
  /** May throw (no table configured): then only what `named` lists is deleted. */
  readonly records: () => DeploymentRecords;
  readonly resources: DeploymentResources;
  /** What the Delete's properties name (a failed Create's deployment may be on no record). */
  readonly named: NamedResources;
  readonly now: () => number;
}

const message = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

const functionsOf = (d: DeploymentRecord): string[] => [...d.functions, ...(d.replaced ?? [])].map((f) => f.functionName);
const rolesOf = (d: DeploymentRecord): string[] =>
  [...[...d.functions, ...(d.replaced ?? [])].map((f) => f.roleName), d.schedulerRoleName].filter((r): r is string => r !== undefined);

const counted = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** Deletes everything of the workflow; what was deleted and what was not, for the answer to CloudFormation. Never throws. */
export async function deleteWorkflow(deps: WorkflowDeletionDeps): Promise<string> {
  const at = (): string => new Date(deps.now()).toISOString();
  const notDone: string[] = [];
  /** What could not be deleted, as `function <name>` or `role <name>`. */
  const left = new Set<string>();
  const attempt = async <T>(doing: string, call: () => Promise<T>, resource?: string): Promise<T | undefined> => {
    try {
      return await call();
    } catch (e) {
      notDone.push(`${doing} (${message(e)})`);
      if (resource !== undefined) left.add(resource);
      writeLogLine({ timestamp: at(), level: 'ERROR', message: 'unum workflow deletion: a step failed, the others go on', step: doing, error: message(e) });
      return undefined;
    }
  };

  const read = await attempt("reading the deployment records, so only what the resource's properties name was deleted", async () => {
    const store = deps.records();
    return { store, notRemoved: (await store.list()).filter((d) => d.removedAt === undefined) };
  });
  const store = read?.store;
  const deployments = read?.notRemoved ?? [];
  // Marked first: the current one superseded, each removing, so that no activation takes one up while its functions go.
  const marked = new Set<string>();
  for (const d of deployments) {
    const ok = await attempt(`marking deployment ${d.deployment} removing`, async () => {
      await store?.supersede(d.deployment, at());
      await store?.markRemoving(d.deployment, at());
      return true;
    });
    if (ok) marked.add(d.deployment);
  }

  const { named, resources } = deps;
  let functions = 0;
  for (const name of new Set([...deployments.flatMap(functionsOf), ...named.functionNames])) {
    if (await attempt(`deleting function ${name}`, () => resources.deleteFunction(name), `function ${name}`)) functions++;
  }
  let roles = 0;
  for (const name of new Set([...deployments.flatMap(rolesOf), ...named.roleNames])) {
    if (await attempt(`deleting role ${name}`, () => resources.deleteRole(name), `role ${name}`)) roles++;
  }

  const removed: string[] = [];
  for (const d of deployments) {
    const gone = marked.has(d.deployment) && ![...functionsOf(d).map((f) => `function ${f}`), ...rolesOf(d).map((r) => `role ${r}`)].some((r) => left.has(r));
    const ttl = Math.floor(deps.now() / 1000) + d.runRetentionSeconds;
    if (gone && (await attempt(`marking deployment ${d.deployment} removed`, async () => (await store?.markRemoved(d.deployment, at(), ttl)) ?? false))) removed.push(d.deployment);
  }

  const deleted = `${counted(functions, 'function', 'functions')}, ${counted(roles, 'role', 'roles')}`;
  const recorded = removed.length === 0 ? '' : `; recorded ${removed.join(', ')} removed`;
  return `workflow deleted: ${deleted}${recorded}${notDone.length === 0 ? '' : `; not done: ${notDone.join('; ')}`}`;
}
