/**
 * The part of Lambda's API beside Invoke that a workflow's deployment
 * function calls at each deploy and sweep (runtime/aws/deployment-resources.ts):
 * CreateAlias, GetAlias, UpdateAlias, DeleteAlias,
 * PutFunctionEventInvokeConfig, DeleteFunctionEventInvokeConfig and
 * DeleteFunction (a version, or all of it), at their REST paths, answered from
 * and applied to the engine's deployed functions, with Lambda's error names.
 */
import { LOCAL_ACCOUNT } from '../assembly';
import { DEFAULT_ASYNC, failureDestination, functionArn, parseFunctionRef } from './assembly';
import { LambdaApiError, type DeployedFunctions } from './deployed-functions';
import { requestObject } from './request-body';

export interface ManagementReply {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const ALIASES = /^\/2015-03-31\/functions\/([^/]+)\/aliases$/;
const ALIAS = /^\/2015-03-31\/functions\/([^/]+)\/aliases\/([^/]+)$/;
const EVENT_INVOKE_CONFIG = /^\/2019-09-25\/functions\/([^/]+)\/event-invoke-config$/;
const FUNCTION = /^\/2015-03-31\/functions\/([^/]+)$/;

/** The call's answer, or undefined when it is none of these operations. */
export function handleManagement(deployed: DeployedFunctions, method: string, pathname: string, query: URLSearchParams, body: string): ManagementReply | undefined {
  const operation = route(deployed, method, pathname, query, body);
  if (operation === undefined) return undefined;
  try {
    return operation();
  } catch (err) {
    if (!(err instanceof LambdaApiError)) throw err;
    return json(err.statusCode, { Type: 'User', Message: err.message, message: err.message }, { 'x-amzn-ErrorType': err.code });
  }
}

function route(deployed: DeployedFunctions, method: string, pathname: string, query: URLSearchParams, body: string): (() => ManagementReply) | undefined {
  const name = (encoded: string): string => parseFunctionRef(decodeURIComponent(encoded)).name;
  const aliases = ALIASES.exec(pathname);
  if (aliases && method === 'POST') {
    return () => {
      const request = requestObject(body);
      const fn = name(aliases[1] as string);
      deployed.setAlias(fn, String(request.Name), String(request.FunctionVersion), true);
      return json(201, aliasConfiguration(fn, String(request.Name), String(request.FunctionVersion)));
    };
  }
  const alias = ALIAS.exec(pathname);
  if (alias) {
    const [fn, aliasName] = [name(alias[1] as string), decodeURIComponent(alias[2] as string)];
    if (method === 'GET') return () => json(200, aliasConfiguration(fn, aliasName, deployed.alias(fn, aliasName)));
    if (method === 'PUT') {
      return () => {
        const version = String(requestObject(body).FunctionVersion);
        deployed.setAlias(fn, aliasName, version, false);
        return json(200, aliasConfiguration(fn, aliasName, version));
      };
    }
    if (method === 'DELETE') return () => { deployed.deleteAlias(fn, aliasName); return json(204, undefined); };
  }
  const config = EVENT_INVOKE_CONFIG.exec(pathname);
  if (config && (method === 'PUT' || method === 'DELETE')) {
    const ref = parseFunctionRef(decodeURIComponent(config[1] as string));
    const qualifier = query.get('Qualifier') ?? ref.qualifier;
    if (method === 'DELETE') return () => { deployed.deleteAsyncConfig(ref.name, qualifier); return json(204, undefined); };
    return () => {
      const request = requestObject(body);
      const destination = (request.DestinationConfig as { OnFailure?: { Destination?: unknown } } | undefined)?.OnFailure?.Destination;
      const onFailure = failureDestination(typeof destination === 'string' ? destination : undefined);
      deployed.putAsyncConfig(ref.name, qualifier, {
        retryAttempts: typeof request.MaximumRetryAttempts === 'number' ? request.MaximumRetryAttempts : DEFAULT_ASYNC.retryAttempts,
        maxEventAgeSeconds: typeof request.MaximumEventAgeInSeconds === 'number' ? request.MaximumEventAgeInSeconds : DEFAULT_ASYNC.maxEventAgeSeconds,
        ...(onFailure ? { onFailure } : {}),
      });
      return json(200, { ...request, FunctionArn: `${functionArn(ref.name)}${qualifier ? `:${qualifier}` : ''}`, LastModified: Date.now() / 1000 });
    };
  }
  const fn = FUNCTION.exec(pathname);
  if (fn && method === 'DELETE') {
    const ref = parseFunctionRef(decodeURIComponent(fn[1] as string));
    return () => { deployed.deleteFunction(ref.name, query.get('Qualifier') ?? ref.qualifier); return json(204, undefined); };
  }
  return undefined;
}

const aliasConfiguration = (functionName: string, alias: string, version: string): Record<string, unknown> => ({
  AliasArn: `${functionArn(functionName)}:${alias}`,
  Name: alias,
  FunctionVersion: version,
  Description: '',
  RevisionId: `${LOCAL_ACCOUNT}-${alias}-${version}`,
});

function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): ManagementReply {
  return body === undefined
    ? { statusCode, headers, body: '' }
    : { statusCode, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
