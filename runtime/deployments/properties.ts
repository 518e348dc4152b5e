/**
 * What a `Custom::UnumDeployment` Create or Update asks for, read from the
 * resource's properties (lib/construct/sweeper.ts declares them), and what
 * a Delete's properties name of the workflow. CloudFormation passes every
 * scalar property as a string, so numbers are read from either.
 */
import { DEPLOYMENT_ID_PATTERN, LIVE_ALIAS } from '../contract/ir';
import { isObject } from '../contract/start-request';
import type { DeploymentFunction, DeploymentRecord } from '../contract/table';
import type { AsyncInvokeSettings } from '../ports/deployment-resources';

/** A function of the deployment: its version, the role that version runs with, and the async-invoke settings of its alias. */
export interface RequestedFunction extends DeploymentFunction {
  /** Absent for a function only ever invoked synchronously (the task-response and run-control functions): its alias gets no async-invoke settings. */
  readonly async?: AsyncInvokeSettings;
}

/** The deployment to activate: what its record holds, with each function's async-invoke settings and the entry. */
export interface DeploymentRequest extends Omit<DeploymentRecord, 'activatedAt' | 'supersededAt' | 'removingAt' | 'removedAt' | 'functions' | 'replaced'> {
  readonly functions: readonly RequestedFunction[];
  /** The entry node's function: its `live` alias is where clients start runs, asynchronously. */
  readonly entry: RequestedFunction & { readonly async: AsyncInvokeSettings };
}

const text = (value: unknown, what: string): string => {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  throw new Error(`${what} must be a non-empty string, got ${JSON.stringify(value)}`);
};

const whole = (value: unknown, what: string, unit: string): number => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new Error(`${what} must be a whole number${unit}, got ${JSON.stringify(value)}`);
  return n;
};

function asyncOf(value: unknown, what: string): AsyncInvokeSettings {
  if (!isObject(value)) throw new Error(`${what} must be an object of async-invoke settings`);
  return {
    maximumRetryAttempts: whole(value.MaximumRetryAttempts, `${what}.MaximumRetryAttempts`, ''),
    maximumEventAgeInSeconds: whole(value.MaximumEventAgeInSeconds, `${what}.MaximumEventAgeInSeconds`, ' of seconds'),
    onFailure: text(value.OnFailure, `${what}.OnFailure`),
  };
}

function functionOf(value: unknown, i: number): RequestedFunction {
  const what = `Functions[${i}]`;
  if (!isObject(value)) throw new Error(`${what} must be an object`);
  return {
    node: text(value.Node, `${what}.Node`),
    functionName: text(value.FunctionName, `${what}.FunctionName`),
    version: text(value.Version, `${what}.Version`),
    ...(value.RoleName === undefined ? {} : { roleName: text(value.RoleName, `${what}.RoleName`) }),
    ...(value.Async === undefined ? {} : { async: asyncOf(value.Async, `${what}.Async`) }),
  };
}

/** The deployment the resource's `properties` describe; throws naming the first property that is not as declared. */
export function deploymentOf(properties: unknown): DeploymentRequest {
  if (!isObject(properties)) throw new Error('the resource has no properties');
  const deployment = text(properties.Deployment, 'Deployment');
  if (!DEPLOYMENT_ID_PATTERN.test(deployment)) throw new Error(`Deployment must match ${DEPLOYMENT_ID_PATTERN}, got '${deployment}'`);
  if (!Array.isArray(properties.Functions)) throw new Error('Functions must be a list');
  const functions = properties.Functions.map(functionOf);
  const entryNode = text(properties.EntryNode, 'EntryNode');
  const entries = functions.filter((f) => f.node === entryNode);
  if (entries.length !== 1) throw new Error(`EntryNode '${entryNode}' must be the Node of exactly one of Functions, found ${entries.length}`);
  const [entry] = entries;
  const { async } = entry;
  if (async === undefined) throw new Error(`Functions[${functions.indexOf(entry)}] (the entry node ${entryNode}) must have Async settings: clients start runs by invoking its ${LIVE_ALIAS} alias asynchronously`);
  const graph = isObject(properties.Graph) ? properties.Graph : undefined;
  if (graph === undefined) throw new Error('Graph must be an object of successor lists');
  const successors = Object.fromEntries(Object.entries(graph).map(([node, next]) => {
    if (!Array.isArray(next)) throw new Error(`Graph.${node} must be a list of nodes`);
    return [node, next.map((n, i) => text(n, `Graph.${node}[${i}]`))];
  }));
  return {
    deployment,
    functions,
    entry: { ...entry, async },
    ...(properties.SchedulerRoleName === undefined ? {} : { schedulerRoleName: text(properties.SchedulerRoleName, 'SchedulerRoleName') }),
    graph: successors,
    handoffSeconds: whole(properties.HandoffSeconds, 'HandoffSeconds', ' of seconds'),
    runRetentionSeconds: whole(properties.RunRetentionSeconds, 'RunRetentionSeconds', ' of seconds'),
  };
}

/** What the deployment's record holds of `request` (the async-invoke settings live on the aliases). */
export function recordOf(request: DeploymentRequest): Omit<DeploymentRecord, 'activatedAt' | 'replaced'> {
  const { functions, entry: _entry, ...rest } = request;
  return { ...rest, functions: functions.map(({ async: _async, ...f }) => f) };
}

/** What a Delete's properties name of the workflow: read leniently, since a Delete is answered SUCCESS whatever they hold. */
export interface NamedResources {
  readonly functionNames: readonly string[];
  readonly roleNames: readonly string[];
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The functions and roles `properties` name; whatever is not as declared is left out. */
export function namedResourcesOf(properties: unknown): NamedResources {
  if (!isObject(properties)) return { functionNames: [], roleNames: [] };
  const functions = (Array.isArray(properties.Functions) ? properties.Functions : []).filter(isObject);
  const { SchedulerRoleName } = properties;
  return {
    functionNames: functions.map((f) => f.FunctionName).filter(nonEmpty),
    roleNames: [...functions.map((f) => f.RoleName), SchedulerRoleName].filter(nonEmpty),
  };
}
