/**
 * The Lambda and IAM resources of a deployment the deployments function
 * (runtime/deployments) manages: at a deploy, the aliases and their
 * async-invoke settings (CloudFormation cannot: an alias named by a
 * deployment id may still exist, retained, when the same content is deployed
 * again); at a sweep or when the workflow is deleted, deleting an alias and
 * its settings, a version, a function, an execution role. Each call is
 * idempotent: a deletion of what is already gone answers `false`, so a
 * request that crashed halfway runs again safely.
 */

/** How Lambda handles the asynchronous invocations of one qualifier. */
export interface AsyncInvokeSettings {
  /** Retries after a failed attempt (Lambda accepts 0 to 2). */
  readonly maximumRetryAttempts: number;
  /** How long an event may wait to be run (Lambda accepts 60 to 21600). */
  readonly maximumEventAgeInSeconds: number;
  /** The ARN an event that exhausted its retries or its age is sent to. */
  readonly onFailure: string;
}

export interface DeploymentResources {
  /**
   * Makes alias `alias` of `functionName` name `version`, creating it or
   * moving it; the version it named before when it was moved, else undefined.
   */
  ensureAlias(functionName: string, alias: string, version: string): Promise<string | undefined>;
  /** Sets (replacing whatever was set) the async-invoke settings of `functionName:qualifier`. */
  putEventInvokeConfig(functionName: string, qualifier: string, settings: AsyncInvokeSettings): Promise<void>;
  /** Deletes the async-invoke settings (retries, event age, on-failure destination) of `functionName:qualifier`. */
  deleteEventInvokeConfig(functionName: string, qualifier: string): Promise<boolean>;
  deleteAlias(functionName: string, alias: string): Promise<boolean>;
  /** Deletes one published version of the function. */
  deleteVersion(functionName: string, version: string): Promise<boolean>;
  /** Deletes the function with all its versions and aliases. */
  deleteFunction(functionName: string): Promise<boolean>;
  /** Deletes the role after deleting its inline policies and detaching its managed ones. */
  deleteRole(roleName: string): Promise<boolean>;
}
