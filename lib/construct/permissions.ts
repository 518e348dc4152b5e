import { createHash } from 'crypto';
import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
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
 * The IAM path of a workflow's per-deployment roles, `/unum/<hash of stack and
 * workflow>/`: the sweeper may delete roles under it, and only those.
 */
export function deploymentRolePath(stackName: string, workflow: string): string {
  return `/unum/${createHash('sha256').update(`${stackName}\0${workflow}`).digest('hex').slice(0, 16)}/`;
}

/**
 * An execution role with no managed policies: everything it may do is added
 * explicitly (logs of its own log group, its table, the functions it invokes).
 * A role of a deployment (`path`: the workflow's `deploymentRolePath`) is
 * retained when a later deployment replaces it: that deployment's versions
 * still run with it until the sweeper deletes them (`retainRole` once its
 * grants are added).
 */
export function createExecutionRole(scope: Construct, id: string, description: string, path?: string): iam.Role {
  return new iam.Role(scope, id, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description,
    ...(path === undefined ? {} : { path }),
  });
}

/**
 * Keeps a deployment's role and its inline policy when a later deployment
 * removes them from the template: the deployment's versions keep running
 * with them, until the sweeper deletes them with the deployment. Retained
 * even by a rollback of the operation that created them, as the versions
 * are (deployment-version.ts): a run started on the deployment before the
 * rollback keeps its permissions.
 */
export function retainRole(role: iam.Role): void {
  role.applyRemovalPolicy(RemovalPolicy.RETAIN);
  const policy = role.node.tryFindChild('DefaultPolicy');
  if (policy instanceof iam.Policy) policy.applyRemovalPolicy(RemovalPolicy.RETAIN);
}

/** Allow `lambda:InvokeFunction` on exactly these function ARNs (qualified with a deployment: nothing invokes `$LATEST`). */
export function allowInvoke(role: iam.IRole, functionArns: readonly string[]): void {
  if (functionArns.length === 0) return;
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['lambda:InvokeFunction'],
      resources: [...functionArns],
    }),
  );
}

/**
 * The DynamoDB calls each kind of function makes on the workflow table, and
 * nothing more (no Scan, Query, DeleteItem, BatchWriteItem, DescribeTable or
 * stream reads: the table has no stream, and the runtime never deletes, scans
 * or queries). Keep in step with the commands the runtime sends:
 * - node (runtime/entry/handler.ts, and runtime/callbacks/callback-handler.ts
 *   for callback Tasks): the store (runtime/aws/dynamodb-store.ts: GetItem,
 *   BatchGetItem, PutItem, UpdateItem), a callback Task's waiting record
 *   (runtime/callbacks/task-waits.ts: PutItem, GetItem, UpdateItem), and the
 *   effects' records and transaction marker (runtime/effects/records.ts,
 *   dynamodb.ts: GetItem, PutItem, UpdateItem; the TransactWriteItems marker is
 *   authorized as a PutItem);
 * - failure recorder (runtime/entry/failure-recorder.ts): its store calls
 *   read single items only (failState, finishRun, interruptRun, getResent,
 *   putParked, parkInRun, history), never a batch.
 * - sweeper (runtime/deployments/): its deployment records (GetItem, PutItem,
 *   UpdateItem) and the run records it reads to know whether a run of a
 *   deployment can still run or be redriven (BatchGetItem; it also Queries
 *   the runs index, sweeper.ts grants that).
 * The task-response function has no table access.
 */
export const WORKFLOW_TABLE_ACTIONS = {
  node: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  failureRecorder: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  sweeper: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
} as const;

/**
 * What a node's effects write in the tables it declares
 * (runtime/effects/dynamodb.ts): a TransactWriteItems is authorized item by
 * item (Put, Update, Delete, ConditionCheck), and updateItem is an UpdateItem.
 */
export const EFFECTS_TABLE_ACTIONS = ['dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'] as const;

/**
 * Allow `actions` on the items of `table` (its ARN only: no `<table>/index/*`,
 * which item calls never need), and, when the table is encrypted with a
 * customer-managed key, the KMS calls DynamoDB makes with it on the caller's
 * behalf for reads and writes (the ones aws-cdk-lib's grantReadWriteData gives).
 */
export function allowItems(role: iam.IRole, table: ITable, actions: readonly string[]): void {
  iam.Grant.addToPrincipal({ grantee: role, actions: [...actions], resourceArns: [table.tableArn] });
  table.encryptionKey?.grantEncryptDecrypt(role);
}
