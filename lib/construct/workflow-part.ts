import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { CompiledWorkflow } from '../compiler/compiled';
import type { Bundle } from './bundling';
import type { DeploymentFunction } from './deployment-id';
import type { DeploymentMember } from './sweeper';
import type { CommonFunctionOptions } from './workflow-function';

/**
 * What a function of the workflow other than a node's (the failure recorder,
 * the task-response and run-control functions) is planned and created from: the workflow it
 * belongs to, which it takes its scope, names and settings from.
 */
export interface WorkflowPartContext {
  /** The `UnumWorkflow`: each part's resources are under a child of it, whose id is part of their logical ids. */
  readonly workflow: Construct;
  readonly workflowName: string;
  readonly compiled: CompiledWorkflow;
  /** Physical function names, by node and by part (unum-workflow.ts `functionNames`). */
  readonly names: ReadonlyMap<string, string>;
  readonly table: dynamodb.ITable;
  readonly common: CommonFunctionOptions;
  /** What a function contributes to the deployment id, with the settings every function shares. */
  readonly identity: (name: string, spec: unknown, bundle: Bundle | undefined, settings: object) => DeploymentFunction;
  /** Runs `action`; its failure becomes the workflow's error, saying `what` failed. */
  readonly guard: <T>(what: string, action: () => T) => T;
}

/** A part once created: its scope (all of its resources, which the deployment's custom resource waits for), its function, and what the custom resource activates of it. */
export interface DeploymentPart {
  readonly scope: Construct;
  readonly fn: lambda.Function;
  readonly member: DeploymentMember;
}
