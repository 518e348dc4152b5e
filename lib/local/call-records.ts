/**
 * Every I/O call a function execution made, as the fault proxy saw it: the
 * checker's evidence (which checkpoint write won, what each successor was
 * invoked with, how often the run record was finished).
 */
import type { CallFault, CallInfo, ExecutionInfo } from './fault-plan';

export interface CallRecord {
  readonly exec: ExecutionInfo;
  readonly call: CallInfo;
  /** The request body (DynamoDB JSON, or the invoke payload). */
  readonly request: string;
  /** Invoke calls: the target function name. */
  readonly target?: string;
  readonly fault: CallFault;
  /** Epoch ms the proxy received the call (before it took effect). */
  readonly at: number;
  /**
   * `performance.now()` when the proxy had read the request, and when the
   * service's answer was ready to send (undefined when it never reached the
   * service): how an execution's time splits between its calls and itself.
   */
  readonly receivedMs?: number;
  answeredMs?: number;
  /** HTTP status the service answered; undefined when the call never reached it. */
  status?: number;
  /** DynamoDB response body (error responses and returned attributes). */
  response?: string;
}

export class Traffic {
  private readonly byWorkflow = new Map<string, CallRecord[]>();
  private counts = { calls: 0, faults: 0 };

  add(record: CallRecord): CallRecord {
    const key = record.exec.workflowId ?? '';
    const list = this.byWorkflow.get(key) ?? [];
    list.push(record);
    this.byWorkflow.set(key, list);
    this.counts.calls++;
    if (record.fault !== 'none') this.counts.faults++;
    return record;
  }

  of(workflowId: string): readonly CallRecord[] {
    return this.byWorkflow.get(workflowId) ?? [];
  }

  forget(workflowId: string): void {
    this.byWorkflow.delete(workflowId);
  }

  /** Calls seen and call faults injected since the engine started. */
  totals(): { calls: number; faults: number } {
    return { ...this.counts };
  }
}
