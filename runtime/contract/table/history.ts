/** The optional run history `hist#<workflow>#<workflowId>#<seq>`: one entry per transition. */
import { boundedError } from '../errors';
import { type RunRef, historyKey } from './keys';
import { type Item, N, type PutRequest, S, type UpdateRequest, newItem, num, put, str, update } from './encoding';
import { timestamp } from './run-record';

/*
 * Why a counter: the table has a partition key only, so items of one run can be
 * listed without a Scan only if their keys are predictable. A per-run counter
 * (`n`, the last sequence number handed out) hands out dense sequence numbers,
 * and a reader fetches entries `1..n` by key.
 */

/** The counter's update: `n` + 1 (returned), TTL set when the counter is new. */
export const historyCount = (run: RunRef, ttl: number): UpdateRequest =>
  update(historyKey(run), 'ADD n :n SET #ttl = if_not_exists(#ttl, :t)', { ':n': N(1), ':t': N(ttl) });

/** The counter's `n`: the number of sequence numbers handed out (0 without a counter). */
export const decodeHistoryCount = (item: Item | undefined): number => Number(item?.n?.N ?? 0);

/** What the logged invocation did. */
export type HistoryOutcome =
  /** The handler's value was committed (its checkpoint put succeeded). */
  | 'committed'
  /** The handler's error was caught by a catch rule and `{Error, Cause}` committed. */
  | 'caught'
  /** The invocation ended the run FAILED (fail instruction, no choice match, or the failure recorder). */
  | 'failed';

const OUTCOMES: readonly string[] = ['committed', 'caught', 'failed'] satisfies HistoryOutcome[];

/** One item of the transition log. */
export interface HistoryEntry {
  readonly seq: number;
  readonly node: string;
  /** The state the node runs (`NodeIR.state`): the node's name unless the definition names it otherwise. */
  readonly state: string;
  /** Invocation name (the checkpoint key without its prefix). */
  readonly invocation: string;
  readonly iteration: number;
  /** Fan-out indexes of the invocation, outermost first (`[]` outside any map or parallel). */
  readonly indexes: readonly number[];
  /** ISO-8601 time of the commit. */
  readonly at: string;
  readonly outcome: HistoryOutcome;
  readonly durationMs?: number;
  /** Attempts of the handler in this execution, when its retry rules retried it (2 or more). */
  readonly attempts?: number;
  /** With `attempts`: the error names of the attempts that were retried, in order (the last `HISTORY_RETRIED_KEPT`). */
  readonly retried?: readonly string[];
  /** Nodes this invocation invoked. */
  readonly next?: readonly string[];
  /** For a fan-out origin: the join's invocation name and the number of branches. */
  readonly fanIn?: { readonly join: string; readonly size: number };
  /** For a join (or a fold's first step): the invocation name of the fan-in it received, that is, a fan-out origin's `fanIn.join`. */
  readonly joined?: string;
  /** For `caught` and `failed`; `state` names where a run failed (a Fail or Choice state, or the node's state). */
  readonly error?: { readonly state?: string; readonly error: string; readonly cause?: string };
  /** On the entry node's entries (the run's first): the deployment the run started on. Absent in entries written before deployments were pinned. */
  readonly deployment?: string;
}

/** How many retried error names an entry keeps: a rule may retry thousands of times, an item holds 400 KB. */
export const HISTORY_RETRIED_KEPT = 20;

/**
 * The names of the retried errors among `attempts` attempts: every attempt but
 * the last (which succeeded, or whose error went on to a catch rule or to
 * Lambda), the last `HISTORY_RETRIED_KEPT`, each within `ERROR_BOUNDS`.
 */
export const retriedErrors = (attemptErrors: readonly string[], attempts: number): string[] =>
  attemptErrors.slice(0, Math.max(0, attempts - 1)).slice(-HISTORY_RETRIED_KEPT).map((e) => boundedError({ error: e }).error);

/** An entry's attributes besides key and TTL, as plain values; undefined ones are not written. */
export interface HistoryItem {
  readonly node: string;
  /** Only when it differs from `node`. */
  readonly state?: string;
  readonly inv: string;
  readonly iteration: number;
  readonly indexes: string;
  readonly at: string;
  readonly outcome: HistoryOutcome;
  readonly durationMs?: number;
  readonly attempts?: number;
  readonly retried?: string;
  readonly next?: string;
  readonly fanInJoin?: string;
  readonly fanInSize?: number;
  readonly joined?: string;
  readonly error?: string;
  readonly dep?: string;
}

/** What an entry tells besides the invocation's identity. */
export interface Transition {
  /** Nodes the invocation invokes (a branch tail: its join). */
  readonly next?: readonly string[];
  /** A fan-out origin: the join's invocation name and the number of branches. */
  readonly join?: string;
  /** With `join`. */
  readonly size?: number;
  readonly error?: { readonly state?: string; readonly error: string; readonly cause?: string };
}

/** What the execution that appends an entry knows of itself. */
export interface ExecutionFacts {
  /** The node's state, when it differs from the node's name. */
  readonly state?: string;
  /** User-code time, when user code ran in this execution. */
  readonly durationMs?: number;
  /** The errors of the handler's attempts in this execution, in order. */
  readonly attemptErrors?: readonly string[];
  readonly attempts?: number;
  /** The fan-in this execution received. */
  readonly joined?: string;
  /** The entry's execution: the deployment the run starts on. */
  readonly deployment?: string;
}

/**
 * An entry's attributes; `inv` is the invocation name, `frames` the fan-out
 * frames (outermost first); an error is cut to `ERROR_BOUNDS`, the retried
 * errors to the last `HISTORY_RETRIED_KEPT` names within it.
 */
export function historyItem(
  node: string,
  inv: string,
  iteration: number,
  frames: readonly { readonly index: number }[],
  outcome: HistoryOutcome,
  t: Transition,
  facts: ExecutionFacts = {},
): HistoryItem {
  const attempts = facts.attempts ?? 0;
  // Undefined attributes are not written; JSON.stringify drops an undefined `cause`.
  return {
    node,
    state: facts.state,
    inv,
    iteration,
    indexes: JSON.stringify(frames.map((f) => f.index)),
    at: new Date().toISOString(),
    outcome,
    durationMs: facts.durationMs,
    attempts: attempts > 1 ? attempts : undefined,
    retried: attempts > 1 ? JSON.stringify(retriedErrors(facts.attemptErrors ?? [], attempts)) : undefined,
    next: t.next && JSON.stringify(t.next),
    fanInJoin: t.join,
    fanInSize: t.size,
    joined: facts.joined,
    error: t.error && JSON.stringify(boundedError(t.error)),
    dep: facts.deployment || undefined,
  };
}

/** Entry `seq` of a run; put without a condition: the key is new. */
export function historyEntryPut(run: RunRef, seq: number, entry: HistoryItem, ttl: number): PutRequest {
  const item = newItem(historyKey(run, seq), ttl);
  for (const [k, v] of Object.entries(entry)) if (v !== undefined) item[k] = typeof v === 'number' ? N(v) : S(v);
  return put(item);
}

function json(item: Item, name: string): unknown {
  const s = str(item, name);
  return s === undefined ? undefined : JSON.parse(s);
}

/** Reads one entry item; undefined if it does not have the required attributes (a foreign or torn write). */
export function decodeHistoryEntry(seq: number, item: Item): HistoryEntry | undefined {
  const node = str(item, 'node');
  const invocation = str(item, 'inv');
  const at = timestamp(item, 'at');
  const outcome = str(item, 'outcome');
  if (node === undefined || invocation === undefined || at === undefined || outcome === undefined || !OUTCOMES.includes(outcome)) {
    return undefined;
  }
  const durationMs = num(item, 'durationMs');
  const attempts = num(item, 'attempts');
  const retried = json(item, 'retried');
  const next = json(item, 'next');
  const join = str(item, 'fanInJoin');
  const size = num(item, 'fanInSize');
  const joined = str(item, 'joined');
  const deployment = str(item, 'dep');
  const error = json(item, 'error') as { state?: unknown; error?: unknown; cause?: unknown } | undefined;
  return {
    seq,
    node,
    state: str(item, 'state') ?? node,
    invocation,
    iteration: num(item, 'iteration') ?? 0,
    indexes: (json(item, 'indexes') as number[] | undefined) ?? [],
    at,
    outcome: outcome as HistoryOutcome,
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(attempts !== undefined ? { attempts } : {}),
    ...(Array.isArray(retried) ? { retried: retried.map(String) } : {}),
    ...(Array.isArray(next) ? { next: next.map(String) } : {}),
    ...(join !== undefined && size !== undefined ? { fanIn: { join, size } } : {}),
    ...(joined !== undefined ? { joined } : {}),
    ...(deployment !== undefined ? { deployment } : {}),
    ...(error && typeof error === 'object'
      ? {
          error: {
            ...(error.state != null ? { state: String(error.state) } : {}),
            error: String(error.error ?? 'Error'),
            ...(error.cause !== undefined ? { cause: String(error.cause) } : {}),
          },
        }
      : {}),
  };
}
