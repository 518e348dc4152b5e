import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ENV } from '../../runtime/contract/ir';
import { functionNodeOptions, type ResolvedBundling } from './bundling';
import { allowWorkflowItems, type WorkflowTableAccess } from './permissions';
import type { UnumWorkflowProps } from './props';

/**
 * Newest Node.js runtime in aws-cdk-lib's list that Lambda supports; Lambda
 * runs the node22-targeted bundle unchanged.
 */
const DEFAULT_RUNTIME = lambda.Runtime.NODEJS_24_X;

/** The runtime and architecture every function of the workflow runs on. */
export function functionPlatform(props: UnumWorkflowProps): { readonly runtime: lambda.Runtime; readonly architecture: lambda.Architecture } {
  return { runtime: props.runtime ?? DEFAULT_RUNTIME, architecture: props.architecture ?? lambda.Architecture.ARM_64 };
}

/** What every function of a workflow shares. */
export interface CommonFunctionOptions {
  readonly props: UnumWorkflowProps;
  readonly bundling: ResolvedBundling;
  readonly logGroup: logs.ILogGroup;
}

export interface FunctionOptions extends CommonFunctionOptions {
  readonly role: iam.Role;
  readonly functionName: string;
  readonly description: string;
  readonly code: lambda.Code;
  readonly memorySize: number;
  readonly timeoutSeconds: number;
  readonly environment: Record<string, string>;
  /** `recursiveLoop: Allow`: the function is on a cycle of invocations (lib/compiler/cycles.ts). */
  readonly loop: boolean;
  /** The workflow's table: its name is in every function's environment. */
  readonly table: dynamodb.ITable;
  /** What the function may call on which of its workflow's items (permissions.ts `WORKFLOW_TABLE_ACCESS`). @default - no table access */
  readonly tableAccess?: WorkflowTableAccess;
}

/**
 * One function of a workflow (a node's, the failure recorder, the
 * task-response and run-control functions): the settings all share (runtime, architecture,
 * JSON logs to the workflow's log group, source maps), and the grants all
 * share: writing its logs and, when it has `tableAccess`, those calls on the
 * workflow's items. Its other grants are its caller's.
 */
export function createWorkflowFunction(scope: Construct, id: string, options: FunctionOptions): lambda.Function {
  const { props, bundling } = options;
  const nodeOptions = functionNodeOptions(bundling);
  const fn = new lambda.Function(scope, id, {
    functionName: options.functionName,
    description: options.description,
    ...functionPlatform(props),
    handler: 'index.handler',
    code: options.code,
    memorySize: options.memorySize,
    timeout: Duration.seconds(options.timeoutSeconds),
    environment: {
      ...options.environment,
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      [ENV.table]: options.table.tableName,
    },
    role: options.role,
    logGroup: options.logGroup,
    loggingFormat: lambda.LoggingFormat.JSON,
    recursiveLoop: options.loop ? lambda.RecursiveLoop.ALLOW : undefined,
  });
  options.logGroup.grantWrite(options.role);
  if (options.tableAccess) allowWorkflowItems(options.role, options.table, options.tableAccess);
  return fn;
}
