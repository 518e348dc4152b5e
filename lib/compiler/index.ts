export { compileWorkflow } from './compile';
export type { CompiledNode, CompiledWorkflow, CompileOptions, FunctionSpec } from './compiled';
export { UnumDefinitionError, WORKFLOW_LEVEL } from './errors';
export { NAME_PATTERN } from './names';
export { validateIr } from './schema';
export type { IrValidationResult } from './schema';
export { benchCompile } from './bench';
export type { CompileBenchResult } from './bench';
