/**
 * unum-cdk: decentralized serverless workflows on Lambda and DynamoDB, without
 * an orchestrator. This entry is the workflow DSL, the compiler, the ASL
 * importer and the `UnumWorkflow` construct; `unum-cdk/client` starts and
 * reads runs, `unum-cdk/local` runs a synthesized app on this machine.
 * Every name here is deliberate: test/api/public-api.int.test.ts lists them.
 *
 * @module unum-cdk
 */
export { Chain, Choice, Condition, Definition, Fail, Fold, IntegrationPattern, MapState, MapState as Map, Parallel, Pass, QueryLanguage, Succeed, Task, Wait, WaitTime } from './definition';
export type {
  AfterwardsOptions,
  CatchProps,
  ChoiceProps,
  DurationLike,
  EffectsTable,
  FailProps,
  FoldHandler,
  FoldProps,
  FunctionEffects,
  FunctionProps,
  Handler,
  IChainable,
  InputOf,
  IoProps,
  Json,
  JsonPath,
  MapProps,
  OutputOf,
  ParallelProps,
  JsonataProps,
  PassProps,
  PayloadTemplate,
  RetryProps,
  TaskProps,
  WaitProps,
  WaitTimeSpec,
} from './definition';
export { compileWorkflow, UnumDefinitionError } from './compiler';
export type { CompileOptions, CompiledNode, CompiledWorkflow, FunctionSpec } from './compiler';
export { UnumWorkflow, UnumWorkflowError } from './construct';
export type { UnumBundlingOptions, UnumWorkflowFromAslProps, UnumWorkflowProps } from './construct';
export { fromAsl, AslDefinitionError, AslValidationError } from './asl';
export type { AslTaskInfo, AslTaskProps, AslValidatorFinding, FromAslOptions } from './asl';
export { UnumError } from '../runtime/contract/errors';
