/**
 * The persistence layer the protocol needs; the records it reads and writes
 * are those of the table layout (runtime/contract/table/). One implementation talks to
 * DynamoDB (runtime/aws/dynamodb-store.ts); tests may use fakes.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Checkpoint, HistoryItem, Parked, RenewalClaim, RunEnd, RunInterruption, RunRef, StateFailure, WrittenRunError } from '../contract/table';

/** What one read round trip found, by key: checkpoints, and fan-in shards' arrivals; absent items are missing. */
export interface ReadSet {
  readonly checkpoints: ReadonlyMap<string, Checkpoint>;
  readonly shards: ReadonlyMap<string, readonly number[]>;
  /** The failures recorded for the state attempts asked for, by join invocation. */
  readonly stateFailures: ReadonlyMap<string, StateFailure>;
  /** The run record asked for has a final status: nothing of the run is owed any more. */
  readonly runEnded: boolean;
  /** The run record asked for is FAILED, ABORTED or TIMED_OUT: the invocation parks for a redrive (runtime/records/redrive-park.ts). */
  readonly runRedrivable: boolean;
  /** The run's deadline (epoch ms) on the record asked for, when its workflow has a timeout. */
  readonly runDeadline?: number;
}

/** How a read round trip reads, and what it reads besides checkpoints and shards. */
export interface ReadOptions {
  /** Consistent read; eventually consistent where a stale answer is safe (the conditional put is the authority). */
  readonly consistent: boolean;
  /** State attempts (join invocations) whose failure records to read. */
  readonly stateAttempts?: readonly string[];
  /** The run whose record to read, for whether it ended. */
  readonly run?: RunRef;
}

export type ShardRenewal = { readonly renewed: true; readonly arrivals: readonly number[] } | { readonly renewed: false; readonly ttl?: number };

/** The table behind a store on DynamoDB, where effect records (`unum-cdk/effects`) are written beside the user's writes. */
export interface DynamoDbTarget {
  readonly client: DynamoDBClient;
  readonly tableName: string;
}

export interface CheckpointStore {
  /** Set by a store on DynamoDB: effects need it (a transaction spans the user's tables and this one). */
  readonly dynamoDb?: DynamoDbTarget;
  /** Consistent read of one checkpoint. */
  getCheckpoint(key: string): Promise<Checkpoint | undefined>;
  /**
   * Conditional put (`attribute_not_exists`). Returns undefined when this call
   * committed, else the checkpoint that was already there (the value to continue with).
   */
  putCheckpoint(key: string, json: string, catchIndex: number | undefined, ttl: number): Promise<Checkpoint | undefined>;
  /** Consistent batch read; absent keys are missing from the map. */
  getCheckpoints(keys: readonly string[]): Promise<Map<string, Checkpoint>>;
  /**
   * Checkpoints, shards, the failures of state attempts (by join invocation)
   * and the run record's status in one round trip (one GetItem or BatchGetItem).
   */
  read(checkpoints: readonly string[], shards: readonly string[], options: ReadOptions): Promise<ReadSet>;
  /** Raise an item's TTL to `ttl` if it exists and expires earlier; never creates or shortens. */
  extendTtl(key: string, ttl: number): Promise<void>;
  /** Idempotently add `element` to a shard expecting `expected` arrivals, creating it (with TTL `ttl`) if absent. */
  addToShard(key: string, element: number, expected: number, ttl: number): Promise<{ readonly count: number; readonly expected: number; readonly ttl?: number }>;
  /**
   * Raise a shard's TTL to `ttl` (runtime/contract/table/ `shardRenewal`; with a claim, claiming
   * its fan-in's renewal, on a root created if absent). Returns the arrivals when
   * renewed; otherwise the shard's TTL, undefined when the shard does not exist.
   */
  renewShard(key: string, ttl: number, claim?: RenewalClaim): Promise<ShardRenewal>;
  /** Record the failure of a Parallel/Map state attempt (join invocation `join`) by invocation `by` unless one is recorded; returns the one recorded. */
  failState(join: string, failure: { error: string; cause: string; by: string }, ttl: number): Promise<StateFailure>;
  /** Consistent read of a state attempt's failure. */
  getStateFailure(join: string): Promise<StateFailure | undefined>;
  /** Record the retries a state used so far in its attempt's failure. */
  setStateRetries(join: string, retries: readonly number[]): Promise<void>;
  /** Create the run record (RUNNING, with its deadline if any and the deployment it starts on) unless it exists; when it exists, its `startedAt`. */
  startRun(run: RunRef, startedAt: string, ttl: number, deadline?: number, deployment?: string): Promise<{ readonly created: boolean; readonly startedAt?: string }>;
  /** Set the run's final status and TTL unless it already has a final status; true when this call set it. */
  finishRun(run: RunRef, end: RunEnd, finishedAt: string, ttl: number): Promise<boolean>;
  /** End a RUNNING run from outside it (stopped: ABORTED; past its deadline: TIMED_OUT); true when this call ended it. */
  interruptRun(run: RunRef, end: RunInterruption, finishedAt: string): Promise<boolean>;
  /** Write the parked item of `invocation` (unconditional: duplicates write the same; the generation that re-sent it stays). */
  putParked(run: RunRef, invocation: string, parked: Parked, ttl: number): Promise<void>;
  /**
   * The run's redrive count and deployment, then (read after it, both
   * consistent) the generation that last re-sent `invocation`
   * (`Parked.resentBy`; 0 when none did): what a failure is checked against
   * (runtime/records/redrive-park.ts `failParked`), and a re-sent envelope
   * (runtime/entry/envelope-auth.ts `checkResent`).
   */
  getResent(run: RunRef, invocation: string): Promise<{ readonly redrives: number; readonly resentBy: number; readonly deployment?: string }>;
  /** Add `invocation` to a FAILED run's parked set: 'running' when the run is RUNNING (redriven), 'ended' when it has another status or cannot be redriven. */
  parkInRun(run: RunRef, invocation: string): Promise<'parked' | 'running' | 'ended'>;
  /** Create the run record FAILED (a rejected start request) unless a record exists; true when created. */
  rejectRun(run: RunRef, error: WrittenRunError, at: string, ttl: number): Promise<boolean>;
  /** Run history counter: `ADD n 1` (TTL set if absent); returns the new `n`, the next entry's `seq`. */
  nextHistorySeq(run: RunRef, ttl: number): Promise<number>;
  /** Put history entry `seq` (unconditional: the key is new). */
  putHistoryEntry(run: RunRef, seq: number, item: HistoryItem, ttl: number): Promise<void>;
}
