/**
 * The workflow's `Custom::UnumDeployment`, run at every deploy: Create and
 * Update activate the deployment its properties describe (activation.ts:
 * aliases, their settings, the record, `live` last); Delete deletes the
 * workflow's retained functions and roles (workflow-deletion.ts), whatever
 * its physical id (a failed Create's rollback names another). Every request is answered: a Create or Update
 * that failed FAILED with its reason, a Delete always SUCCESS, naming what
 * it left, since a FAILED Delete blocks the stack's deletion.
 */
import { isObject } from '../contract/start-request';
import type { DeploymentResources } from '../ports/deployment-resources';
import { writeLogLine } from '../ports/log';
import { activateDeployment } from './activation';
import { type AnsweredRequest, answerCloudFormation } from './cfn-response';
import { deploymentOf, namedResourcesOf } from './properties';
import type { DeploymentRecords } from './records';
import { deleteWorkflow } from './workflow-deletion';

/** The resource type the construct declares. */
export const DEPLOYMENT_RESOURCE_TYPE = 'Custom::UnumDeployment';

export interface CustomResourceRequest extends AnsweredRequest {
  readonly RequestType: 'Create' | 'Update' | 'Delete';
  readonly ResourceType?: string;
  readonly PhysicalResourceId?: string;
  readonly ResourceProperties?: unknown;
}

export const isCustomResourceRequest = (event: unknown): event is CustomResourceRequest =>
  isObject(event) && typeof event.RequestType === 'string' && typeof event.ResponseURL === 'string';

/** The one physical id of a workflow's deployment resource: never replaced, so CloudFormation never deletes it during an update. */
export const physicalResourceId = (workflow: string): string => `${workflow}-deployments`;

/** What a request is handled with; each is called only when needed, and may throw (the answer says why). */
export interface CustomResourceDeps {
  readonly workflow: () => string;
  readonly records: () => DeploymentRecords;
  readonly resources: () => DeploymentResources;
  /** @default Date.now */
  readonly now?: () => number;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

type Status = { Status: 'SUCCESS' | 'FAILED'; Reason: string };

async function activated(request: CustomResourceRequest, deps: CustomResourceDeps, now: () => number): Promise<Status> {
  try {
    // Its name first: the answer to a sweeper deployed without its environment names the variable missing.
    deps.workflow();
    return { Status: 'SUCCESS', Reason: await activateDeployment(deps.records(), deps.resources(), deploymentOf(request.ResourceProperties), new Date(now()).toISOString()) };
  } catch (e) {
    return { Status: 'FAILED', Reason: message(e) };
  }
}

async function deleted(request: CustomResourceRequest, deps: CustomResourceDeps, now: () => number): Promise<Status> {
  try {
    return { Status: 'SUCCESS', Reason: await deleteWorkflow({ records: deps.records, resources: deps.resources(), named: namedResourcesOf(request.ResourceProperties), now }) };
  } catch (e) {
    return { Status: 'SUCCESS', Reason: `nothing deleted: ${message(e)}` };
  }
}

/** Handles `request` and answers it. */
export async function handleCustomResource(request: CustomResourceRequest, deps: CustomResourceDeps): Promise<void> {
  const now = deps.now ?? Date.now;
  const answer = request.RequestType === 'Delete' ? await deleted(request, deps, now) : await activated(request, deps, now);
  let name = '';
  try {
    name = deps.workflow();
  } catch {
    // The answer says why; the resource is then named by its logical id.
  }
  writeLogLine({ timestamp: new Date(now()).toISOString(), level: answer.Status === 'SUCCESS' ? 'INFO' : 'ERROR', message: 'unum deployment resource', workflow: name, requestType: request.RequestType, status: answer.Status, reason: answer.Reason });
  // A Delete answers with the id it names; another id would be a different resource to CloudFormation.
  const id = request.RequestType === 'Delete' && request.PhysicalResourceId !== undefined ? request.PhysicalResourceId : name ? physicalResourceId(name) : request.LogicalResourceId;
  await answerCloudFormation(request, { ...answer, PhysicalResourceId: id });
}
