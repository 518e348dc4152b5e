import { RemovalPolicy } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';

/**
 * Publishes `fn`'s version of this deployment (`currentVersion`, whose
 * logical id changes with the function's code and configuration, its role
 * included). The deployment's custom resource gives it the alias named by the
 * deployment id (runtime/deployments/activation.ts). Both stay when a later
 * deployment leaves them out of the template (a removed node's function
 * too): runs of this deployment keep running on them until the sweeper
 * deletes them.
 *
 * The version is retained even when the operation that created it rolls
 * back: by then the deployment's alias may name it (Lambda refuses to delete
 * a version an alias names, which would fail the rollback), and runs started
 * on it keep it. The function is `RetainExceptOnCreate`: a first deploy that
 * fails deletes it (else the next one would find its name taken), and
 * deleting the stack leaves it to the deployment resource's Delete, which
 * removes every function and role its records name
 * (runtime/deployments/workflow-deletion.ts).
 */
export function publishVersion(fn: lambda.Function): lambda.Version {
  fn.applyRemovalPolicy(RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
  const version = fn.currentVersion;
  version.applyRemovalPolicy(RemovalPolicy.RETAIN);
  return version;
}
