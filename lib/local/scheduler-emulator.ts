/**
 * The EventBridge Scheduler side of the local engine: one-time schedules
 * (`at(...)`, UTC) whose target is a function of the app (its ARN qualified or not: a run's wake-ups
 * name its deployment's alias, which stays when a newer deployment comes), reached over
 * HTTP through the fault proxy with `@aws-sdk/client-scheduler` (REST JSON:
 * `POST /schedules/<name>` creates, `GET /schedules/<name>?groupName=`
 * reads, `DELETE /schedules/<name>?groupName=` deletes one that has not
 * fired: a callback Task's timeout after its completion). A schedule fires once, somewhere in the minute of its time, as
 * Scheduler does ("60 second precision": at a point of that minute drawn from
 * the schedule's name), with the distance from now multiplied by the engine's
 * `timeScale` (a day's wait at 0.0001 takes 8.6 s),
 * as an asynchronous invoke of its target with its `Input`: the fault plan
 * may delay or duplicate it like any async event (Scheduler delivers at
 * least once). It is then deleted (`ActionAfterCompletion: DELETE`, the only
 * value implemented). A name taken in its group is `ConflictException`.
 */
import { createHash } from 'crypto';
import { LOCAL_ACCOUNT } from '../assembly';
import { parseFunctionRef, qualifiedRef } from './assembly';
import { describeEvent } from './events';
import type { PendingWork } from './pending';
import { requestObject } from './request-body';

export interface SchedulerReply {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One wake-up as the emulator delivered it: when it was asked for and when it fired (both on the engine's clock). */
export interface FiredSchedule {
  readonly name: string;
  readonly workflowId?: string;
  /** The requested time, scaled onto the engine's clock (epoch ms). */
  readonly dueMs: number;
  /** When it was to fire (a point of the due time's minute), scaled onto the engine's clock. */
  readonly plannedMs: number;
  readonly firedMs: number;
}

export interface SchedulerEmulatorOptions {
  readonly timeScale: number;
  /** Queues the target's async invoke (the Lambda emulator's, with its event faults): the function by its `LocalApp.functions` key (`name`, or `name:qualifier` for a qualified ARN). */
  readonly deliver: (functionRef: string, input: string) => void;
  readonly pending: PendingWork;
}

const SCHEDULE_PATH = /^\/schedules\/([^/]+)$/;
const AT = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/;

class SchedulerError extends Error {
  constructor(readonly statusCode: number, readonly code: string, message: string) {
    super(message);
  }
}

interface Schedule {
  readonly name: string;
  readonly group: string;
  readonly request: Record<string, unknown>;
  readonly workflowId?: string;
  /** Counted in the run's pending work. */
  readonly busy: boolean;
  readonly timer: NodeJS.Timeout;
}

export class SchedulerEmulator {
  private readonly schedules = new Map<string, Schedule>();
  /** Every schedule fired, in order (the precision measurement reads it). */
  readonly fired: FiredSchedule[] = [];
  private stopped = false;

  constructor(private readonly options: SchedulerEmulatorOptions) {}

  /** Whether a request is a Scheduler API call (its path). */
  static handles(pathname: string): boolean {
    return SCHEDULE_PATH.test(pathname);
  }

  /** The API operation of a request to a schedule's path. */
  static operation(method: string): 'CreateSchedule' | 'DeleteSchedule' | 'GetSchedule' {
    return method === 'POST' ? 'CreateSchedule' : method === 'DELETE' ? 'DeleteSchedule' : 'GetSchedule';
  }

  /** The schedule's name and the event it delivers, for the fault proxy's records. */
  static describe(pathname: string, body: string): { name: string; functionName: string; input: string } {
    const request = requestObject(body);
    const target = (request.Target ?? {}) as Record<string, unknown>;
    return { name: decodeURIComponent(SCHEDULE_PATH.exec(pathname)?.[1] ?? ''), functionName: parseFunctionRef(String(target.Arn ?? '')).name, input: String(target.Input ?? '') };
  }

  /** One Scheduler API call. */
  handle(method: string, pathname: string, query: URLSearchParams, body: string): SchedulerReply {
    try {
      const name = decodeURIComponent(SCHEDULE_PATH.exec(pathname)?.[1] ?? '');
      if (method === 'POST') return ok(this.create(name, requestObject(body)));
      if (method === 'GET') return ok(this.get(name, query.get('groupName') ?? 'default'));
      if (method === 'DELETE') return ok(this.delete(name, query.get('groupName') ?? 'default'));
      throw new SchedulerError(400, 'ValidationException', `the local engine does not implement ${method} ${pathname}`);
    } catch (err) {
      if (!(err instanceof SchedulerError)) throw err;
      return { statusCode: err.statusCode, headers: { 'Content-Type': 'application/json', 'x-amzn-ErrorType': err.code }, body: JSON.stringify({ Message: err.message }) };
    }
  }

  stop(): void {
    this.stopped = true;
    for (const s of this.schedules.values()) {
      clearTimeout(s.timer);
      if (s.busy) this.options.pending.done(s.workflowId);
    }
    this.schedules.clear();
  }

  private create(name: string, request: Record<string, unknown>): Record<string, unknown> {
    const group = String(request.GroupName ?? 'default');
    const key = `${group}/${name}`;
    if (this.schedules.has(key)) throw new SchedulerError(409, 'ConflictException', `Schedule ${name} already exists.`);
    const at = AT.exec(String(request.ScheduleExpression ?? ''));
    if (!at) throw new SchedulerError(400, 'ValidationException', `the local engine implements one-time schedules only: at(yyyy-mm-ddThh:mm:ss), not ${String(request.ScheduleExpression)}`);
    if ((request.ScheduleExpressionTimezone ?? 'UTC') !== 'UTC') throw new SchedulerError(400, 'ValidationException', 'the local engine implements UTC schedules only');
    if ((request.FlexibleTimeWindow as { Mode?: unknown } | undefined)?.Mode !== 'OFF') throw new SchedulerError(400, 'ValidationException', 'FlexibleTimeWindow must be { Mode: OFF } here');
    if (request.ActionAfterCompletion !== 'DELETE') throw new SchedulerError(400, 'ValidationException', 'the local engine implements ActionAfterCompletion DELETE only');
    const target = (request.Target ?? {}) as Record<string, unknown>;
    if (typeof target.Arn !== 'string' || typeof target.RoleArn !== 'string' || !target.RoleArn) throw new SchedulerError(400, 'ValidationException', 'Target needs Arn and RoleArn');
    const input = String(target.Input ?? '{}');
    const now = Date.now();
    const due = Date.parse(`${at[1]}Z`);
    const scaled = (t: number): number => now + Math.max(0, t - now) * this.options.timeScale;
    const dueMs = scaled(due);
    const plannedMs = scaled(Math.floor(due / 60_000) * 60_000 + Math.floor(fraction(name) * 60_000));
    const { workflowId, runTimeout } = describeEvent('', input, '');
    // A pending schedule keeps its run busy (`idle`), unless it is the run's timeout.
    const busy = !runTimeout;
    if (busy) this.options.pending.add(workflowId);
    const timer = setTimeout(() => {
      this.schedules.delete(key);
      if (!this.stopped) {
        this.fired.push({ name, ...(workflowId !== undefined ? { workflowId } : {}), dueMs, plannedMs, firedMs: Date.now() });
        const { name: functionName, qualifier } = parseFunctionRef(target.Arn as string);
        this.options.deliver(qualifiedRef(functionName, qualifier), input);
      }
      if (busy) this.options.pending.done(workflowId);
    }, plannedMs - now);
    this.schedules.set(key, { name, group, request, timer, busy, ...(workflowId !== undefined ? { workflowId } : {}) });
    return { ScheduleArn: `arn:aws:scheduler:us-east-1:${LOCAL_ACCOUNT}:schedule/${group}/${name}` };
  }

  private delete(name: string, group: string): Record<string, unknown> {
    const key = `${group}/${name}`;
    const s = this.schedules.get(key);
    if (!s) throw new SchedulerError(404, 'ResourceNotFoundException', `Schedule ${name} does not exist.`);
    clearTimeout(s.timer);
    this.schedules.delete(key);
    if (s.busy) this.options.pending.done(s.workflowId);
    return {};
  }

  private get(name: string, group: string): Record<string, unknown> {
    const s = this.schedules.get(`${group}/${name}`);
    if (!s) throw new SchedulerError(404, 'ResourceNotFoundException', `Schedule ${name} does not exist.`);
    return { ...s.request, Name: name, GroupName: group, State: 'ENABLED' };
  }
}

/** A stable point in [0, 1) per name: where in its minute a schedule fires. */
const fraction = (name: string): number => createHash('sha256').update(name).digest().readUInt32BE(0) / 2 ** 32;

function ok(body: Record<string, unknown>): SchedulerReply {
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}
