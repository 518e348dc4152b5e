import { CfnOutput, type CfnResource, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { CompiledWorkflow } from '../compiler/compiled';
import type { WorkflowMetadata } from '../assembly/metadata';

/** What a deployed workflow is made of, for its stack outputs and the tools' metadata. */
export interface DeployedWorkflow {
  readonly workflowName: string;
  /** The deployment id (runtime/contract/ir `DEPLOYMENT_ID_PATTERN`). */
  readonly deployment: string;
  readonly compiled: CompiledWorkflow;
  readonly functions: Readonly<Record<string, lambda.Function>>;
  readonly entryFunction: lambda.Function;
  readonly table: dynamodb.ITable;
  readonly deadLetterQueue: sqs.IQueue;
  readonly failureRecorder: lambda.Function;
  readonly taskResponseFunction?: lambda.Function;
  readonly runControlFunction: lambda.Function;
  /** Physical function name of every node, of the failure recorder and of the task-response function. */
  readonly functionName: (node: string) => string;
  readonly failureRecorderName: string;
  readonly taskResponderName: string;
  readonly runControlName: string;
}

/**
 * Stack outputs with stable logical ids (`<id>EntryFunctionName`), so scripts
 * can read them. Runs start at the entry's alias `live` (`<EntryFunctionName>:live`);
 * `<id>Deployment` is the deployment the stack's last deploy made live.
 */
export function addOutputs(scope: Construct, w: DeployedWorkflow): void {
  const prefix = scope.node.scopes
    .slice(scope.node.scopes.indexOf(Stack.of(scope)) + 1)
    .map((s) => s.node.id)
    .join('')
    .replace(/[^A-Za-z0-9]/g, '');
  const name = w.workflowName;
  const outputs: Array<[string, string, string]> = [
    ['EntryFunctionName', w.entryFunction.functionName, `Entry function of workflow ${name}`],
    ['EntryFunctionArn', w.entryFunction.functionArn, `ARN of the entry function of workflow ${name}`],
    ['TableName', w.table.tableName, `Table of workflow ${name} (checkpoints and run records)`],
    ['DeadLetterQueueUrl', w.deadLetterQueue.queueUrl, `Dead letters of workflow ${name}, for unum recover`],
    ['WorkflowName', name, `Name of workflow ${name}: its run records are keyed with it`],
    ['Deployment', w.deployment, `Deployment of workflow ${name} that new runs start on (the alias live of its entry function)`],
    ['RunControlFunctionName', w.runControlFunction.functionName, `Function of workflow ${name} that stops (alias stop) and redrives (alias redrive) runs`],
    ...(w.taskResponseFunction
      ? [['TaskResponseFunctionName', w.taskResponseFunction.functionName, `Function of workflow ${name} that completes task tokens`] as [string, string, string]]
      : []),
  ];
  for (const [id, value, description] of outputs) {
    new CfnOutput(scope, id, { value, description }).overrideLogicalId(`${prefix}${id}`);
  }
}

/** The `unum:workflow` metadata the client, CLI and local engine read from the cloud assembly. */
export function workflowMetadata(w: DeployedWorkflow): WorkflowMetadata {
  const logicalId = (fn: lambda.Function): string => (fn.node.defaultChild as lambda.CfnFunction).logicalId;
  const nodes: Record<string, WorkflowMetadata['nodes'][string]> = {};
  for (const [node, compiledNode] of Object.entries(w.compiled.nodes)) {
    nodes[node] = {
      functionName: w.functionName(node),
      logicalId: logicalId(w.functions[node]),
      successors: [...compiledNode.successors],
      implicit: compiledNode.implicit,
    };
  }
  const tableResource = w.table.node.defaultChild as dynamodb.CfnTable | undefined;
  return {
    version: 2,
    workflow: w.workflowName,
    deployment: w.deployment,
    entry: w.compiled.entry,
    nodes,
    tableLogicalId: tableResource?.logicalId,
    tableName: w.table.tableName,
    failureRecorder: { functionName: w.failureRecorderName, logicalId: logicalId(w.failureRecorder) },
    deadLetterQueueLogicalId: (w.deadLetterQueue.node.defaultChild as CfnResource).logicalId,
    runControl: { functionName: w.runControlName, logicalId: logicalId(w.runControlFunction) },
    ...(w.taskResponseFunction ? { taskResponse: { functionName: w.taskResponderName, logicalId: logicalId(w.taskResponseFunction) } } : {}),
  };
}
