import { Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { ENV, qualifiedName } from '../../runtime/contract/ir';
import { FUNCTION_TIMEOUT_MARGIN_SECONDS, functionTimeoutSeconds, MEMORY_MB, TIMEOUT_SECONDS } from '../compiler/function-settings';
import { assetCode, assetFiles, bundleTaskResponder, unbundledCode, type Bundle } from './bundling';
import type { DeploymentFunction } from './deployment-id';
import { publishVersion } from './deployment-version';
import { allowInvoke, createExecutionRole, functionArnFromName, retainRole } from './permissions';
import { createWorkflowFunction } from './workflow-function';
import type { DeploymentPart, WorkflowPartContext } from './workflow-part';

/** Stands for the task-response function (workflows with callback Tasks) in its function name. */
export const TASK_RESPONDER_NAME = 'unum-task-response';

/** The task-response function before its resources exist. */
export interface ResponderPlan {
  /** The callback Tasks' nodes: the functions it invokes. */
  readonly callbacks: readonly string[];
  readonly bundle?: Bundle;
  readonly timeoutSeconds: number;
  readonly identity: DeploymentFunction;
}

/** The task-response function before any resource exists: bundled (unless the stack is excluded from bundling), its timeout, and what it contributes to the deployment id. */
export function planTaskResponder(context: WorkflowPartContext, callbacks: readonly string[]): ResponderPlan {
  const { common } = context;
  const bundle = Stack.of(context.workflow).bundlingRequired ? context.guard('bundling the task-response function failed', () => bundleTaskResponder(common.bundling)) : undefined;
  // It waits for the Task's function, which may take its whole timeout (within Lambda's 900 s).
  const longestTask = Math.max(...callbacks.map((node) => functionTimeoutSeconds(context.compiled.nodes[node].fn.timeoutSeconds)));
  const timeoutSeconds = Math.min(functionTimeoutSeconds(TIMEOUT_SECONDS.max), longestTask + FUNCTION_TIMEOUT_MARGIN_SECONDS);
  const taskFunctions = Object.fromEntries(callbacks.map((node) => [node, context.names.get(node) as string]));
  return { callbacks, bundle, timeoutSeconds, identity: context.identity(TASK_RESPONDER_NAME, taskFunctions, bundle, { timeoutSeconds, memorySize: MEMORY_MB.default }) };
}

/**
 * The task-response function of the deployment: invokes the callback Tasks'
 * functions (and nothing else), on the deployment of the token it answers,
 * with responses to their tokens. No table access: the Task's function
 * checks the token against its waiting record. Invoked synchronously (the
 * client waits for its answer), so its alias has no async settings.
 * @param rolePath the workflow's role path (permissions.ts `deploymentRolePath`).
 */
export function createTaskResponder(context: WorkflowPartContext, plan: ResponderPlan, deployment: string, rolePath: string): DeploymentPart {
  const { common, workflowName } = context;
  const scope = new Construct(context.workflow, 'TaskResponse');
  const role = createExecutionRole(scope, `Role${deployment}`, `unum workflow ${workflowName}, task-response function, deployment ${deployment}`, rolePath);
  const functions = Object.fromEntries(plan.callbacks.map((node) => [node, qualifiedName(context.names.get(node) as string, deployment)]));
  allowInvoke(role, Object.values(functions).map((name) => functionArnFromName(scope, name)));
  const functionName = context.names.get(TASK_RESPONDER_NAME) as string;
  const fn = createWorkflowFunction(scope, 'Function', {
    ...common,
    table: context.table,
    role,
    functionName,
    description: `unum workflow ${workflowName}: completes task tokens of its callback Tasks`,
    code: plan.bundle === undefined ? unbundledCode({ taskResponse: workflowName, bundling: common.bundling }) : assetCode(assetFiles(plan.bundle)),
    memorySize: MEMORY_MB.default,
    timeoutSeconds: plan.timeoutSeconds,
    environment: { [ENV.workflow]: workflowName, [ENV.taskFunctions]: JSON.stringify(functions), [ENV.deployment]: deployment },
    loop: false,
  });
  retainRole(role);
  return { scope, fn, member: { node: TASK_RESPONDER_NAME, functionName, version: publishVersion(fn), role } };
}
