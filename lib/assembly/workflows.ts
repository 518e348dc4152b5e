import { CloudAssemblyError, readStacks } from './manifest';

/** A workflow found in a cloud assembly. */
export interface AssemblyWorkflow {
  readonly stack: string;
  /** Workflow name (`workflowName` of the construct). */
  readonly workflow: string;
  /** Construct path below the stack: the prefix of its stack outputs. */
  readonly constructPath: string;
  /** Deployed name of the entry function (deterministic, known at synth), unqualified: runs start at its `live` alias. */
  readonly entryFunction: string;
  /** The deployment this synth is (`DEPLOYMENT_ID_PATTERN`): the alias every function of the workflow has. */
  readonly deployment: string;
  /** The table name when it is a literal; for a table the stack creates, CloudFormation names it at deploy. */
  readonly table: string | { readonly logicalId: string };
  /** The dead-letter queue, which CloudFormation names at deploy (absent in assemblies of older versions). */
  readonly deadLetterQueue?: { readonly logicalId: string };
  /** The function that completes task tokens (deterministic name); absent when the workflow has no callback Task. */
  readonly taskResponseFunction?: string;
  /** The function that stops and redrives runs (deterministic name); absent in assemblies synthesized before it existed. */
  readonly runControlFunction?: string;
}

/** Every unum workflow of the assembly in `dir`, nested stage assemblies included, from its `unum:workflow` metadata. */
export function workflowsInAssembly(dir: string): AssemblyWorkflow[] {
  return readStacks(dir).flatMap((stack) =>
    stack.workflows.map(({ constructPath, metadata }) => ({
      stack: stack.name,
      workflow: metadata.workflow,
      constructPath,
      entryFunction: metadata.nodes[metadata.entry].functionName,
      deployment: metadata.deployment,
      table: typeof metadata.tableName === 'string' ? metadata.tableName : { logicalId: metadata.tableLogicalId ?? '?' },
      ...(metadata.deadLetterQueueLogicalId ? { deadLetterQueue: { logicalId: metadata.deadLetterQueueLogicalId } } : {}),
      ...(metadata.taskResponse ? { taskResponseFunction: metadata.taskResponse.functionName } : {}),
      ...(metadata.runControl ? { runControlFunction: metadata.runControl.functionName } : {}),
    })));
}

/** The one workflow of the assembly matching `workflow` (name or construct path) and `stack`, if given. */
export function findAssemblyWorkflow(dir: string, workflow?: string, stack?: string): AssemblyWorkflow {
  const all = workflowsInAssembly(dir);
  const matches = all.filter((w) =>
    (stack === undefined || w.stack === stack) && (workflow === undefined || w.workflow === workflow || w.constructPath === workflow));
  if (matches.length !== 1) {
    const have = all.map((w) => `${w.stack}/${w.workflow}`).join(', ') || 'none';
    throw new CloudAssemblyError(`${matches.length === 0 ? 'no' : 'more than one'} unum workflow${workflow ? ` '${workflow}'` : ''}${stack ? ` in stack ${stack}` : ''} in ${dir} (have: ${have})${matches.length > 1 ? ': pass --workflow or --stack' : ''}`);
  }
  return matches[0];
}
