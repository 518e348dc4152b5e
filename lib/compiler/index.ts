export { compileWorkflow } from './compile';
export type { CompiledNode, CompiledWorkflow, CompileOptions, FunctionSpec } from './compiled';
export { UnumDefinitionError, WORKFLOW_LEVEL } from './errors';
export { NAME_PATTERN } from './names';
