/**
 * The sweeper's Lambda entry point (one function per workflow, not
 * versioned; lib/construct/bundling.ts bundles this file): CloudFormation's
 * `Custom::UnumDeployment` requests activate each deployment: its aliases,
 * their async-invoke settings, its record, the entry's `live` alias
 * (custom-resource.ts), or, at a Delete, delete the workflow's retained
 * resources (workflow-deletion.ts); a schedule sweeps the deployments no run
 * can use any more (sweep.ts). Environment: `ENV.table`, `ENV.workflow`,
 * `ENV.deployment` (the deployment it was deployed with).
 */
import { AwsDeploymentResources } from '../aws/deployment-resources';
import { ENV } from '../contract/ir';
import { isObject } from '../contract/start-request';
import type { DeploymentResources } from '../ports/deployment-resources';
import { writeLogLine } from '../ports/log';
import { handleCustomResource, isCustomResourceRequest } from './custom-resource';
import { DynamoDbDeploymentRecords } from './dynamodb-records';
import type { DeploymentRecords } from './records';
import { sweep } from './sweep';

/** What the sweeper works with; each is read from the environment when not given. */
export interface SweeperOptions {
  readonly workflow?: string;
  readonly records?: DeploymentRecords;
  readonly resources?: DeploymentResources;
  /** The deployment the sweeper was deployed with (never removed). */
  readonly current?: string;
  /** @default Date.now */
  readonly now?: () => number;
}

/** A sweep request: an EventBridge schedule's event, or `{ unumSweep: true }`. */
export const isSweepRequest = (event: unknown): boolean => isObject(event) && (event.source === 'aws.events' || event.unumSweep === true);

function environment(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`unum sweeper: environment variable ${name} is not set`);
  return value;
}

/** The sweeper's handler. The environment is read at the first event that needs it, so loading the module needs none. */
export function createSweeperHandler(options: SweeperOptions = {}): (event: unknown) => Promise<void> {
  const workflow = (): string => options.workflow ?? environment(ENV.workflow);
  let records = options.records;
  const recordsOf = (): DeploymentRecords => (records ??= new DynamoDbDeploymentRecords(environment(ENV.table), workflow()));
  let resources = options.resources;
  const resourcesOf = (): DeploymentResources => (resources ??= new AwsDeploymentResources());
  return async (event) => {
    if (isCustomResourceRequest(event)) return handleCustomResource(event, { workflow, records: recordsOf, resources: resourcesOf, now: options.now });
    if (isSweepRequest(event)) {
      await sweep({ workflow: workflow(), records: recordsOf(), resources: resourcesOf(), current: options.current ?? process.env[ENV.deployment], now: options.now });
      return;
    }
    writeLogLine({ level: 'WARN', message: 'unum sweeper: an event that is neither a CloudFormation request nor a sweep, ignored', keys: isObject(event) ? Object.keys(event).slice(0, 10) : typeof event });
  };
}

export const handler = createSweeperHandler();
