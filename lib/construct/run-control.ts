import { Stack } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ENV } from '../../runtime/contract/ir';
import { RUN_CONTROL_ACTIONS, RUN_CONTROL_NAME } from '../../runtime/contract/run-control';
import { MEMORY_MB } from '../compiler/function-settings';
import { assetCode, assetFiles, bundleRunControl, unbundledCode, type Bundle } from './bundling';
import { grantInvokeOfAliases } from './client-grants';
import type { DeploymentFunction } from './deployment-id';
import { publishVersion } from './deployment-version';
import { allowWorkflowItems, createExecutionRole, retainRole, WORKFLOW_TABLE_ACCESS } from './permissions';
import { createWorkflowFunction } from './workflow-function';
import type { WaitScheduling } from './waits';
import type { DeploymentPart, WorkflowPartContext } from './workflow-part';

/**
 * A redrive re-invokes every invocation parked in the run, one Invoke each,
 * and the client waits for its answer: room for a run parked across a wide
 * Map, far within Lambda's 900 s.
 */
const RUN_CONTROL_TIMEOUT_SECONDS = 120;

/** Why the run-control function may invoke any alias of the nodes' functions, for cdk-nag's acknowledgement. */
const RESENDS_PARKED = 'the run-control function re-sends only the invocations parked in a FAILED run, as a function of the workflow sealed them, to the alias of the run\'s deployment; its callers may invoke only its stop or redrive alias';

/** The run-control function before its resources exist. */
export interface RunControlPlan {
  readonly bundle?: Bundle;
  readonly environment: Record<string, string>;
  readonly identity: DeploymentFunction;
}

/** The run-control function before any resource exists: bundled (unless the stack is excluded from bundling), and what it contributes to the deployment id. */
export function planRunControl(context: WorkflowPartContext): RunControlPlan {
  const { common } = context;
  const bundle = Stack.of(context.workflow).bundlingRequired ? context.guard('bundling the run-control function failed', () => bundleRunControl(common.bundling)) : undefined;
  const environment = { [ENV.workflow]: context.workflowName };
  const settings = { memorySize: MEMORY_MB.default, timeoutSeconds: RUN_CONTROL_TIMEOUT_SECONDS, environment };
  return { bundle, environment, identity: context.identity(RUN_CONTROL_NAME, { actions: RUN_CONTROL_ACTIONS }, bundle, settings) };
}

/**
 * The run-control function of the deployment (runtime/contract/run-control.ts):
 * stops and redrives runs, each action through an alias of its own, which
 * the deployment's custom resource moves to this version with `live`. It
 * reads and conditionally updates the workflow's run records and parked
 * invocations, reads its deployment records (a redrive to the latest), and
 * invokes any alias of the nodes' functions (a run resumes on its own
 * deployment); never the envelope key. With a workflow timeout, it also
 * schedules a redriven run's new one, in the deployment's schedule group.
 * Invoked synchronously only, so its aliases have no async settings.
 * @param nodeFunctions the nodes' functions, never the failure recorder's or the task-response function's.
 * @param rolePath the workflow's role path (permissions.ts `deploymentRolePath`).
 */
/** How the run-control function schedules a redriven run's timeout, when the workflow has one: the deployment's scheduling and the failure recorder's alias. */
export interface RunControlTimeout {
  readonly waits: WaitScheduling;
  readonly recorder: string;
}

export function createRunControl(context: WorkflowPartContext, plan: RunControlPlan, deployment: string, rolePath: string, nodeFunctions: readonly lambda.IFunction[], timeout?: RunControlTimeout): DeploymentPart {
  const { common, workflowName, table } = context;
  const scope = new Construct(context.workflow, 'RunControl');
  const role = createExecutionRole(scope, `Role${deployment}`, `unum workflow ${workflowName}, run-control function, deployment ${deployment}`, rolePath);
  allowWorkflowItems(role, table, { ...WORKFLOW_TABLE_ACCESS.runControlDeployments, workflow: workflowName });
  grantInvokeOfAliases(role, nodeFunctions, RESENDS_PARKED);
  const functionName = context.names.get(RUN_CONTROL_NAME) as string;
  const fn = createWorkflowFunction(scope, 'Function', {
    ...common,
    table,
    role,
    functionName,
    description: `unum workflow ${workflowName}: stops and redrives runs (aliases ${RUN_CONTROL_ACTIONS.join(', ')})`,
    code: plan.bundle === undefined ? unbundledCode({ runControl: workflowName, bundling: common.bundling }) : assetCode(assetFiles(plan.bundle)),
    memorySize: MEMORY_MB.default,
    timeoutSeconds: RUN_CONTROL_TIMEOUT_SECONDS,
    environment: {
      ...plan.environment,
      [ENV.deployment]: deployment,
      ...(timeout ? { ...timeout.waits.allowScheduling(role), [ENV.runTimeoutFunction]: timeout.recorder } : {}),
    },
    loop: false,
    tableAccess: { ...WORKFLOW_TABLE_ACCESS.runControl, workflow: workflowName },
  });
  retainRole(role);
  return { scope, fn, member: { node: RUN_CONTROL_NAME, functionName, version: publishVersion(fn), role } };
}
