/**
 * `DeploymentResources` on Lambda and IAM, default client configs
 * (AWS_ENDPOINT_URL_LAMBDA / _IAM work). The IAM client is loaded only when
 * a role is deleted: the Lambda runtime provides it, and the local engine
 * runs the deployments function's bundle at each deploy without it. Only
 * Lambda's standard commands and error names are used, which the local
 * engine emulates.
 */
import {
  CreateAliasCommand,
  DeleteAliasCommand,
  DeleteFunctionCommand,
  DeleteFunctionEventInvokeConfigCommand,
  GetAliasCommand,
  type GetAliasCommandOutput,
  LambdaClient,
  PutFunctionEventInvokeConfigCommand,
  UpdateAliasCommand,
} from '@aws-sdk/client-lambda';
import type * as Iam from '@aws-sdk/client-iam';
import type { AsyncInvokeSettings, DeploymentResources } from '../ports/deployment-resources';
import { sleep } from '../ports/pool';
import { loadModule } from './load-module';

/** What the adapter sends commands through (an SDK client, or a stub). */
export interface CommandSender {
  send(command: unknown): Promise<unknown>;
}

export interface AwsDeploymentResourcesOptions {
  readonly lambda?: CommandSender;
  /** The IAM client; default: a new `IAMClient` of the module `loadIam` loads. */
  readonly iam?: CommandSender;
  /** @default loads `@aws-sdk/client-iam` at run time */
  readonly loadIam?: () => Promise<typeof Iam>;
  /** Waits between attempts to create an alias. @default sleep */
  readonly pause?: (ms: number) => Promise<void>;
}

/** Attempts to create an alias that Lambda says conflicts yet GetAlias does not find (the function was being updated). */
const ALIAS_ATTEMPTS = 5;

/** Lambda's and IAM's "no such resource" errors, matched by name (more than one SDK copy may be loaded). */
const GONE = new Set(['ResourceNotFoundException', 'NoSuchEntityException', 'NoSuchEntity']);

const errorName = (e: unknown): string => (e as { name?: string }).name ?? '';

/** Runs `call`; false when what it acts on is already gone. */
async function unlessGone(call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (e) {
    if (GONE.has(errorName(e))) return false;
    throw e;
  }
}

export class AwsDeploymentResources implements DeploymentResources {
  private readonly lambda: CommandSender;
  private readonly loadIam: () => Promise<typeof Iam>;
  private readonly pause: (ms: number) => Promise<void>;
  private iam?: Promise<{ client: CommandSender; sdk: typeof Iam }>;

  constructor(private readonly options: AwsDeploymentResourcesOptions = {}) {
    this.lambda = options.lambda ?? new LambdaClient({});
    this.loadIam = options.loadIam ?? (() => loadModule<typeof Iam>('@aws-sdk/client-iam'));
    this.pause = options.pause ?? sleep;
  }

  async ensureAlias(functionName: string, alias: string, version: string): Promise<string | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.lambda.send(new CreateAliasCommand({ FunctionName: functionName, Name: alias, FunctionVersion: version }));
        return undefined;
      } catch (e) {
        // Lambda answers ResourceConflictException both to an alias that exists and to a function being updated.
        if (errorName(e) !== 'ResourceConflictException') throw e;
      }
      const existing = await this.getAlias(functionName, alias);
      if (existing !== undefined) {
        const previous = existing.FunctionVersion;
        if (previous === version) return undefined;
        await this.lambda.send(new UpdateAliasCommand({ FunctionName: functionName, Name: alias, FunctionVersion: version }));
        return previous;
      }
      if (attempt >= ALIAS_ATTEMPTS) throw new Error(`Lambda refused to create alias ${alias} of ${functionName} ${attempt} times (ResourceConflictException), yet has no such alias`);
      await this.pause(250 * 2 ** (attempt - 1));
    }
  }

  private async getAlias(functionName: string, alias: string): Promise<GetAliasCommandOutput | undefined> {
    try {
      return (await this.lambda.send(new GetAliasCommand({ FunctionName: functionName, Name: alias }))) as GetAliasCommandOutput;
    } catch (e) {
      if (GONE.has(errorName(e))) return undefined;
      throw e;
    }
  }

  async putEventInvokeConfig(functionName: string, qualifier: string, settings: AsyncInvokeSettings): Promise<void> {
    await this.lambda.send(new PutFunctionEventInvokeConfigCommand({
      FunctionName: functionName,
      Qualifier: qualifier,
      MaximumRetryAttempts: settings.maximumRetryAttempts,
      MaximumEventAgeInSeconds: settings.maximumEventAgeInSeconds,
      DestinationConfig: { OnFailure: { Destination: settings.onFailure } },
    }));
  }

  deleteEventInvokeConfig(functionName: string, qualifier: string): Promise<boolean> {
    return unlessGone(() => this.lambda.send(new DeleteFunctionEventInvokeConfigCommand({ FunctionName: functionName, Qualifier: qualifier })));
  }

  deleteAlias(functionName: string, alias: string): Promise<boolean> {
    return unlessGone(() => this.lambda.send(new DeleteAliasCommand({ FunctionName: functionName, Name: alias })));
  }

  deleteVersion(functionName: string, version: string): Promise<boolean> {
    return unlessGone(() => this.lambda.send(new DeleteFunctionCommand({ FunctionName: functionName, Qualifier: version })));
  }

  deleteFunction(functionName: string): Promise<boolean> {
    return unlessGone(() => this.lambda.send(new DeleteFunctionCommand({ FunctionName: functionName })));
  }

  async deleteRole(roleName: string): Promise<boolean> {
    const { client, sdk } = await this.iamClient();
    const listed = await unlessGone(async () => {
      for (const name of await pages(client, (Marker) => new sdk.ListRolePoliciesCommand({ RoleName: roleName, Marker }), (r: Iam.ListRolePoliciesCommandOutput) => r.PolicyNames ?? [])) {
        await unlessGone(() => client.send(new sdk.DeleteRolePolicyCommand({ RoleName: roleName, PolicyName: name })));
      }
      const attached = await pages(client, (Marker) => new sdk.ListAttachedRolePoliciesCommand({ RoleName: roleName, Marker }), (r: Iam.ListAttachedRolePoliciesCommandOutput) => r.AttachedPolicies ?? []);
      for (const { PolicyArn } of attached) {
        if (PolicyArn !== undefined) await unlessGone(() => client.send(new sdk.DetachRolePolicyCommand({ RoleName: roleName, PolicyArn })));
      }
    });
    return listed && unlessGone(() => client.send(new sdk.DeleteRoleCommand({ RoleName: roleName })));
  }

  private iamClient(): Promise<{ client: CommandSender; sdk: typeof Iam }> {
    this.iam ??= this.loadIam().then((sdk) => ({ sdk, client: this.options.iam ?? new sdk.IAMClient({}) }));
    return this.iam;
  }
}

/** Every element of a paginated IAM listing (`IsTruncated`, `Marker`). */
async function pages<R extends { IsTruncated?: boolean; Marker?: string }, T>(client: CommandSender, command: (marker: string | undefined) => unknown, elements: (response: R) => T[]): Promise<T[]> {
  const all: T[] = [];
  let marker: string | undefined;
  do {
    const response = (await client.send(command(marker))) as R;
    all.push(...elements(response));
    marker = response.IsTruncated ? response.Marker : undefined;
  } while (marker !== undefined);
  return all;
}
