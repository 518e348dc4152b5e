export { UnumWorkflow } from './unum-workflow';
export type { UnumWorkflowFromAslProps, UnumWorkflowProps, UnumBundlingOptions } from './props';
export { UnumWorkflowError } from './errors';
export { WORKFLOW_METADATA_TYPE, type WorkflowMetadata } from '../assembly/metadata';
export { physicalFunctionName } from './function-names';
