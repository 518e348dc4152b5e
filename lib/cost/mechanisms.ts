/**
 * What a run's Waits, callback Tasks and run-record reads cost, mechanism by
 * mechanism (docs/architecture.md "Waits", "Callbacks"), from the engine's
 * records: the schedules the run created (each fires once: a Scheduler
 * invocation), the executions those schedules and the task responses woke,
 * the waiting records, and every read of the run record. Part of the unum
 * total, except the task-response function's invocations, which the run's
 * own records do not show (its caller is outside the run): measureRun adds
 * them.
 */
import type { WireItem } from './item-size';
import { PRICES, type Prices } from './prices';
import { ENV } from '../../runtime/contract/ir';
import { parseKey, TABLE } from '../../runtime/contract/table';
import { parseFunctionRef, type LocalFunction } from '../local/assembly';
import { describeEvent } from '../local/events';
import type { TimelineEntry } from '../local/timeline';
import type { CallRecord } from '../local/call-records';

export interface WaitsUsage {
  /** Schedules created for Waits (a Wait already due creates none): each fires once, a Scheduler invocation. */
  readonly schedules: number;
  /** Executions of the Waits' nodes, which the schedules woke. */
  readonly executions: number;
  readonly gbSeconds: number;
  readonly readUnits: number;
  readonly writeUnits: number;
}

export interface CallbacksUsage {
  /** Waiting records put: one per callback Task's invocation (a later execution's put loses its condition, billed too). */
  readonly waitingRecords: number;
  readonly waitingRecordWriteUnits: number;
  /** Timeout and heartbeat-check schedules that fire: created, less those a completion deleted before they fired. */
  readonly schedules: number;
  /** Responses (success, failure, heartbeat): one invocation of the task-response function each, which waits for the Task's. */
  readonly responses: number;
  readonly responseGbSeconds: number;
  /** Executions of the callback Tasks' functions on a response or a timeout (a timeout after the completion finds it completed). */
  readonly completions: number;
  readonly completionGbSeconds: number;
  readonly completionReadUnits: number;
  readonly completionWriteUnits: number;
}

export interface RunRecordUsage {
  /** Reads of the run record by the run's executions (a node that may end the run reads it with its checkpoint). */
  readonly reads: number;
  readonly readUnits: number;
}

export interface MechanismUsage {
  readonly waits: WaitsUsage;
  readonly callbacks: CallbacksUsage;
  readonly runRecord: RunRecordUsage;
}

/** One DynamoDB call with the units the meter billed it. */
export interface MeteredCall {
  readonly call: CallRecord;
  readonly readUnits: number;
  readonly writeUnits: number;
}

export interface MechanismEvidence {
  readonly executions: readonly TimelineEntry[];
  /** Every call of the run; DynamoDB calls also in `metered`. */
  readonly calls: readonly CallRecord[];
  readonly metered: readonly MeteredCall[];
  readonly runRecord: RunRecordUsage;
  readonly functions: ReadonlyMap<string, LocalFunction>;
  /** Billed GB-seconds of an execution (lib/cost/measure.ts's duration model). */
  readonly gbSeconds: (e: TimelineEntry) => number;
  /** Billed GB-seconds of the task-response invocation that waited for execution `e`. */
  readonly responseGbSeconds: (e: TimelineEntry, responseMemoryMb: number) => number;
}

/** The identity of a task-response event's execution: `<function>@task:<kind>[:<iteration>]` (lib/local/events.ts). */
export const TASK_EVENT = /@task:(success|failure|heartbeat|timeout|unknown)(?::\d+)?$/;
const RESPONSE_KINDS = new Set(['success', 'failure', 'heartbeat']);

/** What a successful Scheduler call does to the invocations Scheduler bills: a schedule created fires once, unless deleted first. */
export const SCHEDULES_BILLED: Readonly<Record<string, number>> = { CreateSchedule: 1, DeleteSchedule: -1 };

interface ScheduleRequest {
  readonly Target?: { readonly Arn?: string; readonly Input?: string };
}

/** The memory of the task-response function that invokes callback function `fn` (its environment lists them), or Lambda's default. */
function responseMemoryMb(functions: ReadonlyMap<string, LocalFunction>, fn: string): number {
  for (const f of functions.values()) {
    const listed = f.environment[ENV.taskFunctions];
    // It names each Task's function qualified with its deployment (`<name>:<deployment>`).
    if (listed && Object.values(JSON.parse(listed) as Record<string, string>).some((name) => name === fn || name.startsWith(`${fn}:`))) return f.memoryMb;
  }
  return 128;
}

export function measureMechanisms(run: MechanismEvidence): MechanismUsage {
  // Which executions a Wait's schedule woke: the identities of the events the schedules deliver.
  const woken = new Set<string>();
  let waitSchedules = 0;
  let taskSchedules = 0;
  for (const c of run.calls) {
    if (c.call.service !== 'scheduler' || c.status !== 200) continue;
    // Only a callback Task deletes schedules (its checks, after a completion): that check is never billed.
    if (c.call.operation === 'DeleteSchedule') taskSchedules--;
    if (c.call.operation !== 'CreateSchedule') continue;
    const target = (JSON.parse(c.request) as ScheduleRequest).Target ?? {};
    const event = describeEvent(parseFunctionRef(target.Arn ?? '').name, target.Input ?? '', '');
    if (TASK_EVENT.test(event.identity)) taskSchedules++;
    else {
      waitSchedules++;
      woken.add(event.identity);
    }
  }
  const unitsOf = new Map<string, { readUnits: number; writeUnits: number }>();
  let waitingRecords = 0;
  let waitingRecordWriteUnits = 0;
  for (const m of run.metered) {
    const u = unitsOf.get(m.call.exec.executionId) ?? { readUnits: 0, writeUnits: 0 };
    unitsOf.set(m.call.exec.executionId, { readUnits: u.readUnits + m.readUnits, writeUnits: u.writeUnits + m.writeUnits });
    if (m.call.call.operation !== 'PutItem') continue;
    const item = (JSON.parse(m.call.request) as { Item?: WireItem }).Item;
    const pk = item?.[TABLE.partitionKey] as { S?: string } | undefined;
    if (parseKey(pk?.S ?? '')?.kind === 'taskWait') {
      waitingRecords++;
      waitingRecordWriteUnits += m.writeUnits;
    }
  }
  const units = (e: TimelineEntry): { readUnits: number; writeUnits: number } => unitsOf.get(e.executionId) ?? { readUnits: 0, writeUnits: 0 };

  const waits = { schedules: waitSchedules, executions: 0, gbSeconds: 0, readUnits: 0, writeUnits: 0 };
  const callbacks = { waitingRecords, waitingRecordWriteUnits, schedules: taskSchedules, responses: 0, responseGbSeconds: 0, completions: 0, completionGbSeconds: 0, completionReadUnits: 0, completionWriteUnits: 0 };
  for (const e of run.executions) {
    if (e.end === undefined) continue;
    const kind = TASK_EVENT.exec(e.identity)?.[1];
    if (kind !== undefined) {
      callbacks.completions++;
      callbacks.completionGbSeconds += run.gbSeconds(e);
      callbacks.completionReadUnits += units(e).readUnits;
      callbacks.completionWriteUnits += units(e).writeUnits;
      if (RESPONSE_KINDS.has(kind)) {
        callbacks.responses++;
        callbacks.responseGbSeconds += run.responseGbSeconds(e, responseMemoryMb(run.functions, e.functionName));
      }
    } else if (woken.has(e.identity)) {
      waits.executions++;
      waits.gbSeconds += run.gbSeconds(e);
      waits.readUnits += units(e).readUnits;
      waits.writeUnits += units(e).writeUnits;
    }
  }
  return { waits, callbacks, runRecord: run.runRecord };
}

/** What one mechanism costs for `runs` runs, and what it consists of per run. */
export interface MechanismCost {
  readonly mechanism: 'waits' | 'callbacks' | 'run record';
  readonly perRun: string;
  readonly usd: number;
}

const n = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));
const plural = (x: number, one: string, many = `${one}s`): string => `${n(x)} ${x === 1 ? one : many}`;

/** The cost of each mechanism a run used (none: an empty list), for `runs` runs. */
export function priceMechanisms(m: MechanismUsage, runs = 1_000_000, prices: Prices = PRICES): MechanismCost[] {
  const { lambda, dynamodb, eventBridgeScheduler: scheduler } = prices;
  const ddb = (readUnits: number, writeUnits: number): number => readUnits * dynamodb.perReadRequestUnit + writeUnits * dynamodb.perWriteRequestUnit;
  const out: MechanismCost[] = [];
  const w = m.waits;
  if (w.schedules > 0 || w.executions > 0) {
    out.push({
      mechanism: 'waits',
      perRun: `${plural(w.schedules, 'schedule')} fired, ${plural(w.executions, 'Wait-node execution')} (${n(w.writeUnits)} WRU, ${n(w.readUnits)} RRU)`,
      usd: runs * (w.schedules * scheduler.perScheduledInvocation + w.executions * lambda.perRequest + w.gbSeconds * lambda.perGbSecond + ddb(w.readUnits, w.writeUnits)),
    });
  }
  const c = m.callbacks;
  if (c.waitingRecords > 0 || c.completions > 0) {
    out.push({
      mechanism: 'callbacks',
      perRun: `${plural(c.waitingRecords, 'waiting record')} (${n(c.waitingRecordWriteUnits)} WRU), ${plural(c.schedules, 'timeout/heartbeat schedule')} fired, `
        + `${plural(c.responses, 'response')} through the task-response function, ${plural(c.completions, 'Task execution')} on responses and timeouts (${n(c.completionWriteUnits)} WRU, ${n(c.completionReadUnits)} RRU)`,
      usd: runs * (c.schedules * scheduler.perScheduledInvocation + (c.responses + c.completions) * lambda.perRequest
        + (c.responseGbSeconds + c.completionGbSeconds) * lambda.perGbSecond + ddb(c.completionReadUnits, c.waitingRecordWriteUnits + c.completionWriteUnits)),
    });
  }
  const r = m.runRecord;
  if (r.reads > 0) {
    out.push({ mechanism: 'run record', perRun: `${plural(r.reads, 'read')} by the run's executions (${n(r.readUnits)} RRU)`, usd: runs * ddb(r.readUnits, 0) });
  }
  return out;
}

/** The mechanisms' lines of `unum cost`'s report. */
export function formatMechanisms(costs: readonly MechanismCost[], runs: number): string[] {
  if (costs.length === 0) return [];
  const width = Math.max(...costs.map((c) => c.mechanism.length));
  return [
    `  By mechanism (per run; cost of ${runs.toLocaleString('en-US')} runs, part of unum's total):`,
    ...costs.map((c) => `    ${`${c.mechanism}:`.padEnd(width + 1)} ${c.perRun}  $${c.usd.toFixed(c.usd >= 1 ? 3 : 4)}`),
  ];
}
