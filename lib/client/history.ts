/**
 * The optional per-run transition log (`history: true`). The runtime writes it
 * (runtime/records/history.ts); its items, and how to read one, are defined in
 * runtime/contract/table/ (format in docs/deploying-and-operating.md, "Run history: the item format").
 */
import type { HistoryEntry } from '../../runtime/contract/table';

export type { HistoryEntry, HistoryOutcome } from '../../runtime/contract/table';

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
