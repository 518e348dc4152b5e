import { type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { RunControlAction } from '../../runtime/contract/run-control';
import { RUN_ITEM_KINDS, runKey, runsIndexKeyPatterns, TABLE, workflowKeyPatterns } from '../../runtime/contract/table';
import { leadingKeys } from './permissions';

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
  /** The nodes' functions: a recovery invokes them on the deployment of the run. */
  readonly functions: Readonly<Record<string, lambda.IFunction>>;
  /** The run-control function: a stop or a redrive is an invoke of its alias of that action. */
  readonly runControl: lambda.IFunction;
}

/** `dynamodb:LeadingKeys` condition of this workflow's run records. */
function runRecords(workflow: string): Record<string, Record<string, unknown>> {
  return { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [runKey({ workflow, workflowId: '*' })] } };
}

/**
 * Why invoking any alias of the nodes' functions is safe for a recovery: a
 * node other than the entry refuses an envelope its workflow's functions did
 * not seal (docs/deploying-and-operating.md "Who can do what: the trust
 * model"), and no grant to a client reads the key they seal with.
 */
const RESEND_ONLY = 'a node refuses every envelope without the MAC of the workflow\'s functions, whose key no client grant reads: the grantee can re-send what a function sealed (a dead-lettered event), start runs at the entry, and answer a task token it holds, never make an envelope of its own';

/** Exactly this function ARN (`grantStart`: the entry's `live` alias). */
export function grantInvokeOf(grantee: iam.IGrantable, functionArn: string): iam.Grant {
  return iam.Grant.addToPrincipal({ grantee, actions: ['lambda:InvokeFunction'], resourceArns: [functionArn] });
}

/**
 * Any alias of these functions (`<arn>:*`), never the unqualified function
 * (`$LATEST`): whatever continues a run (a recovery, a task response, the
 * run-control function's redrive) invokes the alias of the run's own
 * deployment, which may be an older one.
 * `why`: what keeps that safe, for cdk-nag's acknowledgement.
 */
export function grantInvokeOfAliases(grantee: iam.IGrantable, functions: readonly lambda.IFunction[], why: string): iam.Grant {
  const principal = grantee.grantPrincipal;
  if (Construct.isConstruct(principal)) {
    Validations.of(principal).acknowledge(
      ...functions.map((fn) => ({
        id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${Stack.of(fn).resolve((fn.node.defaultChild as CfnResource).logicalId) as string}.Arn>:*]`,
        reason: `Any alias of ${fn.node.path}: each deployment of the workflow has its own alias, and a run continues on the alias of its own deployment, which may be an older one; the function itself ($LATEST) is not granted; ${why}.`,
      })),
    );
  }
  return iam.Grant.addToPrincipal({ grantee, actions: ['lambda:InvokeFunction'], resourceArns: functions.map((fn) => `${fn.functionArn}:*`) });
}

/**
 * One action of the run-control function (its alias of that name, exactly),
 * and reading the workflow's run records (what the action left): no write
 * of a run record of the grantee's choosing, which the function alone makes.
 */
function grantRunControl(grantee: iam.IGrantable, t: GrantTargets, action: RunControlAction): iam.Grant {
  const invoke = grantInvokeOf(grantee, `${t.runControl.functionArn}:${action}`);
  const records = iam.Grant.addToPrincipal({ grantee, actions: ['dynamodb:GetItem'], resourceArns: [t.table.tableArn], conditions: runRecords(t.workflowName) });
  const key = t.table.encryptionKey?.grantDecrypt(grantee);
  const grant = invoke.combine(records);
  return key ? grant.combine(key) : grant;
}

export function grantStop(grantee: iam.IGrantable, t: GrantTargets): iam.Grant {
  return grantRunControl(grantee, t, 'stop');
}

export function grantListRuns(grantee: iam.IGrantable, t: GrantTargets): iam.Grant {
  const query = iam.Grant.addToPrincipal({
    grantee,
    actions: ['dynamodb:Query'],
    resourceArns: [`${t.table.tableArn}/index/${TABLE.runsIndex.name}`],
    conditions: leadingKeys(runsIndexKeyPatterns(t.workflowName)),
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
  const letters = t.deadLetterQueue.grant(grantee, 'sqs:ReceiveMessage', 'sqs:DeleteMessage');
  // Whether a dead letter's run finished: its record, nothing else (never the envelope key).
  const records = iam.Grant.addToPrincipal({ grantee, actions: ['dynamodb:GetItem'], resourceArns: [t.table.tableArn], conditions: runRecords(t.workflowName) });
  const key = t.table.encryptionKey?.grantDecrypt(grantee);
  const grant = letters.combine(records).combine(grantInvokeOfAliases(grantee, Object.values(t.functions), RESEND_ONLY));
  return key ? grant.combine(key) : grant;
}

/**
 * Reading runs (`grantRead`): single and batch reads of this workflow's items
 * of every kind but its envelope key, and Query of the table and of its runs
 * index, each by a `dynamodb:LeadingKeys` condition; no Scan, which no such
 * condition can bound.
 */
export function grantRead(grantee: iam.IGrantable, t: GrantTargets): iam.Grant {
  const items = iam.Grant.addToPrincipal({
    grantee,
    actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
    resourceArns: [t.table.tableArn],
    conditions: leadingKeys(workflowKeyPatterns(t.workflowName, [...RUN_ITEM_KINDS, 'deployment'])),
  });
  const index = iam.Grant.addToPrincipal({
    grantee,
    actions: ['dynamodb:Query'],
    resourceArns: [`${t.table.tableArn}/index/${TABLE.runsIndex.name}`],
    conditions: leadingKeys(runsIndexKeyPatterns(t.workflowName)),
  });
  const key = t.table.encryptionKey?.grantDecrypt(grantee);
  return key ? items.combine(index).combine(key) : items.combine(index);
}

export function grantRedrive(grantee: iam.IGrantable, t: GrantTargets): iam.Grant {
  return grantRunControl(grantee, t, 'redrive');
}
