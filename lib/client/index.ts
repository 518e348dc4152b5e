/**
 * `unum-cdk/client`: start runs of a deployed (or locally running) workflow,
 * read their status, result and progress, and recover dead letters after an
 * outage. Loads no aws-cdk-lib. Every name here is deliberate:
 * test/api/public-api.int.test.ts lists them.
 *
 * @module unum-cdk/client
 */
export { UnumClient } from './client';
export type { CloudAssemblyOptions, UnumClientProps, UnumSdkClients } from './client';
export type { InspectOptions, ListRunsOptions, RedriveOptions, RunError, RunList, RunOutcome, RunState, RunStatus, RunSummary, StartAndWaitOptions, StartOptions, StopOptions, StopResult, WaitOptions, WorkflowLocation } from './types';
export type { WaitingTask } from './waiting';
export { UnumClientError, UnumRunFailedError, UnumRunNotFinishedError, UnumTaskAlreadyCompletedError, UnumTaskTokenError, UnumWaitTimeoutError } from './errors';
export type { FanInProgress, InspectFailure, InspectReport, TableSummary } from './inspect';
export type { HistoryEntry, HistoryOutcome } from './history';
export type { DeadLetterOutcome, RecoveredDeadLetter, RecoverOptions, RecoveryReport } from './recover';
export { UnumRunNotRedrivableError } from './run-control';
export type { RedriveResult, RunControlStatus } from '../../runtime/contract/run-control';
export type { DeploymentSummary } from './deployments';
export { WORKFLOW_ID_PATTERN } from '../../runtime/contract/ir';
export type { Json } from '../../runtime/contract/ir';
export { UnumError } from '../../runtime/contract/errors';
