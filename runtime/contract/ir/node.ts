/** A node's IR: its instructions, its handler, its Retry/Catch rules and its settings. */
import { IR_VERSION, type IoSpec, type Json, type JsonPath } from './json';
import type { BranchInput, CallbackSpec, Invoke, MapInvoke, MapItems, ParallelInvoke } from './invocations';
import type { Condition } from './conditions';

/**
 * Instructions run in order after the node's output is committed. They act on
 * an "outgoing context" (iteration, frames) that starts as the current
 * invocation's; `fanIn` pops the top frame itself (the paper's PopFanOut is
 * folded into it, since a branch tail always pops exactly the frame it joins).
 */
export type Instruction =
  /** Loop back edge: the next invocations run one iteration later (a new invocation name). */
  | { readonly op: 'incrIteration' }
  /**
   * Replace the outgoing value by what a Pass state with these fields computes
   * from it (ASL Pass: InputPath -> Parameters (or Result, when present, `null` included) -> ResultPath -> OutputPath).
   * Only at the start of a node's instructions (compiler guarantee): the runtime
   * applies the leading `pass`es to the node's output before it checkpoints, so
   * the checkpoint (read by reference, by a join, by the run record) holds the
   * value the following instructions and successors see. Not applied to a caught error.
   */
  | { readonly op: 'pass'; readonly result?: Json; readonly io?: IoSpec }
  | { readonly op: 'invoke'; readonly invoke: Invoke }
  /**
   * The Choice state `state`: the first matching rule wins; no match and no
   * `otherwise` = the run fails with States.NoChoiceMatched, recorded at `state`.
   */
  | { readonly op: 'choice'; readonly state: string; readonly rules: readonly ChoiceRule[]; readonly otherwise?: readonly Instruction[] }
  /** The run's result is this node's value (conditional write of the run record). */
  | { readonly op: 'succeed' }
  | FailInstruction;

/**
 * The Fail state `state`: the run fails (conditional write of the run record
 * naming `state`). The error and the cause are fixed strings or read from
 * the node's value (ASL `ErrorPath` / `CausePath`: a reference path, a context
 * path or an intrinsic function call that must give a string, else the run fails
 * with States.Runtime). Exactly one of `error` and `errorPath`; at most one of
 * `cause` and `causePath` (neither = an empty cause). A JSONata Fail's
 * `error` and `cause` may be `{% %}` expressions over `$states.input` that
 * must give strings (else States.QueryEvaluationError); it has no paths.
 */
export interface FailInstruction {
  readonly op: 'fail';
  readonly state: string;
  readonly queryLanguage?: 'JSONata';
  readonly error?: string;
  readonly errorPath?: string;
  readonly cause?: string;
  readonly causePath?: string;
}

export interface ChoiceRule {
  readonly when: Condition;
  readonly then: readonly Instruction[];
}

/** Step Functions-style retry of the handler, done inside the execution with a sleep. */
export interface RetryRule {
  /** Error names (`error.name`, or `States.ALL`, `States.TaskFailed`, `States.Timeout`). */
  readonly errors: readonly string[];
  /** @default 3 */
  readonly maxAttempts: number;
  /** Seconds before the first retry. @default 1 */
  readonly intervalSeconds: number;
  /** @default 2 */
  readonly backoffRate: number;
  /** Cap on the delay, seconds. */
  readonly maxDelaySeconds?: number;
  /** @default 'NONE' */
  readonly jitter: 'FULL' | 'NONE';
}

/** Route a handler error to another node with `{ Error, Cause }` as input (at `resultPath`). */
export interface CatchRule {
  readonly errors: readonly string[];
  readonly next: string;
  /** Where the error info goes in the node input. @default '$' (replaces it) */
  readonly resultPath?: JsonPath | null;
}

/** What computes the node's raw result from its (processed) input. */
export type HandlerSpec =
  /** A user function: `export` of the entry module bundled with the runtime. */
  | { readonly kind: 'user'; readonly export: string }
  /** No user code: the result is `result` when present (`null` included), else the input (a Pass state). */
  | { readonly kind: 'pass'; readonly result?: Json }
  /** Sequential aggregation over a fan-in's items: `export(acc, item, index)`, one invocation per item. */
  | { readonly kind: 'fold'; readonly export: string; readonly initial: Json };

/**
 * The join of a Parallel/Map: its tails, and the state's output processing
 * (ResultSelector -> ResultPath -> OutputPath, as in Step Functions), applied
 * to the branch outputs with the state input read from the fan-out origin's
 * checkpoint (docs/architecture.md "Joins"); a JSONata state's `outputs`
 * instead, over `$states.input` and `$states.result` (the branch outputs).
 */
export interface JoinSpec extends Pick<IoSpec, 'resultSelector' | 'resultPath' | 'outputPath' | 'queryLanguage' | 'outputs'> {
  /** Tail nodes that may arrive at this join; an arrival records the tail's position in this list. */
  readonly tails: readonly string[];
  /**
   * A Parallel's join: per branch, the position in `tails` of the one tail
   * the branch ends at, or -1 when it may end at several. The join reads
   * those branches' first-pass outputs with its shards (one read round trip).
   * @default none (a Map's join: every item ends at its one tail when `tails` has one)
   */
  readonly branchTails?: readonly number[];
  /**
   * The Parallel's / Map's Retry rules: when a branch fails the state and a
   * rule matches, the join runs `fanOut` again from the state input, one
   * iteration later (docs/architecture.md "Retry and Catch on Parallel and
   * Map"). Its Catch rules are the join node's `catch`. Present on every
   * state with Retry or Catch rules (`rules` empty when it has no Retry): a
   * redrive of a failure no rule handled runs `fanOut` again too.
   * @default none (a state without Retry or Catch rules)
   */
  readonly retry?: StateRetry;
}

/** A Parallel's / Map's Retry rules and the fan-out that they, and a redrive, run again. */
export interface StateRetry {
  readonly rules: readonly RetryRule[];
  readonly fanOut: ParallelInvoke | MapInvoke;
}

/** The join that collects the branches of a fan-out: its node and that node's `join.tails`. */
export interface EnclosingJoin {
  readonly node: string;
  readonly tails: readonly string[];
}

export interface NodeSettings {
  /** Values whose JSON is larger than this travel by reference to their checkpoint. */
  readonly inlineLimitBytes: number;
  /** Default bound on concurrent invokes from one execution (map launches). */
  readonly invokeConcurrency: number;
  /** Retention of checkpoints and fan-in shards in seconds (TTL); >= maxEventAge + timeout. */
  readonly checkpointTtlSeconds: number;
  /** Retention of the run record in seconds. */
  readonly runRetentionSeconds: number;
  /**
   * The handler's timeout in seconds: a handler still running after it fails
   * with States.Timeout (Step Functions' TimeoutSeconds). The construct gives
   * the function a longer timeout, for the runtime's work around the handler.
   */
  readonly timeoutSeconds: number;
  /**
   * Seconds from an execution's start to the start of an execution it invokes,
   * at most: the workflow's longest function timeout plus its longest maximum
   * event age (Lambda's retries included). The run's lease is renewed two
   * handoffs before it ends (docs/architecture.md "Retention").
   */
  readonly handoffSeconds: number;
  /**
   * Keep an append-only log of the run's transitions in the table (items
   * `hist#<workflow>#<workflowId>` and `hist#<workflow>#<workflowId>#<seq>`, format in docs/deploying-and-operating.md, "Run history: the item format"),
   * retained as long as the run record (`runRetentionSeconds`). Absent = off.
   */
  readonly history?: boolean;
  /**
   * The most invokes one execution sends to launch a Map's items: a Map that
   * launches more at once (all its items, or a bounded Map's first
   * `maxConcurrency`) launches them through a tree of launchers
   * (docs/architecture.md "Launch tree"). Absent = `DEFAULT_LAUNCH_WIDTH`.
   */
  readonly launchWidth?: number;
  /**
   * The workflow's `timeout` (ASL `TimeoutSeconds`): a run still running this
   * long after its start is TIMED_OUT (docs/architecture.md "Stop and run
   * timeout"). Absent = none.
   */
  readonly runTimeoutSeconds?: number;
}

/**
 * Launch width when `NodeSettings.launchWidth` is absent: at most 128 invokes
 * per execution, and one launcher per 128 items (under 1 % more invocations).
 */
export const DEFAULT_LAUNCH_WIDTH = 128;

export interface NodeIR {
  readonly version: typeof IR_VERSION;
  readonly workflow: string;
  readonly node: string;
  /**
   * The state whose work the node's function does, as the definition names it
   * (an ASL state name may hold characters a node name cannot): the context's
   * `$$.State.Name`, and the state run records and the history name. An
   * implicit origin, join or enter node does the work of its Parallel, Map or
   * Choice. @default the node's name
   */
  readonly state?: string;
  /**
   * The node that starts a run. It accepts start requests only, never an
   * envelope: the compiler gives a workflow whose first state has
   * predecessors (a loop target) an implicit start node, so the entry has none.
   */
  readonly entry: boolean;
  readonly handler: HandlerSpec;
  readonly io?: IoSpec;
  /** Present when this node is the target of a fan-in. */
  readonly join?: JoinSpec;
  /**
   * Present on the start of a Map's item processor: the Map's item spec, to
   * rebuild an item too large to travel inline from the origin's checkpoint.
   */
  readonly mapItems?: MapItems;
  /**
   * Present on the start of a Parallel branch whose Parallel has InputPath or
   * Parameters: a `ref` to the top frame's origin (the branch input was too
   * large to travel inline) is rebuilt from the state input with it.
   */
  readonly branchInput?: BranchInput;
  /**
   * Present on nodes inside a Parallel branch or a Map item: the join of the
   * innermost fan-out around them (the last frame of their invocations). The
   * runtime writes it into that frame, so that every execution inside knows
   * the joins of all its frames, and renews their state (docs/architecture.md "Retention").
   */
  readonly enclosingJoin?: EnclosingJoin;
  /**
   * Present on nodes inside a Parallel branch or Map item when that
   * Parallel/Map, or one around it, has Retry or Catch rules: an error no
   * rule of this node handles, or a Fail, fails the innermost enclosing state
   * once (its join decides), instead of going back to Lambda or ending the run.
   */
  readonly stateErrors?: true;
  readonly retry?: readonly RetryRule[];
  readonly catch?: readonly CatchRule[];
  /**
   * Present on a Task that waits for its task token (`WAIT_FOR_TASK_TOKEN`):
   * the handler hands the token out, and the task's result is what a
   * completion sends (docs/architecture.md "Callbacks").
   */
  readonly callback?: CallbackSpec;
  readonly instructions: readonly Instruction[];
  readonly settings: NodeSettings;
  /**
   * The deployment this IR belongs to (`DEPLOYMENT_ID_PATTERN`): written
   * into every envelope the node sends, and an envelope of another deployment
   * is refused. Filled by the construct; the compiler leaves it empty.
   */
  readonly deployment: string;
  /**
   * Deployed function name of every node this node may invoke (including
   * itself for loops and folds), qualified with the deployment's alias
   * (`name:<deployment>`), so a run never leaves its deployment. Filled by
   * the construct; the compiler leaves it empty.
   */
  readonly functionNames: Readonly<Record<string, string>>;
}
