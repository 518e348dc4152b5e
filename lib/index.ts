/** unum-cdk: decentralized serverless workflows on Lambda and DynamoDB, without an orchestrator. */
export * from './definition';
export { compileWorkflow, UnumDefinitionError } from './compiler';
export type { CompileOptions, CompiledNode, CompiledWorkflow, FunctionSpec } from './compiler/compiled';
export * from './construct';
export { fromAsl, AslDefinitionError, AslValidationError } from './asl';
export type { AslTaskInfo, AslTaskProps, AslValidatorFinding, FromAslOptions } from './asl';
