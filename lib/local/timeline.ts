/**
 * The execution log: one entry per execution (attempt) the emulator ran, for
 * the demo's per-node timeline and the checker.
 */
export type ExecutionResult = 'ok' | 'error' | 'crash' | 'timeout';

export interface TimelineEntry {
  readonly executionId: string;
  readonly functionName: string;
  readonly node?: string;
  readonly workflowId?: string;
  readonly identity: string;
  readonly requestId: string;
  readonly attempt: number;
  /** A duplicate delivery or a re-run of a succeeded execution. */
  readonly duplicate: boolean;
  /** Epoch ms the execution started in its sandbox (until then: when it was handed to the runner). */
  start: number;
  end?: number;
  outcome?: ExecutionResult;
  error?: string;
}

export class Timeline {
  private readonly byWorkflow = new Map<string, TimelineEntry[]>();

  add(entry: TimelineEntry): TimelineEntry {
    const key = entry.workflowId ?? '';
    const list = this.byWorkflow.get(key) ?? [];
    list.push(entry);
    this.byWorkflow.set(key, list);
    return entry;
  }

  /** Entries of one run, in start order. */
  of(workflowId: string): readonly TimelineEntry[] {
    return this.byWorkflow.get(workflowId) ?? [];
  }

  /** Drops a run's entries (long fault runs check and forget each run). */
  forget(workflowId: string): void {
    this.byWorkflow.delete(workflowId);
  }
}
