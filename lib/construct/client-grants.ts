import * as iam from 'aws-cdk-lib/aws-iam';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { parkKey, runKey, TABLE } from '../../runtime/contract/table';

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
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
}

/** `dynamodb:LeadingKeys` condition of this workflow's run records (and, with `parked`, its parked invocations). */
function runRecords(workflow: string, parked = false): Record<string, Record<string, unknown>> {
  const anyRun = { workflow, workflowId: '*' };
  return { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [runKey(anyRun), ...(parked ? [parkKey(anyRun, '*')] : [])] } };
}

function invokeAll(grantee: iam.IGrantable, t: GrantTargets): iam.Grant {
  return iam.Grant.addToPrincipal({ grantee, actions: ['lambda:InvokeFunction'], resourceArns: Object.values(t.functions).map((fn) => fn.functionArn) });
}

/** The function itself, not `<arn>:*` as grantInvoke gives: clients invoke the unqualified function. */
export function grantInvokeOf(grantee: iam.IGrantable, fn: lambda.IFunction): iam.Grant {
  return iam.Grant.addToPrincipal({ grantee, actions: ['lambda:InvokeFunction'], resourceArns: [fn.functionArn] });
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
  const invoke = invokeAll(grantee, t);
  const key = t.table.encryptionKey?.grantEncryptDecrypt(grantee);
  return key ? records.combine(invoke).combine(key) : records.combine(invoke);
}
