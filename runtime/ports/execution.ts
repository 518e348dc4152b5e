/** Shapes shared by the runtime's modules (not part of the IR contract). */
import type { FanOutFrame, FoldState, InputRef, Json, NodeIR, TaskResponseAnswer } from '../contract/ir';
import type { Invoker } from './invoker';
import type { MetricName } from './log';
import type { Scheduler } from './scheduler';
import type { CheckpointStore, ReadSet } from './store';
import type { Parked, RunRef } from '../contract/table';
import type { LambdaContext } from '../contract/handler-api';

export type UserFunction = (...args: unknown[]) => unknown;

/** Everything an execution needs besides its event. */
export interface Runtime {
  readonly ir: NodeIR;
  /** The user's export (user and fold handlers). */
  readonly fn?: UserFunction;
  readonly store: CheckpointStore;
  readonly invoker: Invoker;
  /** Delivers the invocation after a Wait (functions before a Wait only need one). */
  readonly scheduler?: Scheduler;
  /** A callback Task's part (runtime/callbacks/callback-handler.ts): bundled only into those functions. */
  readonly tasks?: TaskPort;
}

/** A completion of a callback Task as its step computes from it: the state input, and the result or the error. */
export interface TaskCompletion {
  readonly stateInput: Json;
  readonly result: { readonly value: Json } | { readonly error: string; readonly cause: string };
  /** Retries used per Retry rule by the attempts before this one. */
  readonly retries: readonly number[];
}

/**
 * What a redrive re-sends in place of the invocation that failed the run
 * (runtime/records/run-record.ts `failRun`): itself by default; for a callback
 * Task's uncaught failure, its next attempt (runtime/callbacks/callback-retry.ts).
 * `generation`: the failed event's, fencing a stale failure as the failure
 * recorder's does (`failParked`).
 */
export interface Redo {
  readonly invocation: string;
  readonly parked: Parked;
  readonly generation?: number;
}

/** What a callback Task's function adds to the runtime (docs/architecture.md "Callbacks"). */
export interface TaskPort {
  /** Runs the handler with the task's token; 'waiting' once it returned. */
  handOutToken(x: Exec, input: Json): Promise<{ value: Json; catchIndex?: number } | 'waiting'>;
  /** The task's output from a completion. */
  completionOutput(x: Exec, c: TaskCompletion): { value: Json; catchIndex?: number };
  /** Answers a response to one of the task's tokens (`TaskResponseEvent`). */
  respond(rt: Runtime, event: { unumTask: unknown }, ctx: LambdaContext): Promise<TaskResponseAnswer>;
  /** After a completion committed a retry (`TASK_RETRY`): invokes the Task's next attempt. */
  nextAttempt(x: Exec, ck: Committed): Promise<void>;
  /** For a Task whose checkpoint (catch index `catchIndex`) is an uncaught failure: its next attempt, which a redrive sends. */
  redo(x: Exec, catchIndex: number | undefined): Redo | undefined;
}

/** A parsed event: a start request or an envelope, in one shape. */
export interface Invocation {
  readonly workflowId: string;
  readonly iteration: number;
  readonly frames: readonly FanOutFrame[];
  readonly input: InputRef;
  readonly parent?: string;
  readonly fold?: FoldState;
  /** The envelope's lease (epoch seconds; docs/architecture.md "Retention"). */
  readonly lease?: number;
  /** The redrive generation that re-sent this event (runtime/contract/ir/ `EnvelopeHeader.redrive`); kept when it parks again. */
  readonly redrive?: number;
  /** A start request: the entry writes the RUNNING run record. */
  readonly start: boolean;
}

/** One execution of an invocation: its identity and what it measured. */
export interface Exec {
  readonly rt: Runtime;
  /** The received invocation; its frames lose `replaces` where a redriven attempt's chain of reused steps ends (runtime/step/redrive-reuse.ts). */
  invocation: Invocation;
  readonly ctx: LambdaContext;
  /** This node's workflow and the invocation's run id: what the run's keys and names carry. */
  readonly run: RunRef;
  readonly name: string;
  /** This invocation's checkpoint key. */
  readonly key: string;
  /** Its checkpoint key in the failed attempt of a state a redrive runs again, whose committed value it reuses (runtime/step/redrive-reuse.ts). */
  readonly replaced?: string;
  readonly metrics: Partial<Record<MetricName, number>>;
  /** The step's read: the own checkpoint and the inputs the envelope names, or only the run record beside the commit (runtime/step/step.ts). */
  read?: ReadSet;
  /** This execution wrote its run's RUNNING record just now (runtime/records/run-record.ts `startRun`). */
  startedRun?: boolean;
  /** Epoch seconds until which what the run will read again is kept; sent on in every envelope. */
  lease: number;
  /** Attempts of the handler in this execution (retry rules), 0 when user code did not run. */
  attempts: number;
  /** The error name of each failed attempt, in order. */
  attemptErrors: string[];
  userMs: number;
  /** A callback Task's token, handed to its handler (runtime/callbacks/callback.ts). */
  taskToken?: string;
}

/** The value this invocation continues with: always the stored one. */
export interface Committed {
  readonly key: string;
  readonly json: string;
  readonly value: Json;
  readonly catchIndex?: number;
  /** The checkpoint's TTL, when known. */
  readonly ttl?: number;
}
