/**
 * Counts work the engine still has for each run (queued events, retries
 * waiting, executions running), so callers can wait until a run is quiet:
 * the checker must not look at the table while a duplicate is still running.
 */
export class PendingWork {
  private readonly counts = new Map<string, number>();
  private readonly waiters = new Map<string, Array<() => void>>();
  private total = 0;

  add(workflowId: string | undefined): void {
    const key = workflowId ?? '';
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total++;
  }

  done(workflowId: string | undefined): void {
    const key = workflowId ?? '';
    const n = (this.counts.get(key) ?? 1) - 1;
    this.total--;
    if (n > 0) {
      this.counts.set(key, n);
      return;
    }
    this.counts.delete(key);
    this.wake(key);
    if (this.total === 0) this.wake('*');
  }

  /** Resolves when the run (or, without an id, the whole engine) has nothing pending. */
  idle(workflowId?: string): Promise<void> {
    const key = workflowId ?? '*';
    if (key === '*' ? this.total === 0 : !this.counts.has(key)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.set(key, [...(this.waiters.get(key) ?? []), resolve]));
  }

  private wake(key: string): void {
    const list = this.waiters.get(key);
    this.waiters.delete(key);
    for (const w of list ?? []) w();
  }
}
