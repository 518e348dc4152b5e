/**
 * The intermediate representation (IR): the contract between the compiler
 * (lib/compiler, which produces it), the construct (lib/construct, which ships
 * one IR per function as `unum-ir.json` beside the bundle) and the runtime
 * (runtime/, which interprets it). This file is the ONLY place IR shapes are
 * defined. Everything here is plain JSON: no functions, no classes.
 *
 * Semantics are specified in docs/architecture.md ("The IR").
 */

/** Bump on any incompatible change; the runtime rejects IR of another version. */
export const IR_VERSION = 1 as const;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A JSONPath as Step Functions reads it (grammar in runtime/language/paths.ts). Per
 * field: a reference path (`resultPath`, `itemsPath`, condition paths) has
 * names and non-negative indexes only (`$`, `$.a.b`, `$.a[0]`, `$['a b']`);
 * `inputPath` and `outputPath` may also use `*`, slices (`[1:]`), negative
 * indexes, filters (`[?(@.x > 1)]`) and `..`, selecting an array; template
 * values may also read the context object (`$$.Execution.Id`).
 */
export type JsonPath = string;

/**
 * A payload template as in ASL `Parameters` / `ResultSelector` / `ItemSelector`:
 * plain JSON, where a key ending in `.$` takes its value from a path
 * (`"x.$": "$.a"`), a context path (`"$$.Map.Item.Value"`) or an intrinsic
 * function call (`"States.Format('{}', $.a)"`), parsed by the runtime (never evaluated as code).
 */
export type PayloadTemplate = Json;

/** ASL-style input/output processing applied around a node's handler (the DSL's `IoProps`). */
export interface IoSpec {
  /** Selects the handler's input from the node input; `null` gives `{}`. @default '$' */
  readonly inputPath?: JsonPath | null;
  /** Builds the handler's input from the selected input (keys ending in `.$` take paths). @default the selected input */
  readonly parameters?: PayloadTemplate;
  /** Builds the result from the handler's raw result. @default the raw result */
  readonly resultSelector?: PayloadTemplate;
  /** Where the result goes in the node input; `null` discards it and keeps the input. @default '$' (the result replaces the input) */
  readonly resultPath?: JsonPath | null;
  /** Selects the node output from the combined document; `null` gives `{}`. @default '$' */
  readonly outputPath?: JsonPath | null;
}

// ---------------------------------------------------------------- conditions

export type ComparisonType = 'string' | 'number' | 'boolean' | 'timestamp';
export type ComparisonOperator = 'eq' | 'lt' | 'gt' | 'le' | 'ge';
export type TypeTest = 'present' | 'null' | 'string' | 'number' | 'boolean' | 'timestamp';

/**
 * A typed, serializable boolean expression over the committed output of a node.
 * Interpreted by runtime/language/condition.ts; never compiled to code.
 * As in Step Functions, a path that is absent fails the run with
 * States.Runtime (only the `present` test tests for absence), and a
 * comparison with a value of another type is false.
 */
export type Condition =
  | { readonly kind: 'compare'; readonly type: ComparisonType; readonly op: ComparisonOperator; readonly path: JsonPath; readonly value: string | number | boolean }
  | { readonly kind: 'comparePath'; readonly type: ComparisonType; readonly op: ComparisonOperator; readonly path: JsonPath; readonly otherPath: JsonPath }
  /** ASL StringMatches: `*` matches any run of characters, `\*` and `\\` escape. */
  | { readonly kind: 'matches'; readonly path: JsonPath; readonly pattern: string }
  /** isPresent / isNull / isString / isNumeric / isBoolean / isTimestamp; `expected` false negates. */
  | { readonly kind: 'test'; readonly test: TypeTest; readonly path: JsonPath; readonly expected: boolean }
  | { readonly kind: 'and'; readonly all: readonly Condition[] }
  | { readonly kind: 'or'; readonly any: readonly Condition[] }
  | { readonly kind: 'not'; readonly arg: Condition };

// ---------------------------------------------------------------- invocations

/**
 * Where a fan-in's branch count comes from: a static number (Parallel: the
 * number of branches) or `'frame'` (Map: the size recorded in the fan-out frame).
 */
export type FanInSize = number | 'frame';

/** Invoke one successor with this node's value; fan-out frames unchanged. */
export interface ScalarInvoke {
  readonly kind: 'scalar';
  readonly target: string;
  /** The target is a Wait state: the invoke is delivered at the wait's due time, by a one-time schedule (docs/architecture.md "Waits"). */
  readonly wait?: WaitSpec;
}

/**
 * When a Wait ends, from the value that reaches it: exactly one of
 * `seconds` (1 s to 1 year), `timestamp` (RFC 3339), `secondsPath`,
 * `timestampPath` (reference paths, read after `inputPath`). `state` is the
 * Wait's name, for the errors of a path whose value is not a wait.
 */
export type WaitSpec = { readonly state: string; readonly inputPath?: JsonPath | null } & (
  | { readonly seconds: number }
  | { readonly timestamp: string }
  | { readonly secondsPath: JsonPath }
  | { readonly timestampPath: JsonPath }
);

/**
 * A Task that waits for its task token: it ends when a completion arrives
 * (success, failure), or fails with `States.Timeout` `timeoutSeconds` after
 * its handler started, or with `States.HeartbeatTimeout` when no heartbeat
 * came for `heartbeatSeconds`.
 */
export interface CallbackSpec {
  /** 1 s to one year (`MAX_WAIT_SECONDS`, also the default). */
  readonly timeoutSeconds: number;
  /** Less than `timeoutSeconds`. @default no heartbeat */
  readonly heartbeatSeconds?: number;
}

/** What completes (or keeps alive) a callback Task, besides its token. */
export type TaskOutcome =
  | { readonly success: Json }
  | { readonly failure: { readonly error: string; readonly cause: string } }
  | { readonly heartbeat: true }
  /**
   * Sent by the task's own schedules only: its timeout, or a heartbeat check
   * made after heartbeat number `beats` (0: the handler's start), void when a later one came.
   */
  | { readonly timeout: 'States.Timeout' }
  | { readonly timeout: 'States.HeartbeatTimeout'; readonly beats: number };

/** The event a callback Task's function takes besides envelopes: a completion, a heartbeat or a timeout of one task token. */
export interface TaskResponseEvent {
  readonly unumTask: { readonly token: string } & TaskOutcome;
}

/** The event a run's timeout schedule delivers to the failure recorder at the run's deadline. */
export interface RunTimeoutEvent {
  readonly unumRunTimeout: { readonly workflowId: string; readonly timeoutSeconds: number };
}

/** What a callback Task's function answers to a `TaskResponseEvent`. */
export interface TaskResponseAnswer {
  /** `completed`: this response committed the task; `alreadyCompleted`: another did first, nothing changed; `invalid`: no such waiting task, nothing written. */
  readonly task: 'completed' | 'alreadyCompleted' | 'heartbeat' | 'invalid';
  readonly reason?: string;
}

/** The longest wait (Step Functions' run limit, and what Scheduler's one-time schedules are used for here): one year. */
export const MAX_WAIT_SECONDS = 365 * 24 * 3600;

/**
 * How a Parallel makes its branches' input from its state input (the
 * origin's value): InputPath, then Parameters, with `$$.State.Name` = `state`.
 */
export interface BranchInput {
  /** The Parallel state's name, the context's `$$.State.Name`. */
  readonly state: string;
  /** `null` gives `{}`. @default '$' */
  readonly inputPath?: JsonPath | null;
  /** @default the selected input */
  readonly parameters?: PayloadTemplate;
}

/**
 * Parallel fan-out: invoke `targets[i]` (the first node of branch i) with this
 * node's value (through `input`, when present), pushing frame {index: i, size:
 * targets.length, kind: 'parallel'}. Before invoking, create the fan-in state of `join`.
 * The origin's checkpoint holds the state input, which the join reads for its ResultPath.
 */
export interface ParallelInvoke {
  readonly kind: 'parallel';
  readonly targets: readonly string[];
  /** The node that receives the branch outputs (in branch order) once all arrived. */
  readonly join: string;
  /** The branches' input from the state input; absent = the state input itself. */
  readonly input?: BranchInput;
}

/** How a Map makes its items from the origin's value (the state input). */
export interface MapItems {
  /** Applied to the state input first; `null` gives `{}`. @default '$' */
  readonly inputPath?: JsonPath | null;
  /** @default '$' */
  readonly itemsPath: JsonPath;
  /** Builds each item's input; context `$$.Map.Item.Value` / `$$.Map.Item.Index`. @default the item */
  readonly itemSelector?: PayloadTemplate;
  /** The Map state's name, the item selector's `$$.State.Name` (set with `itemSelector`). @default the node's `state` */
  readonly state?: string;
}

/**
 * Map fan-out: for each item of the array at `itemsPath` of this node's value,
 * invoke `target` pushing frame {index: i, size: n, kind: 'map'}.
 * With n = 0 the join is invoked at once with an empty array.
 */
export interface MapInvoke extends MapItems {
  readonly kind: 'map';
  readonly target: string;
  readonly join: string;
  /**
   * At most this many items run at once (0 = no bound): the origin launches
   * the first N, and the tail that completes item i launches item i + N
   * (`FanInInvoke.launch`; docs/architecture.md "Bounded Maps").
   */
  readonly maxConcurrency: number;
}

/**
 * On the tails of a Map with `maxConcurrency` N > 0: once item i's arrival is
 * recorded, launch item i + N (when it exists) at `target`, the item
 * processor's start, which rebuilds it from the origin's checkpoint.
 */
export interface ItemLaunch {
  readonly target: string;
  readonly maxConcurrency: number;
}

/**
 * Branch tail: record arrival of this branch (top frame's index) in the fan-in
 * state of `target`, pop the frame, and if all `size` branches have arrived,
 * invoke `target` with a fan-in input reference.
 */
export interface FanInInvoke {
  readonly kind: 'fanIn';
  readonly target: string;
  readonly size: FanInSize;
  /** This tail's position in the join node's `join.tails` list (encoded in the arrival record). */
  readonly tail: number;
  /** Present on the tails of a bounded Map: the next item this one's completion launches. */
  readonly launch?: ItemLaunch;
}

export type Invoke = ScalarInvoke | ParallelInvoke | MapInvoke | FanInInvoke;

// ---------------------------------------------------------------- instructions

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
 * `cause` and `causePath` (neither = an empty cause).
 */
export interface FailInstruction {
  readonly op: 'fail';
  readonly state: string;
  readonly error?: string;
  readonly errorPath?: string;
  readonly cause?: string;
  readonly causePath?: string;
}

export interface ChoiceRule {
  readonly when: Condition;
  readonly then: readonly Instruction[];
}

// ---------------------------------------------------------------- error handling

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

// ---------------------------------------------------------------- node IR

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
 * checkpoint (docs/architecture.md "Joins").
 */
export interface JoinSpec extends Pick<IoSpec, 'resultSelector' | 'resultPath' | 'outputPath'> {
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
   * `hist#<workflow>#<workflowId>` and `hist#<workflow>#<workflowId>#<seq>`, format in docs/client.md),
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
   * Deployed function name of every node this node may invoke (including
   * itself for loops and folds). Filled by the construct; the compiler leaves it empty.
   */
  readonly functionNames: Readonly<Record<string, string>>;
}

// ---------------------------------------------------------------- envelope

/** Envelope format version: 2 added `workflow`. */
export const ENVELOPE_VERSION = 2 as const;

/**
 * Bounds every envelope field is checked against before anything is read or
 * written (docs/architecture.md "The envelope"), each from a real limit.
 */
export const ENVELOPE_BOUNDS = {
  /**
   * Branches of one fan-out (frame and fan-in `size`, fold items). A Map's
   * items come from its origin's checkpoint, at most 400 KB of JSON and at
   * least 2 bytes an item, so about 204,000 items; a Parallel has one branch
   * per state in the definition.
   */
  fanOutSize: 2 ** 18,
  /** Nested fan-outs (Map/Parallel inside Map/Parallel); the compiler rejects deeper definitions. */
  depth: 32,
  /**
   * Loop iterations (the envelope's and a frame's). With `fanOutSize`, it
   * keeps every fan-in arrival code `(iteration * size + index) * 1024 + tail`
   * below 2^53 (an exact number); a loop that would go past it fails the run.
   */
  iteration: 2 ** 25 - 1,
} as const;

/** One level of fan-out, pushed by the origin, popped by the branch tail's fanIn. */
export interface FanOutFrame {
  readonly index: number;
  readonly size: number;
  readonly kind: 'map' | 'parallel';
  /** The iteration of the level that fanned out, restored when the frame is popped. */
  readonly iteration: number;
  /** Checkpoint key of the fan-out origin (the state input, which the join may read). */
  readonly origin: string;
  /** The join of this fan-out, written by the nodes inside it (`NodeIR.enclosingJoin`). */
  readonly join?: EnclosingJoin;
  /**
   * A bounded Map's origin node (a `mapItem`'s `state`): the tail that
   * completes an item launches a later one by reference to the origin's
   * checkpoint, and the origin may be any of the nodes a Map is folded into.
   */
  readonly originNode?: string;
  /**
   * Set by a redrive's next attempt of a Parallel/Map state: the iteration of
   * the failed attempt this fan-out replaces. Every step inside reads its
   * checkpoint of that attempt too and reuses a committed value instead of
   * running again (runtime/step/step/redrive-reuse.ts).
   */
  readonly replaces?: number;
}

/** Where an input value comes from. */
export type InputRef =
  | { readonly value: Json }
  /** Key of the checkpoint item holding the value. */
  | { readonly ref: string }
  /**
   * Map item `index`, too large to travel inline: rebuilt from the origin's
   * checkpoint with this node's `mapItems`. `state` is the selector's
   * `$$.State.Name` (the Map state's name), so the item equals the one sent inline.
   */
  | { readonly mapItem: { readonly origin: string; readonly index: number; readonly state: string } }
  /**
   * To an item processor's start: launch the Map's items `from` .. `to - 1`
   * (or launchers of parts of that range), rebuilt from the origin's
   * checkpoint as a `mapItem` is. The top frame is item `from`'s; `state` is
   * the origin node (the items' `mapItem.state`). Commits nothing.
   */
  | { readonly launch: LaunchRange }
  /** The outputs of all branches of a fan-in, in branch order. */
  | { readonly fanIn: FanInRef }
  /** A branch of this fan-in failed the state; the error is its state failure record (runtime/contract/table.ts). */
  | { readonly failed: FanInRef };

/** A launcher's range of a Map's items (docs/architecture.md "Launch tree"). */
export interface LaunchRange {
  readonly origin: string;
  readonly from: number;
  readonly to: number;
  readonly state: string;
}

/** A fan-in: its join's invocation name, its size and its origin's checkpoint key. */
export interface FanInRef {
  readonly join: string;
  readonly size: number;
  readonly origin: string;
}

export interface FoldState {
  /** Index of the item this step folds. */
  readonly index: number;
  /** Checkpoint keys of all items, in order (materialised by the first step). */
  readonly items: readonly string[];
}

export interface EnvelopeHeader {
  readonly v: typeof ENVELOPE_VERSION;
  /** The workflow that sent it: a function of another workflow (sharing the table) rejects it. */
  readonly workflow: string;
  readonly workflowId: string;
  /** The node this envelope is addressed to. */
  readonly node: string;
  readonly iteration: number;
  readonly fanOut: readonly FanOutFrame[];
  /** Exactly one input (a fan-in is one `fanIn` input; a fold step has acc + item refs in `fold`). */
  readonly inputs: readonly InputRef[];
  /** Checkpoint key of the predecessor, sent only to an empty Map's join, which reads the state input from it. */
  readonly parent?: string;
  readonly fold?: FoldState;
  /**
   * Epoch seconds until which the run keeps what it will read again: its run
   * record, the state of the fan-ins of `fanOut` and the items of `fold`.
   * Renewed by the execution that finds it close (docs/architecture.md
   * "Retention"); absent = renew now.
   */
  readonly lease?: number;
  /**
   * The redrive that re-sent this event (the run's redrive count then,
   * docs/architecture.md "Redrive"); absent = none, generation 0. Only the
   * re-sent invocation carries it, not its successors.
   */
  readonly redrive?: number;
}

/** What a non-start invocation receives. */
export interface Envelope {
  readonly unum: EnvelopeHeader;
}

/**
 * An explicit start request to the entry function: exactly these keys. Any
 * other event is the raw input, except an object with an `input`,
 * `workflowId` or `unum` key that is not exactly this: such an event is
 * rejected (docs/architecture.md "The envelope").
 */
export interface StartRequest {
  readonly workflowId?: string;
  readonly input: Json;
  /** The redrive that re-sent this start (as `EnvelopeHeader.redrive`). */
  readonly redrive?: number;
}

/** Allowed workflow ids (run ids): 1-128 characters of this set. */
export const WORKFLOW_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Environment variables the construct sets on every workflow function. */
export const ENV = {
  table: 'UNUM_TABLE',
  /** Failure recorder: the workflow's name (its run records are keyed with it). */
  workflow: 'UNUM_WORKFLOW',
  /** Optional override of the IR file path (default: `unum-ir.json` beside the bundle). */
  irFile: 'UNUM_IR_FILE',
  /** Failure recorder: the entry node, to which a failed event without an envelope was addressed. */
  entryNode: 'UNUM_ENTRY_NODE',
  /** Failure recorder: optional SQS queue URL to forward failure records to. */
  failureQueueUrl: 'UNUM_FAILURE_QUEUE_URL',
  /** Failure recorder: optional SNS topic ARN to forward failure records to. */
  failureTopicArn: 'UNUM_FAILURE_TOPIC_ARN',
  /** Failure recorder: the run retention in seconds, the TTL of the records it writes. */
  runRetention: 'UNUM_RUN_RETENTION',
  /** Failure recorder: `true` when the workflow keeps a run history. */
  history: 'UNUM_HISTORY',
  /** Functions before a Wait: the EventBridge Scheduler group their wake-up schedules go to. */
  scheduleGroup: 'UNUM_SCHEDULE_GROUP',
  /** Functions before a Wait: the role Scheduler assumes to invoke the function after it. */
  schedulerRoleArn: 'UNUM_SCHEDULER_ROLE_ARN',
  /** Functions before a Wait: `arn:<partition>:lambda:<region>:<account>:function:`, which a schedule's target ARN starts with. */
  functionArnPrefix: 'UNUM_FUNCTION_ARN_PREFIX',
  /** The task-response function: the functions of the workflow's callback Tasks, by node (JSON). */
  taskFunctions: 'UNUM_TASK_FUNCTIONS',
  /** The entry of a workflow with a `timeout`: the function its run-timeout schedules invoke (the failure recorder). */
  runTimeoutFunction: 'UNUM_RUN_TIMEOUT_FUNCTION',
} as const;

/** The IR file name inside each function's asset. */
export const IR_FILE_NAME = 'unum-ir.json';

/** The failure recorder's spec file inside its asset. */
export const RECORDER_FILE_NAME = 'unum-recorder.json';

/** What the failure recorder knows of a node (it has no IR): the state it runs, and the state an unhandled failure of it fails. */
export interface RecorderNode {
  /** The state the node runs, where it differs from the node's name (IR `state`). */
  readonly state?: string;
  /**
   * The join of the innermost Parallel/Map around the node, when the node has
   * `stateErrors`: a failure Lambda gave up on fails that state, not the run.
   */
  readonly stateJoin?: string;
}

/**
 * The failure recorder's spec (`unum-recorder.json`), written by the
 * construct from the compiled nodes: per node what it runs and which state it
 * fails, and the function names of those states' joins, which it invokes.
 */
export interface RecorderSpec {
  readonly nodes: Readonly<Record<string, RecorderNode>>;
  readonly functionNames: Readonly<Record<string, string>>;
  /** The workflow's retention settings: a failure the recorder records is parked for a redrive until they say (absent: not parked). */
  readonly retention?: Readonly<Pick<NodeSettings, 'checkpointTtlSeconds' | 'handoffSeconds'>>;
}

/** CloudWatch EMF namespace and metric names emitted by the runtime. */
export const METRICS = {
  namespace: 'Unum',
  transitions: 'Transitions',
  duplicates: 'DuplicateExecutions',
  fanInCompletions: 'FanInCompletions',
  failures: 'Failures',
  userCodeDuration: 'UserCodeDuration',
  rejectedEvents: 'RejectedEvents',
} as const;
