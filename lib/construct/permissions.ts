import { createHash } from 'crypto';
import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { type ItemKind, RUN_ITEM_KINDS, runsIndexKeyPatterns, TABLE, workflowKeyPatterns } from '../../runtime/contract/table';

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
 * or queries), and the kinds of its workflow's items it makes them on. Keep in
 * step with the commands the runtime sends:
 * - node (runtime/entry/handler.ts, and runtime/callbacks/callback-handler.ts
 *   for callback Tasks): the store (runtime/aws/dynamodb-store.ts: GetItem,
 *   BatchGetItem, PutItem, UpdateItem), a callback Task's waiting record
 *   (runtime/callbacks/task-waits.ts: PutItem, GetItem, UpdateItem), and the
 *   effects' records and transaction marker (runtime/effects/records.ts,
 *   dynamodb.ts: GetItem, PutItem, UpdateItem; the TransactWriteItems marker is
 *   authorized as a PutItem), on the items of its workflow's runs;
 * - failure recorder (runtime/entry/failure-recorder.ts): its store calls
 *   read single items only (failState, finishRun, interruptRun, getResent,
 *   putParked, parkInRun, history), never a batch, on the same items.
 * - sweeper (runtime/deployments/): its deployment records (GetItem, PutItem,
 *   UpdateItem), and the run records and parked invocations it reads to know
 *   whether a run of a deployment can still run or be redriven (BatchGetItem;
 *   it also Queries the runs index: `allowRunsQuery`).
 * - run-control function (runtime/control/): the run records and parked
 *   invocations a stop or a redrive reads and conditionally updates
 *   (GetItem, BatchGetItem, UpdateItem), and the deployment records a
 *   redrive to the latest deployment compares (GetItem, BatchGetItem).
 * Each of them but the run-control function also reads the workflow's
 * envelope key (its item, `envkey#`), which the sweeper's deployment resource
 * creates: no grant to a client names that kind, and the run-control function
 * re-sends parked events as they were sealed. The task-response function has
 * no table access.
 */
export const WORKFLOW_TABLE_ACCESS = {
  node: { actions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], items: [...RUN_ITEM_KINDS, 'envelopeKey'] },
  failureRecorder: { actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], items: [...RUN_ITEM_KINDS, 'envelopeKey'] },
  sweeper: { actions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], items: ['deployment', 'run', 'park', 'envelopeKey'] },
  runControl: { actions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'], items: ['run', 'park'] },
  runControlDeployments: { actions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem'], items: ['deployment'] },
} as const satisfies Record<string, TableAccess>;

/** Calls on the workflow table, and the kinds of the workflow's items they may name. */
export interface TableAccess {
  readonly actions: readonly string[];
  readonly items: readonly ItemKind[];
}

/** What one function of `workflow` may call on its table (`WORKFLOW_TABLE_ACCESS`). */
export interface WorkflowTableAccess extends TableAccess {
  readonly workflow: string;
}

/** The IAM condition limiting a DynamoDB call to the keys `patterns` match (every key of a batch). */
export const leadingKeys = (patterns: readonly string[]): Record<string, Record<string, string[]>> => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...patterns] },
});

/**
 * Allow `access.actions` on `access.workflow`'s items of `access.items` in
 * `table`: a `dynamodb:LeadingKeys` condition keeps workflows sharing the
 * table apart by IAM, not only by their keys.
 */
export const allowWorkflowItems = (role: iam.IRole, table: ITable, access: WorkflowTableAccess): void =>
  allowItems(role, table, access.actions, leadingKeys(workflowKeyPatterns(access.workflow, access.items)));

/** Allow a Query of `workflow`'s runs on the runs index: its partition, no other workflow's. */
export function allowRunsQuery(role: iam.IRole, table: ITable, workflow: string): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['dynamodb:Query'],
      resources: [`${table.tableArn}/index/${TABLE.runsIndex.name}`],
      conditions: leadingKeys(runsIndexKeyPatterns(workflow)),
    }),
  );
}

/**
 * What a node's effects write in the tables it declares
 * (runtime/effects/dynamodb.ts): a TransactWriteItems is authorized item by
 * item (Put, Update, Delete, ConditionCheck), and updateItem is an UpdateItem.
 */
export const EFFECTS_TABLE_ACTIONS = ['dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'] as const;

/**
 * Allow `actions` on the items of `table` (its ARN only: no `<table>/index/*`,
 * which item calls never need), under `conditions` if any, and, when the
 * table is encrypted with a customer-managed key, the KMS calls DynamoDB
 * makes with it on the caller's behalf for reads and writes (the ones
 * aws-cdk-lib's grantReadWriteData gives).
 */
export function allowItems(role: iam.IRole, table: ITable, actions: readonly string[], conditions?: Record<string, Record<string, unknown>>): void {
  iam.Grant.addToPrincipal({ grantee: role, actions: [...actions], resourceArns: [table.tableArn], ...(conditions === undefined ? {} : { conditions }) });
  table.encryptionKey?.grantEncryptDecrypt(role);
}
