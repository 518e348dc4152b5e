/**
 * The deployment records `dep#<workflow>#<deployment>` and the workflow's list
 * of them `dep#<workflow>` (docs/architecture.md "Deployments"). The sweeper
 * (runtime/deployments) writes them: a deployment is recorded when
 * CloudFormation activates it, superseded when the next one is activated,
 * marked while its functions' versions, aliases and roles are deleted, and
 * removed after; when the workflow is deleted with its stack, every one not
 * yet removed goes through the same stages at once. Neither item expires while its deployment may be used: a
 * removed record expires after the run retention (until then `unum
 * deployments` shows it); the list has no TTL, and the sweeper drops the ids
 * whose records expired.
 */
import { ABSENT, FORMAT, type Item, N, PRESENT, type PutRequest, S, TABLE_FORMAT, type UpdateRequest, keyItem, num, put, readable, str, update } from './encoding';
import { deploymentKey } from './keys';

/** One function of a deployment: the version published for it and the execution role that version runs with. */
export interface DeploymentFunction {
  /** The node the function runs, or the name of a workflow function that is not a node (the failure recorder, the task-response function). */
  readonly node: string;
  readonly functionName: string;
  /** The Lambda version the deployment's alias names. */
  readonly version: string;
  /** The execution role of this deployment's version (absent: one the deployment does not own). */
  readonly roleName?: string;
}

/** A deployment as recorded: what it consists of and where it is in its life. */
export interface DeploymentRecord {
  /** The deployment id (`DEPLOYMENT_ID_PATTERN`). */
  readonly deployment: string;
  /** ISO-8601: when CloudFormation activated it (first recorded). */
  readonly activatedAt: string;
  /** ISO-8601: when a later deployment was activated, or the workflow deleted. Absent: the current deployment. */
  readonly supersededAt?: string;
  /** ISO-8601: when the sweeper began deleting its versions, aliases and roles. */
  readonly removingAt?: string;
  /** ISO-8601: when the sweeper had deleted them all. */
  readonly removedAt?: string;
  readonly functions: readonly DeploymentFunction[];
  /**
   * The versions (and their roles) the deployment's aliases named before an
   * activation moved them to `functions`' (the same content deployed again,
   * a revert, publishes new versions): no alias names them any more, and
   * they are deleted with the deployment. Absent: none.
   */
  readonly replaced?: readonly DeploymentFunction[];
  /** The role EventBridge Scheduler assumes for this deployment's schedules, if it has one of its own. */
  readonly schedulerRoleName?: string;
  /** The node graph: each node's successors (what `redrive` to the latest deployment compares). */
  readonly graph: Readonly<Record<string, readonly string[]>>;
  /** The workflow's handoff: how long after a deployment is superseded an event addressed to it may still be delivered. */
  readonly handoffSeconds: number;
  readonly runRetentionSeconds: number;
}

const SUPERSEDED_AT = 'supersededAt';
const REMOVING_AT = 'removingAt';
/** When a superseded deployment was last activated again (a rollback to it). */
const REACTIVATED_AT = 'reactivatedAt';
const REMOVED_AT = 'removedAt';
const FUNCTIONS = 'functions';
const REPLACED = 'replaced';
/** The list's attribute: a string set of deployment ids. */
const IDS = 'ids';

const optional = (name: string, value: string | undefined): Item => (value === undefined ? {} : { [name]: S(value) });

/**
 * Records `record` where the workflow has no record of that deployment, or
 * only one of its removal (the same deployment deployed again: its versions
 * and aliases were created anew).
 */
export function deploymentPut(workflow: string, record: DeploymentRecord): PutRequest {
  const item: Item = {
    ...keyItem(deploymentKey(workflow, record.deployment)),
    [FORMAT]: N(TABLE_FORMAT),
    deployment: S(record.deployment),
    activatedAt: S(record.activatedAt),
    [FUNCTIONS]: S(JSON.stringify(record.functions)),
    ...(record.replaced?.length ? { [REPLACED]: S(JSON.stringify(record.replaced)) } : {}),
    graph: S(JSON.stringify(record.graph)),
    handoffSeconds: N(record.handoffSeconds),
    runRetentionSeconds: N(record.runRetentionSeconds),
    ...optional('schedulerRoleName', record.schedulerRoleName),
  };
  return put(item, `${ABSENT} OR attribute_exists(${REMOVED_AT})`);
}

/**
 * A recorded deployment activated again (CloudFormation rolling an update
 * back to it, or its content deployed again): current, with the `functions`
 * its aliases now name and the `replaced` versions they named before, unless
 * the sweeper began removing it. Its `activatedAt` stays, so the runs it is
 * searched for include those of its first activation.
 */
export function deploymentReactivation(workflow: string, deployment: string, at: string, functions: readonly DeploymentFunction[], replaced: readonly DeploymentFunction[]): UpdateRequest {
  const request = update(
    deploymentKey(workflow, deployment),
    `SET ${REACTIVATED_AT} = :at, #fns = :f, #rep = :r REMOVE ${SUPERSEDED_AT}`,
    { ':at': S(at), ':f': S(JSON.stringify(functions)), ':r': S(JSON.stringify(replaced)) },
    `${PRESENT} AND attribute_not_exists(${REMOVING_AT})`,
  );
  // `functions` is a DynamoDB reserved word, so both lists are written through names.
  return { ...request, ExpressionAttributeNames: { ...request.ExpressionAttributeNames, '#fns': FUNCTIONS, '#rep': REPLACED } };
}

/** The deployment is no longer current (set once). */
export const deploymentSuperseded = (workflow: string, deployment: string, at: string): UpdateRequest =>
  update(deploymentKey(workflow, deployment), `SET ${SUPERSEDED_AT} = :at`, { ':at': S(at) }, `${PRESENT} AND attribute_not_exists(${SUPERSEDED_AT}) AND attribute_not_exists(${REMOVING_AT})`);

/** The sweeper begins removing the superseded deployment (set once: a sweep that crashed goes on with it). */
export const deploymentRemoving = (workflow: string, deployment: string, at: string): UpdateRequest =>
  update(deploymentKey(workflow, deployment), `SET ${REMOVING_AT} = :at`, { ':at': S(at) }, `attribute_exists(${SUPERSEDED_AT}) AND attribute_not_exists(${REMOVING_AT})`);

/** The deployment's resources are gone; its record expires at `ttl` (epoch seconds). */
export const deploymentRemoved = (workflow: string, deployment: string, at: string, ttl: number): UpdateRequest =>
  update(deploymentKey(workflow, deployment), `SET ${REMOVED_AT} = :at, #ttl = :ttl`, { ':at': S(at), ':ttl': N(ttl) }, `attribute_exists(${REMOVING_AT}) AND attribute_not_exists(${REMOVED_AT})`);

/** Adds `deployment` to the workflow's list of deployment records. */
export const deploymentListed = (workflow: string, deployment: string): UpdateRequest =>
  update(deploymentKey(workflow), `ADD ${IDS} :d`, { ':d': { SS: [deployment] } });

/** Drops `deployments` (whose records expired) from the workflow's list. */
export const deploymentsUnlisted = (workflow: string, deployments: readonly string[]): UpdateRequest =>
  update(deploymentKey(workflow), `DELETE ${IDS} :d`, { ':d': { SS: [...deployments] } });

/** The deployment ids the workflow's list `item` holds (none when it is absent). */
export const decodeDeploymentList = (item: Item | undefined): string[] => [...(item?.[IDS]?.SS ?? [])].sort();

/** A deployment record; throws on one of a newer format (`UnumFormatError`), or one that lacks what every record has. */
export function decodeDeploymentRecord(item: Item): DeploymentRecord {
  readable(item);
  const text = (name: string): string => {
    const value = str(item, name);
    if (value === undefined) throw new Error(`deployment record ${str(item, 'deployment') ?? '?'} has no ${name}`);
    return value;
  };
  const schedulerRoleName = str(item, 'schedulerRoleName');
  const replaced = JSON.parse(str(item, REPLACED) ?? '[]') as DeploymentFunction[];
  const stage = (name: string): Record<string, string> => {
    const at = str(item, name);
    return at === undefined ? {} : { [name]: at };
  };
  return {
    deployment: text('deployment'),
    activatedAt: text('activatedAt'),
    ...stage(SUPERSEDED_AT),
    ...stage(REMOVING_AT),
    ...stage(REMOVED_AT),
    functions: JSON.parse(text(FUNCTIONS)) as DeploymentFunction[],
    ...(replaced.length === 0 ? {} : { replaced }),
    ...(schedulerRoleName === undefined ? {} : { schedulerRoleName }),
    graph: JSON.parse(text('graph')) as Record<string, string[]>,
    handoffSeconds: num(item, 'handoffSeconds') ?? 0,
    runRetentionSeconds: num(item, 'runRetentionSeconds') ?? 0,
  };
}

/** The deployment records newest first: by activation time, then id. */
export const newestFirst = <T extends DeploymentRecord>(records: readonly T[]): T[] =>
  [...records].sort((a, b) => b.activatedAt.localeCompare(a.activatedAt) || b.deployment.localeCompare(a.deployment));

/** The current deployment among `records` (newest first): the newest that no later one superseded (a deploy records the new one before it supersedes the old). */
export const currentOf = <T extends DeploymentRecord>(records: readonly T[]): T | undefined =>
  records.find((r) => r.supersededAt === undefined && r.removedAt === undefined);
