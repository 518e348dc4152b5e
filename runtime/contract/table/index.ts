/**
 * The workflow table's layout (docs/architecture.md "Table"; history format in
 * docs/deploying-and-operating.md "Run history: the item format"): key builders, attribute names, the records
 * and their DynamoDB encoding. The only module that names an attribute or a
 * key prefix (eslint.config.mjs keeps it so): the runtime writes through it
 * (runtime/aws/dynamodb-store.ts), and the client, the local engine's checker and the
 * tools read through it. The runtime bundle keeps only what the runtime uses:
 * the lenient readers below are the client's.
 *
 * Values are JSON strings, not DynamoDB maps: no marshalling in the runtime,
 * and the stored value is byte-identical to what was committed.
 */
export { MAX_VALUE_BYTES, TABLE, TABLE_FORMAT, byteLength, formatOf, keyItem, keyOf, ttlExtension, ttlOf } from './encoding';
export type { Item, PutRequest, UpdateRequest } from './encoding';
export { RUN_ITEM_KINDS, WORKFLOW_TAG_LENGTH, checkpointKey, effectKey, historyKey, isCheckpointKey, isInvocationName, parkKey, parseKey, runKey, shardKey, stateFailureKey, taskWaitKey, workflowKeyPatterns, workflowTag } from './keys';
export type { ItemKind, RunRef, TableKey } from './keys';
export { REDRIVE_STATE, RETRY_STATE, TASK_FAILED, TASK_RETRY, checkpointPut, decodeCheckpoint } from './checkpoint';
export type { Checkpoint } from './checkpoint';
export { SHARD_WIDTH, decodeShard, decodeStateFailure, isShardArrival, maskShardJoins, shardArrival, shardRenewal, stateFailurePut, stateRetries } from './fan-in';
export type { FanInShard, RenewalClaim, StateFailure } from './fan-in';
export { decodeHeartbeats, decodeTaskWait, taskHeartbeat, taskWaitPut } from './task-wait';
export type { TaskWait } from './task-wait';
export { REDRIVABLE_STATUSES, RUN_STATUSES, decodeRedriveState, decodeRunRecord, redrivenDeadline, runDeadline, runEnded, runFinish, runIndexAttributes, runInterruption, runPark, runRedrivable, runRedrive, runRedriveDone, runRejection, runResultWritten, runStart, runStartedAt, runStatusOf, runStatusWritten, runTimedOut, runTimedOutAt, timedOutInstead } from './run-record';
export type { FailureRedrive, RedrivableStatus, RedriveState, RedriveWrite, RunEnd, RunError, RunInterruption, RunRecord, RunRecordStatus, WrittenRunError } from './run-record';
export { decodeParked, parkResent, parkedUpdate, resentEvent } from './parked';
export type { Parked } from './parked';
export { RUN_SUMMARY_ATTRIBUTES, isRunsPageKey, runsIndexKeyPatterns, runsPageKey, runsQuery } from './runs-index';
export type { RunsFilter, RunsQuery } from './runs-index';
export { HISTORY_RETRIED_KEPT, decodeHistoryCount, decodeHistoryEntry, historyCount, historyEntryPut, historyItem, retriedErrors } from './history';
export type { ExecutionFacts, HistoryEntry, HistoryItem, HistoryOutcome, Transition } from './history';
export { decodeEffect, effectClaim, effectCommit, effectOutcome, effectResult, holdsOperation, loggedUpdate } from './effects';
export type { EffectRecord, ItemUpdate } from './effects';
export { SUMMARY_ATTRIBUTES } from './scans';
export { deploymentKey, envelopeKeyKey } from './keys';
export { ENVELOPE_KEY_BYTES, decodeEnvelopeKey, envelopeKeyPut } from './envelope-key';
export { currentOf, decodeDeploymentList, newestFirst, decodeDeploymentRecord, deploymentListed, deploymentPut, deploymentReactivation, deploymentRemoved, deploymentRemoving, deploymentSuperseded, deploymentsUnlisted } from './deployments';
export type { DeploymentFunction, DeploymentRecord } from './deployments';
