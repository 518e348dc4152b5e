import { ArnFormat, CustomResource, Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ENV } from '../../runtime/contract/ir';
import { MEMORY_MB, type AsyncSettings } from '../compiler/function-settings';
import { assetCode, assetFiles, bundleSweeper, unbundledCode } from './bundling';
import { allowRunsQuery, createExecutionRole, WORKFLOW_TABLE_ACCESS } from './permissions';
import { createWorkflowFunction, type CommonFunctionOptions } from './workflow-function';

/**
 * A function of the deployment, as the deployment's custom resource
 * activates it and the sweeper deletes it: its node (or part of the
 * workflow), its name, its version and role of this deployment, and the
 * async-invoke settings of its alias.
 */
export interface DeploymentMember {
  readonly node: string;
  readonly functionName: string;
  readonly version: lambda.IVersion;
  readonly role: iam.IRole;
  /** Absent for a function only ever invoked synchronously (the task-response and run-control functions). */
  readonly async?: { readonly settings: AsyncSettings; readonly failureDestinationArn: string };
}

export interface SweeperProps {
  readonly common: CommonFunctionOptions;
  readonly workflowName: string;
  readonly deployment: string;
  readonly functionName: string;
  readonly table: dynamodb.ITable;
  /** What every function name of the workflow starts with (function-names.ts `workflowFunctionPrefix`). */
  readonly functionNamePrefix: string;
  /** The path of the workflow's per-deployment roles (permissions.ts `deploymentRolePath`). */
  readonly rolePath: string;
  /** Every function of the deployment: the nodes, the failure recorder, the task-response and run-control functions. */
  readonly members: readonly DeploymentMember[];
  /** The entry node: its function's `live` alias moves to this deployment last. */
  readonly entryNode: string;
  /** Everything of the deployment the custom resource must wait for (its functions, versions, roles). */
  readonly dependencies: readonly Construct[];
  /** The deployment's EventBridge Scheduler role, when the workflow has Waits or callback Tasks. */
  readonly schedulerRole?: iam.IRole;
  /** Each node's successors: `redrive(runId, { deployment: 'latest' })` compares a run's graph with the latest's. */
  readonly graph: Readonly<Record<string, readonly string[]>>;
  /** The workflow's handoff bound and run retention, seconds: with the run records, how long a run of a superseded deployment can still run or be redriven. */
  readonly handoffSeconds: number;
  readonly runRetentionSeconds: number;
  /** Built from a bundle (false: a stack excluded from bundling). */
  readonly bundlingRequired: boolean;
  /** Bundling failures become the workflow's errors. */
  readonly guard: <T>(what: string, action: () => T) => T;
}

/** Sweeps once a day; a deploy sweeps too (the custom resource), so a day bounds how long a deployment outlives its last run. */
const SWEEP_INTERVAL = Duration.days(1);
/** Listing the runs of each retained deployment and deleting its resources, one API call at a time. */
const SWEEPER_TIMEOUT_SECONDS = 300;

/**
 * The workflow's caretaker of deployments (runtime/deployments/). At every
 * deployment a CloudFormation custom resource `Custom::UnumDeployment`, which
 * waits for every function, version and role of the deployment and lists
 * them in its properties, activates it: gives each version the alias named
 * by the deployment id (an alias CloudFormation would fail to create when a
 * revert deploys a retained deployment again), puts each alias' async-invoke
 * settings, records the deployment, and moves the entry's `live` alias last.
 * Once a day it deletes the versions, aliases, async configs, roles and
 * functions of superseded deployments no run can still use (run timeout,
 * retention, redrive window). Itself it is neither versioned nor pinned, and
 * not retained: it belongs to no deployment.
 *
 * Its role may delete only the workflow's functions (by name prefix: a node
 * a later deployment removed keeps its function until then) and roles under
 * the workflow's role path; its own role has no path, so it never deletes itself.
 */
export class DeploymentSweeper extends Construct {
  readonly function: lambda.Function;
  readonly deploymentRecord: CustomResource;

  constructor(scope: Construct, id: string, props: SweeperProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const role = createExecutionRole(this, 'Role', `unum workflow ${props.workflowName}: deletes deployments no run can use`);
    this.function = createWorkflowFunction(this, 'Function', {
      ...props.common,
      table: props.table,
      functionName: props.functionName,
      role,
      description: `unum workflow ${props.workflowName}: records deployments and deletes those no run can use any more`,
      code: props.bundlingRequired
        ? assetCode(assetFiles(props.guard('bundling the sweeper failed', () => bundleSweeper(props.common.bundling))))
        : unbundledCode({ sweeper: props.workflowName, bundling: props.common.bundling }),
      memorySize: MEMORY_MB.default,
      timeoutSeconds: SWEEPER_TIMEOUT_SECONDS,
      environment: { [ENV.workflow]: props.workflowName, [ENV.deployment]: props.deployment },
      loop: false,
      tableAccess: { ...WORKFLOW_TABLE_ACCESS.sweeper, workflow: props.workflowName },
    });
    allowRunsQuery(role, props.table, props.workflowName);

    const functions = stack.formatArn({ service: 'lambda', resource: 'function', resourceName: `${props.functionNamePrefix}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    // Keep in step with runtime/aws/deployment-resources.ts: a version is deleted by DeleteFunction with its qualifier.
    const lambdaActions = [
      'lambda:CreateAlias',
      'lambda:DeleteAlias',
      'lambda:DeleteFunction',
      'lambda:DeleteFunctionEventInvokeConfig',
      'lambda:GetAlias',
      'lambda:PutFunctionEventInvokeConfig',
      'lambda:UpdateAlias',
    ];
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: lambdaActions, resources: [functions] }));
    const roles = stack.formatArn({ service: 'iam', region: '', resource: 'role', resourceName: `${props.rolePath.slice(1)}*`, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
    const iamActions = ['iam:DeleteRole', 'iam:DeleteRolePolicy', 'iam:DetachRolePolicy', 'iam:ListAttachedRolePolicies', 'iam:ListRolePolicies'];
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: iamActions, resources: [roles] }));
    Validations.of(role).acknowledge(
      {
        id: `AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:lambda:<AWS::Region>:<AWS::AccountId>:function:${props.functionNamePrefix}*]`,
        reason:
          'The sweeper gives each deployment\'s versions their aliases and async configs, and deletes those of superseded deployments (qualifiers known only at run time) and the functions of nodes a later deployment removed (no longer in this template); the wildcard covers only this workflow\'s function names.',
      },
      {
        id: `AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:iam::<AWS::AccountId>:role${props.rolePath}*]`,
        reason:
          'The sweeper deletes the execution roles of superseded deployments, which are no longer in this template; the wildcard covers only the roles under this workflow\'s own IAM path, which the sweeper\'s own role is not under.',
      },
    );

    new events.Rule(this, 'Daily', {
      description: `unum workflow ${props.workflowName}: deletes deployments no run can use any more`,
      schedule: events.Schedule.rate(SWEEP_INTERVAL),
      targets: [new targets.LambdaFunction(this.function)],
    });
    this.deploymentRecord = new CustomResource(this, 'Deployment', {
      serviceToken: this.function.functionArn,
      resourceType: 'Custom::UnumDeployment',
      properties: {
        Deployment: props.deployment,
        Functions: props.members.map((m) => ({
          Node: m.node,
          FunctionName: m.functionName,
          Version: m.version.version,
          RoleName: m.role.roleName,
          ...(m.async
            ? { Async: { MaximumRetryAttempts: m.async.settings.retryAttempts, MaximumEventAgeInSeconds: m.async.settings.maxEventAgeSeconds, OnFailure: m.async.failureDestinationArn } }
            : {}),
        })),
        EntryNode: props.entryNode,
        ...(props.schedulerRole ? { SchedulerRoleName: props.schedulerRole.roleName } : {}),
        Graph: props.graph,
        HandoffSeconds: props.handoffSeconds,
        RunRetentionSeconds: props.runRetentionSeconds,
      },
    });
    this.deploymentRecord.node.addDependency(...props.dependencies);
  }
}
