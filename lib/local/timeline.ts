/**
 * The execution log: one entry per execution (attempt) the emulator ran, for
 * the demo's per-node timeline and the checker.
 */
export type ExecutionResult = 'ok' | 'error' | 'crash' | 'timeout';

export interface TimelineEntry {
  readonly executionId: string;
  readonly functionName: string;
  /** The qualifier the event was addressed to (absent: `$LATEST`): a deployment's alias, `live`, a version. */
  readonly qualifier?: string;
  readonly node?: string;
  /** The state the node runs, when the runtime's log names one other than the node. */
  state?: string;
  readonly workflowId?: string;
  readonly identity: string;
  readonly requestId: string;
  /** The attempt of the event (Lambda's async retries). */
  readonly attempt: number;
  /** Attempts of the handler inside this execution (the runtime's retry rules), when it retried. */
  handlerAttempts?: number;
  /** With `handlerAttempts`: the error names of the attempts retried. */
  retried?: readonly string[];
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
  private readonly byExecution = new Map<string, TimelineEntry>();

  add(entry: TimelineEntry): TimelineEntry {
    const key = entry.workflowId ?? '';
    const list = this.byWorkflow.get(key) ?? [];
    list.push(entry);
    this.byWorkflow.set(key, list);
    this.byExecution.set(entry.executionId, entry);
    return entry;
  }

  /**
   * Reads a line the execution logged: the runtime's transition line tells
   * the state and the handler's attempts, which the emulator cannot see.
   */
  noteLog(executionId: string, line: string): void {
    const entry = this.byExecution.get(executionId);
    if (!entry || !line.includes('"unum transition"')) return;
    const log = parseLine(line);
    if (typeof log?.state === 'string') entry.state = log.state;
    if (typeof log?.attempt === 'number' && log.attempt > 1) {
      entry.handlerAttempts = log.attempt;
      entry.retried = Array.isArray(log.retried) ? log.retried.map(String) : [];
    }
  }

  /** Entries of one run, in start order. */
  of(workflowId: string): readonly TimelineEntry[] {
    return this.byWorkflow.get(workflowId) ?? [];
  }

  /** Drops a run's entries (long fault runs check and forget each run). */
  forget(workflowId: string): void {
    for (const e of this.byWorkflow.get(workflowId) ?? []) this.byExecution.delete(e.executionId);
    this.byWorkflow.delete(workflowId);
  }
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const doc: unknown = JSON.parse(line);
    return typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
