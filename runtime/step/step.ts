/**
 * The exactly-once step (docs/architecture.md "Exactly-once protocol") that a
 * plain node, a fold step and a state decision share: one read of the own
 * checkpoint and of the inputs known up front -> a duplicate continues from
 * the stored value, anything else resolves and computes -> commit -> proceed.
 * Nothing is collected afterwards: every item expires by its TTL.
 */
import { commit, fromCheckpoint } from './commit';
import { appendCommit } from '../records/history';
import { inputKeys } from './inputs';
import { leadingPasses } from './interpreter';
import { expired } from '../records/retention';
import { endsRun } from './run-end';
import { chainBeforeCompute, resumeChain, reusableValue } from './redrive-reuse';
import { commitRunResult, overByDeadline, resultFitsInline, runOver } from '../records/run-record';
import { stateAttemptJoins, stoppedByFailedState } from './state-stop';
import type { Json } from '../contract/ir';
import type { ReadSet } from '../ports/store';
import type { Committed, Exec } from '../ports/execution';

/** The step's outcome in the transition log line (docs/architecture.md "Observability"). */
export type StepOutcome = 'committed' | 'caught' | 'reused' | 'duplicate' | 'stale' | 'abandoned' | 'stopped' | 'ended' | 'waiting';

/** The computed value, or a caught error with its catch index. */
export interface StepOutput {
  readonly value: Json;
  readonly catchIndex?: number;
}

/** What a plain node, a fold step and a state decision do differently. */
export interface StepWork {
  /** The value goes on to the node's instructions (a fold's: only from its last step). */
  readonly instructionsFollow: boolean;
  /** Resolves the input and computes; undefined when an input is missing, 'waiting' when a callback Task waits for its token (nothing to commit yet). */
  computeOutput(): Promise<StepOutput | 'waiting' | undefined>;
  /** Invokes the successors of the committed value (a duplicate's: only those that have not committed). */
  afterCommit(ck: Committed): Promise<void>;
}

/**
 * An input is missing. If another execution of ours committed, it owes the
 * successors (or Lambda's retry of it does): stop. If none did, the input expired.
 */
async function staleOrExpired(x: Exec): Promise<'stale'> {
  if (!(await x.rt.store.getCheckpoint(x.key))) throw expired(x, 'an input');
  return 'stale';
}

/** What a computed output commits; `runEnd` is its JSON when it ends the run and fits into the run record. */
interface Commitment {
  readonly value: Json;
  readonly catchIndex?: number;
  readonly runEnd?: string;
}

/**
 * The checkpoint holds what the instructions' successors see; a caught
 * error goes to its handler as is. The terminal transition: a value that
 * ends the run with success is committed into the run record (its final
 * write) instead of a checkpoint, unless it is too large to hold inline.
 */
async function commitment(x: Exec, work: StepWork, output: StepOutput): Promise<Commitment> {
  if (output.catchIndex !== undefined) return { value: output.value, catchIndex: output.catchIndex };
  if (!work.instructionsFollow) return { value: output.value };
  const value = await leadingPasses(x, output.value);
  if (!(await endsRun(x, x.rt.ir.instructions, value))) return { value };
  const json = JSON.stringify(value);
  return resultFitsInline(x, json) ? { value, runEnd: json } : { value };
}

async function commitRunEnd(x: Exec, value: Json, json: string): Promise<'committed' | 'duplicate'> {
  await appendCommit(x, { key: x.key, json, value });
  return (await commitRunResult(x, json)) ? 'committed' : 'duplicate';
}

/**
 * Runs one step. The own checkpoint is read with the inputs named by the
 * envelope and the run record in one round trip, eventually consistent
 * unless state attempts are read: a checkpoint is written once and a
 * fan-in shard only gains arrivals, so a stale replica can miss an item or
 * an arrival but never show a wrong one. A stale miss of the own checkpoint
 * only computes again (the conditional put returns the stored value); a
 * missing input or arrival is asked of the leader once more, consistently,
 * before the step counts it missing ('stale', or an expired input). Once
 * the run has ended (finished, stopped, past its deadline) nothing is owed
 * ('ended'). Inside a redriven state's attempt the step's checkpoint of
 * the failed attempt is read too, and reused when it may be (runtime/step/redrive-reuse.ts).
 * `plan` returns the step's work, 'stale' when an input is
 * missing already, or 'abandoned' when the state attempt it belongs to was
 * decided (runtime/step/inputs.ts `decidedAttemptKey`). A step whose read would only
 * guard it reads beside its commit instead (`stepBesideRead`).
 */
export async function exactlyOnceStep(x: Exec, plan: StepPlan, options: StepOptions = {}): Promise<StepOutcome> {
  const attempts = stateAttemptJoins(x);
  const inputs = inputKeys(x);
  if (options.readBesideCommit && guardOnlyRead(x, inputs, attempts)) return stepBesideRead(x, plan);
  const consistent = attempts.length > 0;
  const first = await stepOnRead(x, plan, inputs, attempts, consistent);
  const outcome = first === 'missing' && !consistent ? await stepOnRead(x, plan, inputs, attempts, true) : first;
  return outcome === 'missing' ? staleOrExpired(x) : outcome;
}

/** What a step plans: its work, 'stale' when an input is missing already, 'abandoned' when its state attempt was decided. */
type StepPlan = () => StepWork | 'stale' | 'abandoned' | Promise<StepWork | 'stale' | 'abandoned'>;

export interface StepOptions {
  /**
   * The step's work needs nothing its read returns (a user or pass handler
   * on an inline input), so it may compute first and read the run record
   * beside its commit (`stepBesideRead`) when its read would only guard it.
   * @default false
   */
  readonly readBesideCommit?: boolean;
}

/** The checkpoints and shards a step reads besides its own checkpoint (runtime/step/inputs.ts `inputKeys`). */
type InputKeys = ReturnType<typeof inputKeys>;

/** The step reads nothing but its own checkpoint and the run record. */
const namesNoInput = (inputs: InputKeys, attempts: readonly string[]): boolean =>
  inputs.checkpoints.length + inputs.shards.length + attempts.length === 0;

const NOTHING_READ: ReadSet = { checkpoints: new Map(), shards: new Map(), stateFailures: new Map(), runEnded: false, runRedrivable: false };

/**
 * The entry's step in the execution that created the run's RUNNING record
 * needs no read: the run has just started, and its own checkpoint exists
 * only if a concurrent start of the same run committed it first, which the
 * conditional put tells (as after a stale miss).
 */
const firstOfNewRun = (x: Exec, inputs: InputKeys, attempts: readonly string[]): boolean => x.startedRun === true && namesNoInput(inputs, attempts);

/** The step on one read; 'missing' when an input or arrival was not found. */
async function stepOnRead(x: Exec, plan: StepPlan, inputs: InputKeys, attempts: readonly string[], consistent: boolean): Promise<StepOutcome | 'missing'> {
  const own = x.replaced ? [x.key, x.replaced] : [x.key];
  x.read = firstOfNewRun(x, inputs, attempts) ? NOTHING_READ : await x.rt.store.read([...own, ...inputs.checkpoints], inputs.shards, { consistent, stateAttempts: attempts, run: x.run });
  // Before the run's status: a branch of a failed state attempt is owed nothing, so it does not park in a FAILED run.
  if (await stoppedByFailedState(x, attempts)) return 'stopped';
  if (await nothingOwed(x, x.read)) return 'ended';
  const committed = x.read.checkpoints.get(x.key);
  const old = x.replaced === undefined ? undefined : x.read.checkpoints.get(x.replaced);
  // Once per execution: a redriven attempt's steps are inside a state with rules, whose reads are consistent, so
  // there is no second, consistent pass (exactlyOnceStep) to find the frames this may have changed.
  const chain = x.replaced === undefined ? undefined : chainBeforeCompute(x, committed, old);
  const work = await plan();
  if (work === 'stale') return 'missing';
  if (work === 'abandoned') return work;
  const reused = committed ? undefined : await reusableValue(x, old, chain);
  let ck: Committed;
  if (committed) {
    // A retry or duplicate after commit: skip user code, invoke the successors that have not committed.
    x.metrics.duplicates = 1;
    ck = fromCheckpoint(x.key, committed);
  } else if (reused) {
    // A redriven state's step that the failed attempt completed: its value, committed under this attempt's name.
    const value = fromCheckpoint(x.key, reused);
    ck = await commit(x, value.value, value.catchIndex);
  } else {
    const output = await work.computeOutput();
    if (!output) return 'missing';
    if (output === 'waiting') return output;
    const c = await commitment(x, work, output);
    if (c.runEnd !== undefined) return commitRunEnd(x, c.value, c.runEnd);
    ck = await commit(x, c.value, c.catchIndex);
  }
  if (chain) resumeChain(x, chain, ck, old, reused !== undefined);
  await work.afterCommit(ck);
  if (committed) return 'duplicate';
  if (reused) return x.metrics.duplicates ? 'duplicate' : 'reused';
  return ck.catchIndex === undefined ? 'committed' : 'caught';
}

/** The run record read says nothing is owed: the run has ended, or its deadline passed (a run a redrive resumes parks this invocation first). */
async function nothingOwed(x: Exec, read: ReadSet): Promise<boolean> {
  if (!(await runOver(x, read)) && !(await overByDeadline(x))) return false;
  x.metrics.duplicates = 1;
  return true;
}

/**
 * Whether the step's read would only guard it: it names no input, no state
 * attempt and no redriven attempt's checkpoint, so it holds the own
 * checkpoint and the run record. The entry's step in the execution that
 * created the run reads nothing at all (`firstOfNewRun`).
 */
const guardOnlyRead = (x: Exec, inputs: InputKeys, attempts: readonly string[]): boolean =>
  x.replaced === undefined && x.startedRun !== true && namesNoInput(inputs, attempts);

/**
 * A step whose read only guards it (docs/architecture.md "Exactly-once
 * protocol", the read beside the commit): the run record is read while the
 * checkpoint is put, and only the successors wait for both, so a step has
 * one DynamoDB round trip before its invokes instead of two. The own
 * checkpoint is not read: the conditional put returns it (ALL_OLD) when
 * another execution committed first, and the step goes on as a duplicate
 * with the stored value. What is given up is skipping user code on a
 * duplicate or in a run that has ended: the handler runs (its effects are
 * exactly-once through the effect log, as after any crash before the
 * commit), but nothing it computed reaches a successor. A value that ends
 * the run is committed into the run record, conditionally, and reads nothing.
 */
async function stepBesideRead(x: Exec, plan: StepPlan): Promise<StepOutcome> {
  const work = await plan();
  if (work === 'stale') return staleOrExpired(x);
  if (work === 'abandoned') return work;
  const output = await work.computeOutput();
  if (!output) return staleOrExpired(x);
  if (output === 'waiting') return output;
  const c = await commitment(x, work, output);
  if (c.runEnd !== undefined) return commitRunEnd(x, c.value, c.runEnd);
  const [ck, read] = await Promise.all([commit(x, c.value, c.catchIndex), x.rt.store.read([], [], { consistent: false, run: x.run })]);
  x.read = read;
  if (await nothingOwed(x, read)) return 'ended';
  await work.afterCommit(ck);
  if (x.metrics.duplicates) return 'duplicate';
  return ck.catchIndex === undefined ? 'committed' : 'caught';
}
