import { type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { deploymentKey, parkKey, runKey, TABLE } from '../../runtime/contract/table';

/**
 * What the grants to clients of a workflow (start, stop, list, recover,
 * redrive) are made of. The grants live here, the `UnumWorkflow` methods
 * that document them delegate to these functions.
 */
export interface GrantTargets {
  readonly workflowName: string;
  readonly table: dynamodb.ITable;
  /** `table` without its indexes (see workflow-table.ts `tableItems`). */
  readonly items: dynamodb.ITable;
  readonly deadLetterQueue: sqs.IQueue;
  /** The nodes' functions: a redrive or a recovery invokes them on the deployment of the run. */
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
}

/** `dynamodb:LeadingKeys` condition of this workflow's run records (and, with `parked`, its parked invocations). */
function runRecords(workflow: string, parked = false): Record<string, Record<string, unknown>> {
  const anyRun = { workflow, workflowId: '*' };
  return { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [runKey(anyRun), ...(parked ? [parkKey(anyRun, '*')] : [])] } };
}

function invokeAll(grantee: iam.IGrantable, t: GrantTargets): iam.Grant {
  return grantInvokeOfAliases(grantee, Object.values(t.functions));
}

/** Exactly this function ARN (`grantStart`: the entry's `live` alias). */
export function grantInvokeOf(grantee: iam.IGrantable, functionArn: string): iam.Grant {
  return iam.Grant.addToPrincipal({ grantee, actions: ['lambda:InvokeFunction'], resourceArns: [functionArn] });
}

/**
 * Any alias of these functions (`<arn>:*`), never the unqualified function
 * (`$LATEST`): a client continuing a run (redrive, recover, a task response)
 * invokes the alias of the run's own deployment, which may be an older one.
 */
export function grantInvokeOfAliases(grantee: iam.IGrantable, functions: readonly lambda.IFunction[]): iam.Grant {
  const principal = grantee.grantPrincipal;
  if (Construct.isConstruct(principal)) {
    Validations.of(principal).acknowledge(
      ...functions.map((fn) => ({
        id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${Stack.of(fn).resolve((fn.node.defaultChild as CfnResource).logicalId) as string}.Arn>:*]`,
        reason: `Any alias of ${fn.node.path}: each deployment of the workflow has its own alias, and a run continues on the alias of its own deployment, which may be an older one; the function itself ($LATEST) is not granted.`,
      })),
    );
  }
  return iam.Grant.addToPrincipal({ grantee, actions: ['lambda:InvokeFunction'], resourceArns: functions.map((fn) => `${fn.functionArn}:*`) });
}

export function grantStop(grantee: iam.IGrantable, t: GrantTargets): iam.Grant {
  const records = iam.Grant.addToPrincipal({
    grantee,
    actions: ['dynamodb:UpdateItem', 'dynamodb:GetItem'],
    resourceArns: [t.table.tableArn],
    conditions: runRecords(t.workflowName),
  });
  const key = t.table.encryptionKey?.grantEncryptDecrypt(grantee);
  return key ? records.combine(key) : records;
}

export function grantListRuns(grantee: iam.IGrantable, t: GrantTargets): iam.Grant {
  const query = iam.Grant.addToPrincipal({
    grantee,
    actions: ['dynamodb:Query'],
    resourceArns: [`${t.table.tableArn}/index/${TABLE.runsIndex.name}`],
  });
  const records = iam.Grant.addToPrincipal({
    grantee,
    actions: ['dynamodb:BatchGetItem'],
    resourceArns: [t.table.tableArn],
    conditions: runRecords(t.workflowName),
  });
  const key = t.table.encryptionKey?.grantDecrypt(grantee);
  return key ? query.combine(records).combine(key) : query.combine(records);
}

export function grantRecover(grantee: iam.IGrantable, t: GrantTargets): iam.Grant {
  return t.deadLetterQueue
    .grant(grantee, 'sqs:ReceiveMessage', 'sqs:DeleteMessage')
    .combine(t.items.grant(grantee, 'dynamodb:GetItem'))
    .combine(invokeAll(grantee, t));
}

export function grantRedrive(grantee: iam.IGrantable, t: GrantTargets): iam.Grant {
  const records = iam.Grant.addToPrincipal({
    grantee,
    actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchGetItem'],
    resourceArns: [t.table.tableArn],
    conditions: runRecords(t.workflowName, true),
  });
  // `deployment: 'latest'` compares the run's deployment with the newest: it reads their records, nothing else of them.
  const deployments = iam.Grant.addToPrincipal({
    grantee,
    actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'],
    resourceArns: [t.table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [deploymentKey(t.workflowName), deploymentKey(t.workflowName, '*')] } },
  });
  const invoke = invokeAll(grantee, t);
  const key = t.table.encryptionKey?.grantEncryptDecrypt(grantee);
  const grant = records.combine(deployments).combine(invoke);
  return key ? grant.combine(key) : grant;
}
