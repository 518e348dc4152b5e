import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/**
 * ARN of a function from its deterministic name. Built from the name, not
 * from a reference to the function, so two functions that invoke each other
 * (a loop) do not depend on each other in CloudFormation.
 */
export function functionArnFromName(scope: Construct, functionName: string): string {
  return Stack.of(scope).formatArn({
    service: 'lambda',
    resource: 'function',
    resourceName: functionName,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}

/**
 * An execution role with no managed policies: everything it may do is added
 * explicitly (logs of its own log group, its table, the functions it invokes).
 */
export function createExecutionRole(scope: Construct, id: string, description: string): iam.Role {
  return new iam.Role(scope, id, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description,
  });
}

/** Allow `lambda:InvokeFunction` on exactly these function ARNs (unqualified: the runtime invokes `$LATEST`). */
export function allowInvoke(role: iam.IRole, functionArns: readonly string[]): void {
  if (functionArns.length === 0) return;
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['lambda:InvokeFunction'],
      resources: [...functionArns],
    }),
  );
}
