/** How a node invokes what comes next: one successor, a Parallel's branches, a Map's items, a fan-in, a Wait or a callback. */
import type { Json, JsonPath, PayloadTemplate } from './json';

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
 * `seconds` (0 s to 1 year), `timestamp` (RFC 3339), `secondsPath`,
 * `timestampPath` (reference paths, read after `inputPath`), or a JSONata
 * Wait's `secondsExpression` / `timestampExpression` (`{% %}` strings over
 * `$states.input`). `state` is the Wait's name, for the errors of a value
 * that is not a wait.
 */
export type WaitSpec = { readonly state: string; readonly inputPath?: JsonPath | null } & (
  | { readonly seconds: number }
  | { readonly timestamp: string }
  | { readonly secondsPath: JsonPath }
  | { readonly timestampPath: JsonPath }
  | { readonly secondsExpression: string }
  | { readonly timestampExpression: string }
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

/**
 * The event a run's timeout schedule delivers to the failure recorder at the
 * run's deadline (`deadline`, epoch ms: it ends the run only while the record
 * has that deadline, which a redrive replaces; absent in schedules created
 * before redrives did).
 */
export interface RunTimeoutEvent {
  readonly unumRunTimeout: { readonly workflowId: string; readonly timeoutSeconds: number; readonly deadline?: number };
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
  /** A JSONata Parallel: `arguments` instead of the paths. */
  readonly queryLanguage?: 'JSONata';
  /** JSONata: the branches' input, `{% %}` strings over `$states.input`. @default the state input */
  readonly arguments?: Json;
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
  /** A JSONata Map: `items` instead of `itemsPath` (then `$`), and `itemSelector` a JSONata template over `$states.input` and `$states.context.Map.Item`. */
  readonly queryLanguage?: 'JSONata';
  /** JSONata: the array to iterate over, an array or a `{% %}` expression that gives one. @default the state input */
  readonly items?: Json;
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
