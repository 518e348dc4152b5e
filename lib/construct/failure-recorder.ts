import { Stack } from 'aws-cdk-lib';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ENV, type NodeIR } from '../../runtime/contract/ir';
import { MAX_EVENT_AGE_SECONDS, MEMORY_MB, RETRY_ATTEMPTS, TIMEOUT_SECONDS } from '../compiler/function-settings';
import { assetCode, assetFiles, bundleFailureRecorder, unbundledCode, type Bundle } from './bundling';
import type { DeploymentFunction } from './deployment-id';
import { publishVersion } from './deployment-version';
import { forwardFailures } from './event-invoke';
import { allowInvoke, createExecutionRole, functionArnFromName, retainRole, WORKFLOW_TABLE_ACCESS } from './permissions';
import { recorderSpec } from './recorder-spec';
import { createWorkflowFunction } from './workflow-function';
import type { DeploymentPart, WorkflowPartContext } from './workflow-part';

/** Stands for the failure recorder in its function name; a node of the same name is reported as a collision. */
export const FAILURE_RECORDER_NAME = 'unum-failure';

/** The failure recorder before its resources exist. */
export interface RecorderPlan {
  readonly bundle?: Bundle;
  readonly environment: Record<string, string>;
  readonly identity: DeploymentFunction;
}

/** The failure recorder before any resource exists: bundled (unless the stack is excluded from bundling), and what it contributes to the deployment id. */
export function planFailureRecorder(context: WorkflowPartContext): RecorderPlan {
  const { common } = context;
  const bundle = Stack.of(context.workflow).bundlingRequired ? context.guard('bundling the failure recorder failed', () => bundleFailureRecorder(common.bundling)) : undefined;
  const environment = { [ENV.workflow]: context.workflowName, [ENV.entryNode]: context.compiled.entry, ...recorderSettings(context.compiled.nodes[context.compiled.entry].ir) };
  const forward = common.props.onFailure;
  const forwardTo = forward === undefined ? undefined : 'queueUrl' in forward ? forward.queueUrl : forward.topicArn;
  const settings = { memorySize: MEMORY_MB.default, timeoutSeconds: TIMEOUT_SECONDS.default, environment, forwardTo };
  return { bundle, environment, identity: context.identity(FAILURE_RECORDER_NAME, recorderSpec(context.compiled.nodes, context.names), bundle, settings) };
}

/**
 * The failure recorder of the deployment: the nodes' on-failure destination,
 * whose own failures go to the dead-letter queue (its alias' async settings
 * allow the most retries and the longest event age Lambda does).
 * @param rolePath the workflow's role path (permissions.ts `deploymentRolePath`).
 */
export function createFailureRecorder(context: WorkflowPartContext, plan: RecorderPlan, deployment: string, rolePath: string, deadLetterQueue: sqs.IQueue): DeploymentPart {
  const { common, workflowName } = context;
  const scope = new Construct(context.workflow, 'FailureRecorder');
  const role = createExecutionRole(scope, `Role${deployment}`, `unum workflow ${workflowName}, failure recorder, deployment ${deployment}`, rolePath);
  const spec = recorderSpec(context.compiled.nodes, context.names, deployment);
  // A failure inside a Parallel/Map with rules fails that state: the recorder invokes the state's join.
  allowInvoke(role, Object.values(spec.functionNames).map((name) => functionArnFromName(scope, name)));
  const functionName = context.names.get(FAILURE_RECORDER_NAME) as string;
  const fn = createWorkflowFunction(scope, 'Function', {
    ...common,
    table: context.table,
    role,
    functionName,
    description: `unum workflow ${workflowName}: marks runs FAILED when an invocation exhausts its retries`,
    code: plan.bundle === undefined ? unbundledCode({ failureRecorder: workflowName, spec, bundling: common.bundling }) : assetCode(assetFiles(plan.bundle, undefined, spec)),
    memorySize: MEMORY_MB.default,
    timeoutSeconds: TIMEOUT_SECONDS.default,
    environment: { ...plan.environment, [ENV.deployment]: deployment },
    loop: false,
    tableAccess: { ...WORKFLOW_TABLE_ACCESS.failureRecorder, workflow: workflowName },
  });
  if (common.props.onFailure) forwardFailures(common.props.onFailure, fn);
  // Lambda checks that the role may send to the destination when the config is created. SendMessage
  // is all a destination needs; the queue's SQS-managed encryption needs no KMS permission.
  deadLetterQueue.grant(role, 'sqs:SendMessage');
  retainRole(role);
  const async = { settings: { retryAttempts: RETRY_ATTEMPTS.max, maxEventAgeSeconds: MAX_EVENT_AGE_SECONDS.max }, failureDestinationArn: deadLetterQueue.queueArn };
  return { scope, fn, member: { node: FAILURE_RECORDER_NAME, functionName, version: publishVersion(fn), role, async } };
}

/** The recorder has no IR: it gets the run retention (the TTL of what it writes) and whether to append history. */
function recorderSettings(entry: NodeIR): Record<string, string> {
  const { settings } = entry;
  return { [ENV.runRetention]: String(settings.runRetentionSeconds), ...(settings.history ? { [ENV.history]: 'true' } : {}) };
}
