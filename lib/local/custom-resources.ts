/**
 * CloudFormation's side of the app's `Custom::UnumDeployment` resources on
 * the local engine: at each deploy, a resource that is new gets a `Create`
 * request and one whose properties changed an `Update` (with its old
 * properties), sent to its `ServiceToken` function as CloudFormation sends
 * them; the function answers by a PUT to the request's `ResponseURL`, which
 * the engine's endpoint serves (`CustomResourceResponses`). A resource whose
 * properties did not change gets no request, as in CloudFormation. An answer
 * `FAILED` (or none) fails the deploy with its reason.
 */
import { randomUUID } from 'crypto';
import { isDeepStrictEqual } from 'util';
import type { Json } from '../../runtime/contract/ir';
import { LOCAL_ACCOUNT } from '../assembly';
import { qualifiedRef, type LocalCustomResource } from './assembly';
import type { InvokeRequest, InvokeResponse } from './emulator';
import { UnumLocalError } from './errors';

const RESPONSE_PATH = /^\/cloudformation-responses\/([^/]+)$/;

/** What a custom resource answered to its ResponseURL. */
interface CustomResourceResponse {
  readonly Status?: string;
  readonly Reason?: string;
  readonly PhysicalResourceId?: string;
}

/** The answers custom resource functions PUT to their ResponseURL, by request. */
export class CustomResourceResponses {
  private readonly received = new Map<string, string>();

  /** Whether a request is a PUT to a ResponseURL. */
  static handles(method: string, pathname: string): boolean {
    return method === 'PUT' && RESPONSE_PATH.test(pathname);
  }

  /** The ResponseURL of a request, at the engine's endpoint. */
  static url(endpoint: string, requestId: string): string {
    return `${endpoint}/cloudformation-responses/${requestId}`;
  }

  /** Records an answer (S3 answers a presigned PUT with an empty 200). */
  receive(pathname: string, body: string): { statusCode: number; headers: Record<string, string>; body: string } {
    this.received.set(decodeURIComponent(RESPONSE_PATH.exec(pathname)?.[1] ?? ''), body);
    return { statusCode: 200, headers: {}, body: '' };
  }

  /** The answer to a request, once (undefined: none came). */
  take(requestId: string): string | undefined {
    const body = this.received.get(requestId);
    this.received.delete(requestId);
    return body;
  }
}

/** The resource with the version numbers the engine published where its properties name a function's version. */
export function withPublishedVersions(resource: LocalCustomResource, versionOf: (functionName: string) => string | undefined): LocalCustomResource {
  const properties = structuredClone(resource.properties) as Record<string, Json>;
  for (const { path, functionName } of resource.versions) {
    const version = versionOf(functionName);
    if (version === undefined) continue;
    let parent = properties as Json;
    for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[step] as Json;
    (parent as Record<string | number, Json>)[path[path.length - 1] as string | number] = version;
  }
  return { ...resource, properties };
}

/** A custom resource as the last deploy left it. */
export interface CustomResourceState {
  readonly properties: Readonly<Record<string, Json>>;
  readonly physicalResourceId: string;
}

export interface CustomResourceContext {
  /** The engine's endpoint, which serves the ResponseURLs. */
  readonly endpoint: string;
  readonly responses: CustomResourceResponses;
  /** Invokes a function (the emulator's Invoke). */
  readonly invoke: (req: InvokeRequest) => Promise<InvokeResponse>;
}

/**
 * Sends the resource its `Create` (no `previous`) or `Update` request, synchronously,
 * and returns its new state; undefined when its properties did not change (no request).
 * Throws with the resource's reason when it answers FAILED, or does not answer.
 */
export async function deployCustomResource(resource: LocalCustomResource, previous: CustomResourceState | undefined, context: CustomResourceContext): Promise<CustomResourceState | undefined> {
  if (previous && isDeepStrictEqual(previous.properties, resource.properties)) return undefined;
  const requestId = randomUUID();
  const request = {
    RequestType: previous ? 'Update' : 'Create',
    ServiceToken: resource.properties.ServiceToken,
    ResponseURL: CustomResourceResponses.url(context.endpoint, requestId),
    StackId: `arn:aws:cloudformation:us-east-1:${LOCAL_ACCOUNT}:stack/${resource.stack}/local`,
    RequestId: requestId,
    LogicalResourceId: resource.logicalId,
    ResourceType: resource.type,
    ResourceProperties: resource.properties,
    ...(previous ? { PhysicalResourceId: previous.physicalResourceId, OldResourceProperties: previous.properties } : {}),
  };
  const { functionName, qualifier } = resource.serviceToken;
  const where = `custom resource ${resource.stack}/${resource.logicalId} (${resource.type}, function ${qualifiedRef(functionName, qualifier)})`;
  const reply = await context.invoke({ functionRef: qualifiedRef(functionName, qualifier), invocationType: 'RequestResponse', payload: JSON.stringify(request) });
  const answer = context.responses.take(requestId);
  if (answer === undefined) {
    const error = reply.statusCode !== 200 || reply.headers['X-Amz-Function-Error'] ? `: ${reply.body}` : '';
    throw new UnumLocalError(`${where} sent no response to its ResponseURL${error}`);
  }
  let response: CustomResourceResponse;
  try {
    response = JSON.parse(answer) as CustomResourceResponse;
  } catch {
    throw new UnumLocalError(`${where} answered with no JSON: ${answer.slice(0, 200)}`);
  }
  if (response.Status !== 'SUCCESS') throw new UnumLocalError(`${where} failed: ${response.Reason ?? `status ${String(response.Status)}`}`);
  return { properties: resource.properties, physicalResourceId: response.PhysicalResourceId ?? previous?.physicalResourceId ?? requestId };
}
