/**
 * The optional per-run transition log (`settings.history`; format in
 * docs/deploying-and-operating.md, "Run history: the item format"). Appended after the checkpoint commits and
 * before the successors are invoked, so an entry's `seq` is larger than its
 * predecessors'. At least once: a duplicate execution appends again, and the
 * reader keeps the first entry per (invocation, outcome).
 */
import type { Json } from '../contract/ir';
import { evalPath } from '../language/paths';
import { ttlIn } from './payload';
import type { CheckpointStore } from '../ports/store';
import { historyItem, type HistoryItem, type HistoryOutcome, type RunRef, type Transition } from '../contract/table';
import type { Committed, Exec } from '../ports/execution';

/** Two writes: the counter hands out `seq`, then the entry is put. Returns `seq`. */
export async function appendHistory(store: CheckpointStore, run: RunRef, item: HistoryItem, ttl: number): Promise<number> {
  const seq = await store.nextHistorySeq(run, ttl);
  await store.putHistoryEntry(run, seq, item, ttl);
  return seq;
}

/**
 * Appends this execution's entry when the workflow keeps a history. At most
 * once per outcome in an execution: a path through the instructions has one
 * transition (runtime/step/interpreter.ts `PathState`), and `failed` ends it.
 */
export async function appendTransition(x: Exec, outcome: HistoryOutcome, t: Transition = {}): Promise<void> {
  const { ir } = x.rt;
  if (!ir.settings.history) return;
  const input = x.invocation.input;
  const item = historyItem(ir.node, x.name, x.invocation.iteration, x.invocation.frames, outcome, t, {
    state: ir.state,
    // User-code time and attempts only when this execution's user code made the committed value (a duplicate's lost the put).
    ...(x.rt.fn && x.attempts && !x.metrics.duplicates ? { durationMs: x.userMs, attempts: x.attempts, attemptErrors: x.attemptErrors } : {}),
    ...('fanIn' in input ? { joined: input.fanIn.join } : {}),
    ...(ir.entry ? { deployment: ir.deployment } : {}),
  });
  await appendHistory(x.rt.store, x.run, item, ttlIn(ir.settings.runRetentionSeconds));
}

/** The committed value's entry: `caught` (error read at the catch rule's ResultPath) or `committed`. */
export function appendCommit(x: Exec, ck: Committed, t: Transition = {}): Promise<void> {
  const rule = ck.catchIndex === undefined ? undefined : x.rt.ir.catch?.[ck.catchIndex];
  if (!rule) return appendTransition(x, 'committed', t);
  const v = (rule.resultPath === null ? undefined : evalPath(ck.value, rule.resultPath ?? '$').value) as { [k: string]: Json } | undefined;
  return appendTransition(x, 'caught', { ...t, error: { error: String(v?.Error ?? rule.errors[0]), cause: v?.Cause as string | undefined } });
}
