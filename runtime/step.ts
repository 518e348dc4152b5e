/**
 * The exactly-once step (docs/architecture.md "Exactly-once protocol") that a
 * plain node and a fold step share: own checkpoint -> stop (tombstone) or
 * duplicate -> resolve and compute -> commit -> proceed -> collect.
 */
import { commit, fromCheckpoint } from './egress';
import { collect } from './gc';
import { leadingPasses } from './interpreter';
import { expired } from './lease';
import { readOwnInState } from './state-stop';
import type { Json } from './ir';
import type { Checkpoint } from './table';
import type { Cleanup, Committed, Exec } from './types';

/** The step's outcome in the transition log line (docs/architecture.md "Observability"). */
export type StepOutcome = 'committed' | 'caught' | 'duplicate' | 'tombstone' | 'stale' | 'stopped';

/** The computed value (or a caught error) and the cleanup owed once it is committed. */
export interface StepOutput {
  readonly value: Json;
  readonly catchIndex?: number;
  readonly cleanup: Cleanup;
}

/** What a plain node and a fold step do differently. */
export interface StepWork {
  /** The value goes on to the node's instructions (a fold's: only from its last step). */
  readonly instructionsFollow: boolean;
  /** The cleanup owed when our checkpoint already exists (a duplicate, or tombstoned by a successor). */
  owedCleanup(): Promise<Cleanup>;
  /** Resolves the input and computes; undefined when an input was already collected (stale). */
  computeOutput(): Promise<StepOutput | undefined>;
  /** Invokes the successors of the committed value; returns what to collect after them. */
  afterCommit(ck: Committed, cleanup: Cleanup): Promise<Cleanup>;
}

/**
 * An input is gone or collected. Inputs are collected only after the
 * invocation that reads them committed, so if another execution of ours
 * committed meanwhile, this one is stale; if none did, the input expired.
 */
async function staleOrExpired(x: Exec): Promise<'stale'> {
  if (!(await x.rt.store.getCheckpoint(x.key))) throw expired(x, 'an input');
  return 'stale';
}

/**
 * Runs one step. `plan` learns what the own checkpoint holds before any other
 * read, and returns the step's work, or its outcome when there is none left.
 */
export async function exactlyOnceStep(
  x: Exec,
  plan: (own: Checkpoint | undefined) => StepWork | StepOutcome | Promise<StepWork | StepOutcome>,
): Promise<StepOutcome> {
  const read = await readOwnInState(x);
  if (read === 'stopped') return read;
  const { own } = read;
  const work = await plan(own);
  if (work === 'stale') return staleOrExpired(x);
  if (typeof work === 'string') return work;
  // Tombstoned: we and every successor committed. Redo our cleanup in case our GC was cut short; it is idempotent.
  const stop = async (): Promise<StepOutcome> => {
    await collect(x, await work.owedCleanup());
    return 'tombstone';
  };
  if (own?.tombstone) return stop();
  let ck: Committed | undefined;
  let cleanup: Cleanup;
  if (own) {
    // A retry or duplicate after commit: skip user code, redo the idempotent rest.
    x.metrics.duplicates = 1;
    cleanup = await work.owedCleanup();
    ck = fromCheckpoint(x.key, own);
  } else {
    const output = await work.computeOutput();
    if (!output) return staleOrExpired(x);
    // The checkpoint holds what the instructions' successors see; a caught error goes to its handler as is.
    const passes = output.catchIndex === undefined && work.instructionsFollow;
    ck = await commit(x, passes ? leadingPasses(x, output.value) : output.value, output.catchIndex);
    if (!ck) return stop();
    cleanup = output.cleanup;
  }
  await collect(x, await work.afterCommit(ck, cleanup));
  return own ? 'duplicate' : ck.catchIndex === undefined ? 'committed' : 'caught';
}
