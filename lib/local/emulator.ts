/**
 * The Lambda side of the local engine: the semantics of the Invoke API for the
 * app's functions. `Event` invocations are queued and run with Lambda's async
 * behaviour (retries after 1 and 2 minutes, maximum event age, on-failure
 * destination records to a function or a queue), the retry delays multiplied by `timeScale`;
 * `RequestResponse` runs once and reports the result or the function error as
 * Lambda does. HTTP is the fault proxy's job; this class is called in-process.
 */
import { randomUUID } from 'crypto';
import type { LocalFunction } from './assembly';
import { functionArn, parseFunctionRef, qualifiedRef } from './assembly';
import { describeEvent, type EventInfo } from './events';
import type { ExecutionInfo, FaultPlan } from './fault-plan';
import { NO_EVENT_FAULT } from './fault-plan';
import type { ExecutionOutcome, FunctionRunner } from './function-runner';
import { PendingWork } from './pending';
import { Timeline, type TimelineEntry } from './timeline';
import type { LambdaError } from './worker';

export interface InvokeRequest {
  /** Name, ARN or partial ARN, as it arrived in the path (decoded). */
  readonly functionRef: string;
  readonly qualifier?: string;
  readonly invocationType: 'Event' | 'RequestResponse' | 'DryRun';
  readonly payload: string;
}

export interface InvokeResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface EmulatorOptions {
  /** Multiplies Lambda's async retry delays (1 min, 2 min): 1 = real time. Event age counts those delays unscaled. */
  readonly timeScale: number;
  /** Where an on-failure destination that is a queue receives its record. */
  readonly sendToQueue?: (queue: string, body: string) => void;
  /** The fault plan of a run (none: no faults). */
  readonly planFor?: (workflowId: string | undefined) => FaultPlan | undefined;
}

/** Lambda's payload limits: 1 MB for Event (since 2025), 6 MB for RequestResponse. */
const EVENT_PAYLOAD_LIMIT = 1024 * 1024;
const SYNC_PAYLOAD_LIMIT = 6 * 1024 * 1024;
/**
 * Lambda's limit on a destination record: when the failed event and the
 * response together exceed 256 KB, Lambda drops both payloads from the
 * record it sends (Lambda API reference, `OnFailure`; Developer Guide,
 * "Capturing records of Lambda asynchronous invocations").
 */
const DESTINATION_PAYLOADS_LIMIT = 256 * 1024;
/** Lambda's async retry delays: about 1 minute, then 2 minutes. */
const RETRY_DELAYS_MS = [60_000, 120_000];

interface AsyncEvent {
  readonly requestId: string;
  readonly fn: LocalFunction;
  readonly payload: string;
  readonly info: EventInfo;
  readonly enqueuedAt: number;
  readonly duplicate: boolean;
  attempts: number;
  lastError?: LambdaError;
  /** Retry delays waited so far: Lambda's (unscaled) and this engine's (scaled) milliseconds. */
  delays?: { lambdaMs: number; realMs: number };
}

export class LambdaEmulator {
  readonly timeline = new Timeline();
  readonly pending = new PendingWork();
  private readonly executions = new Map<string, ExecutionInfo>();
  private readonly late = new Map<string, AsyncEvent[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    /** By name and qualified name (`LocalApp.functions`): a qualifier resolves to its version, an unknown one is not found. */
    private readonly functions: ReadonlyMap<string, LocalFunction>,
    private readonly runner: FunctionRunner,
    private readonly options: EmulatorOptions,
  ) {}

  /** The execution a sandbox call belongs to (for the fault proxy). */
  execution(executionId: string): ExecutionInfo | undefined {
    return this.executions.get(executionId);
  }

  async invoke(req: InvokeRequest): Promise<InvokeResponse> {
    const ref = parseFunctionRef(req.functionRef);
    const qualifier = req.qualifier ?? ref.qualifier;
    const fn = this.functions.get(qualifiedRef(ref.name, qualifier));
    if (!fn) {
      const message = `Function not found: ${functionArn(ref.name)}${qualifier ? `:${qualifier}` : ''}`;
      return json(404, { Type: 'User', Message: message, message }, { 'x-amzn-ErrorType': 'ResourceNotFoundException' });
    }
    if (req.invocationType === 'DryRun') return { statusCode: 204, headers: {}, body: '' };
    const limit = req.invocationType === 'Event' ? EVENT_PAYLOAD_LIMIT : SYNC_PAYLOAD_LIMIT;
    if (Buffer.byteLength(req.payload) > limit) {
      const message = `Request must be smaller than ${limit} bytes for the InvokeFunction operation`;
      return json(413, { Type: 'User', message }, { 'x-amzn-ErrorType': 'RequestTooLargeException' });
    }
    if (req.invocationType === 'Event') {
      this.accept(fn, req.payload);
      return { statusCode: 202, headers: {}, body: '' };
    }
    return this.invokeSync(fn, req.payload);
  }

  /** Queues an async event (the `Event` invocation type), applying the run's event faults. */
  accept(fn: LocalFunction, payload: string, requestId: string = randomUUID()): string {
    const info = describeEvent(fn.functionName, payload, requestId);
    const fault = this.options.planFor?.(info.workflowId)?.eventFault(fn.functionName, info.identity) ?? NO_EVENT_FAULT;
    const event: AsyncEvent = { requestId, fn, payload, info, enqueuedAt: Date.now(), duplicate: false, attempts: 0 };
    this.schedule(event, fault.delayMs);
    if (fault.duplicate === 'concurrent') this.schedule({ ...event, duplicate: true }, fault.delayMs);
    if (fault.duplicate === 'late') {
      const key = info.workflowId ?? '';
      this.late.set(key, [...(this.late.get(key) ?? []), { ...event, duplicate: true }]);
    }
    return requestId;
  }

  /** Delivers the run's held-back late duplicates now; returns how many. */
  deliverLate(workflowId: string): number {
    const events = this.late.get(workflowId) ?? [];
    this.late.delete(workflowId);
    for (const e of events) this.schedule({ ...e, enqueuedAt: Date.now(), attempts: 0, delays: { lambdaMs: 0, realMs: 0 } }, 0);
    return events.length;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private schedule(event: AsyncEvent, delayMs: number): void {
    if (this.stopped) return;
    this.pending.add(event.info.workflowId);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.deliverSafely(event).finally(() => this.pending.done(event.info.workflowId));
    }, delayMs);
    this.timers.add(timer);
  }

  /**
   * Delivers the event; whatever goes wrong in the engine while it does (a
   * fault plan that throws, say) fails that invocation as Lambda would fail
   * it, to its on-failure destination, and never the engine.
   */
  private async deliverSafely(event: AsyncEvent): Promise<void> {
    try {
      await this.deliver(event);
    } catch (err) {
      event.lastError = { errorType: 'Runtime.Unavailable', errorMessage: `the local engine could not deliver the event: ${String(err)}`, trace: [] };
      this.destination(event, 'RetriesExhausted');
    }
  }

  private async deliver(event: AsyncEvent): Promise<void> {
    if (this.stopped) return;
    const { fn } = event;
    if (this.ageMs(event) >= fn.async.maxEventAgeSeconds * 1000) {
      this.destination(event, 'EventAgeExceeded');
      return;
    }
    event.attempts++;
    const exec = this.startExecution(event, event.attempts, event.duplicate);
    const outcome = await this.run(exec, event.payload, fn);
    if (outcome.kind === 'ok') {
      if (!event.duplicate && this.options.planFor?.(exec.workflowId)?.rerunSucceeded(exec)) {
        this.schedule({ ...event, duplicate: true, attempts: event.attempts }, 0);
      }
      return;
    }
    event.lastError = outcome.error;
    if (event.attempts <= fn.async.retryAttempts) {
      const lambdaMs = RETRY_DELAYS_MS[event.attempts - 1] ?? 120_000;
      const realMs = lambdaMs * this.options.timeScale;
      event.delays = { lambdaMs: (event.delays?.lambdaMs ?? 0) + lambdaMs, realMs: (event.delays?.realMs ?? 0) + realMs };
      this.schedule(event, realMs);
      return;
    }
    this.destination(event, 'RetriesExhausted');
  }

  /**
   * The event's age as Lambda would see it: real time, except that the retry
   * delays count at their unscaled length. Scaling only the delays keeps the
   * maximum event age meaningful however slow executions run on this machine.
   */
  private ageMs(event: AsyncEvent): number {
    return Date.now() - event.enqueuedAt - (event.delays?.realMs ?? 0) + (event.delays?.lambdaMs ?? 0);
  }

  private async invokeSync(fn: LocalFunction, payload: string): Promise<InvokeResponse> {
    const requestId = randomUUID();
    const info = describeEvent(fn.functionName, payload, requestId);
    const event: AsyncEvent = { requestId, fn, payload, info, enqueuedAt: Date.now(), duplicate: false, attempts: 1 };
    this.pending.add(info.workflowId);
    try {
      const exec = this.startExecution(event, 1, false, 1);
      const outcome = await this.run(exec, payload, fn);
      const headers = { 'X-Amz-Executed-Version': fn.version, 'x-amzn-RequestId': requestId };
      if (outcome.kind === 'ok') return { statusCode: 200, headers, body: outcome.payload };
      return json(200, outcome.error, { ...headers, 'X-Amz-Function-Error': 'Unhandled' });
    } finally {
      this.pending.done(info.workflowId);
    }
  }

  private startExecution(event: AsyncEvent, attempt: number, duplicate: boolean, maxAttempts = 1 + event.fn.async.retryAttempts): ExecutionInfo {
    const exec: ExecutionInfo = {
      executionId: randomUUID(),
      functionName: event.fn.functionName,
      qualifier: event.fn.qualifier,
      requestId: event.requestId,
      attempt,
      maxAttempts,
      identity: event.info.identity,
      duplicate,
      ...(event.info.workflowId !== undefined ? { workflowId: event.info.workflowId } : {}),
      ...(event.info.node !== undefined ? { node: event.info.node } : {}),
    };
    this.executions.set(exec.executionId, exec);
    return exec;
  }

  private async run(exec: ExecutionInfo, payload: string, fn: LocalFunction): Promise<ExecutionOutcome> {
    const entry: TimelineEntry = this.timeline.add({
      executionId: exec.executionId,
      functionName: fn.functionName,
      ...(exec.qualifier !== undefined ? { qualifier: exec.qualifier } : {}),
      identity: exec.identity,
      requestId: exec.requestId,
      attempt: exec.attempt,
      duplicate: exec.duplicate,
      start: Date.now(),
      ...(exec.node !== undefined ? { node: exec.node } : fn.ir ? { node: fn.ir.node } : {}),
      ...(exec.workflowId !== undefined ? { workflowId: exec.workflowId } : {}),
    });
    let outcome: ExecutionOutcome;
    try {
      outcome = await this.runner.execute({ executionId: exec.executionId, fn, payload, awsRequestId: exec.requestId, onStart: () => { entry.start = Date.now(); } });
    } catch (err) {
      outcome = { kind: 'error', error: { errorType: 'Runtime.Unavailable', errorMessage: String(err), trace: [] } };
    } finally {
      this.executions.delete(exec.executionId);
    }
    entry.end = Date.now();
    entry.outcome = outcome.kind === 'killed' ? outcome.reason : outcome.kind;
    if (outcome.kind !== 'ok') entry.error = `${outcome.error.errorType}: ${outcome.error.errorMessage}`;
    return outcome;
  }

  /**
   * Sends Lambda's on-failure destination record to the configured function
   * or queue. The record is JSON text built around the event's own text, never
   * re-serialized: any event Lambda accepted fits in it, however deeply it
   * nests. Over Lambda's limit it carries neither payload, as Lambda's.
   */
  private destination(event: AsyncEvent, condition: 'RetriesExhausted' | 'EventAgeExceeded'): void {
    const target = event.fn.async.onFailure;
    const error = event.lastError ?? { errorType: 'EventAgeExceeded', errorMessage: 'Event age exceeded before delivery', trace: [] };
    const head = {
      version: '1.0',
      timestamp: new Date().toISOString(),
      requestContext: {
        requestId: event.requestId,
        functionArn: `${functionArn(event.fn.functionName)}:${event.fn.qualifier}`,
        condition,
        approximateInvokeCount: event.attempts,
      },
      responseContext: { statusCode: 200, executedVersion: event.fn.version, functionError: 'Unhandled' },
    };
    const request = isJson(event.payload) ? event.payload : JSON.stringify(event.payload);
    const response = JSON.stringify({ errorType: error.errorType, errorMessage: error.errorMessage, trace: error.trace });
    const payloads = Buffer.byteLength(request) + Buffer.byteLength(response) > DESTINATION_PAYLOADS_LIMIT ? '' : `,"requestPayload":${request},"responsePayload":${response}`;
    const record = `${JSON.stringify(head).slice(0, -1)}${payloads}}`;
    if (target && 'queue' in target) {
      this.options.sendToQueue?.(target.queue, record);
      return;
    }
    const fn = target && this.functions.get(qualifiedRef(target.function, target.qualifier));
    if (fn) this.accept(fn, record);
  }
}

/** Whether `text` is JSON (JSON.parse reads any depth without recursion). */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function json(statusCode: number, body: unknown, headers: Record<string, string>): InvokeResponse {
  return { statusCode, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
