/**
 * The optional per-run transition log (`history: true`). The runtime writes it
 * (runtime/history.ts, keys from runtime/naming.ts); the client only reads it.
 * The format is specified in docs/client.md ("Run history: the item format");
 * keep the two in step.
 *
 * Why a counter: the table has a partition key only, so items of one run can be
 * listed without a Scan only if their keys are predictable. A per-run counter
 * hands out dense sequence numbers, and the reader fetches `1..n` by key.
 */
import type { Json } from '../../runtime/ir';
import { historyKey } from '../../runtime/naming';
import { Item, num, str, timestamp } from './records';

export const HISTORY = {
  /** Counter item of a run: `n` = the last sequence number handed out. */
  counterKey: (workflowId: string): string => historyKey(workflowId),
  /** Entry `seq` (1, 2, ...) of a run. */
  entryKey: (workflowId: string, seq: number): string => historyKey(workflowId, seq),
} as const;

/** What the logged invocation did. */
export type HistoryOutcome =
  /** The handler's value was committed (its checkpoint put succeeded). */
  | 'committed'
  /** The handler's error was caught by a catch rule and `{Error, Cause}` committed. */
  | 'caught'
  /** The invocation ended the run FAILED (fail instruction, no choice match, or the failure recorder). */
  | 'failed';

/** One item of the transition log. */
export interface HistoryEntry {
  readonly seq: number;
  readonly node: string;
  /** Invocation name (the checkpoint key without `ckpt#`). */
  readonly invocation: string;
  readonly iteration: number;
  /** Fan-out indexes of the invocation, outermost first (`[]` outside any map or parallel). */
  readonly indexes: readonly number[];
  /** ISO-8601 time of the commit. */
  readonly at: string;
  readonly outcome: HistoryOutcome;
  readonly durationMs?: number;
  /** Nodes this invocation invoked. */
  readonly next?: readonly string[];
  /** For a fan-out origin: the join's invocation name and the number of branches. */
  readonly fanIn?: { readonly join: string; readonly size: number };
  /** For `caught` and `failed`. */
  readonly error?: { readonly error: string; readonly cause?: string };
}

const OUTCOMES: readonly string[] = ['committed', 'caught', 'failed'];

function json(item: Item, name: string): Json | undefined {
  const s = str(item, name);
  return s === undefined ? undefined : (JSON.parse(s) as Json);
}

/** Reads one entry item; undefined if it does not have the required attributes (a foreign or torn write). */
export function parseHistoryEntry(seq: number, item: Item): HistoryEntry | undefined {
  const node = str(item, 'node');
  const invocation = str(item, 'inv');
  const at = timestamp(item, 'at');
  const outcome = str(item, 'outcome');
  if (node === undefined || invocation === undefined || at === undefined || outcome === undefined || !OUTCOMES.includes(outcome)) {
    return undefined;
  }
  const durationMs = num(item, 'durationMs');
  const next = json(item, 'next');
  const join = str(item, 'fanInJoin');
  const size = num(item, 'fanInSize');
  const error = json(item, 'error') as { error?: unknown; cause?: unknown } | undefined;
  return {
    seq,
    node,
    invocation,
    iteration: num(item, 'iteration') ?? 0,
    indexes: (json(item, 'indexes') as number[] | undefined) ?? [],
    at,
    outcome: outcome as HistoryOutcome,
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(Array.isArray(next) ? { next: next.map(String) } : {}),
    ...(join !== undefined && size !== undefined ? { fanIn: { join, size } } : {}),
    ...(error && typeof error === 'object'
      ? { error: { error: String(error.error ?? 'Error'), ...(error.cause !== undefined ? { cause: String(error.cause) } : {}) } }
      : {}),
  };
}

/**
 * Entries in sequence order, keeping the first of entries with the same
 * invocation and outcome: the runtime appends at least once, so a crash
 * between the append and the next step can log an invocation twice.
 */
export function dedupeHistory(entries: readonly HistoryEntry[]): HistoryEntry[] {
  const seen = new Set<string>();
  return [...entries]
    .sort((a, b) => a.seq - b.seq)
    .filter((e) => {
      const key = `${e.invocation} ${e.outcome}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
