/**
 * The one reader of a synthesized app (`cdk.out`), for the client, the CLI,
 * the local engine and the graph: manifest (nested assemblies included),
 * `unum:workflow` metadata, templates and the IR bundled beside each node.
 * Plain JSON reading: no aws-cdk-lib.
 */
export { CloudAssemblyError, type StackArtifact, type StackWorkflow } from './manifest';
export { WORKFLOW_METADATA_TYPE, type WorkflowMetadata } from './metadata';
export { noWorkflowError, readAssembly, type AssemblyStack, type AssetFunction, type CloudAssembly, type NodeFunction, type SynthesizedWorkflow, type TemplateResource } from './read';
export { LOCAL_ACCOUNT, LOCAL_TABLE_PREFIX_VARIABLE, localName, localQueueUrl } from './local-names';
export { findAssemblyWorkflow, workflowsInAssembly, type AssemblyWorkflow } from './workflows';
