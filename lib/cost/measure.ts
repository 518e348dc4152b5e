/**
 * Usage of one run measured on the local engine: executions from the
 * emulator's timeline, DynamoDB calls from the fault proxy's traffic record
 * (every call a function made, with request and response), user-code time from
 * the runtime's transition log lines. Turned into the inputs of lib/cost/report.ts.
 */
import { ENV, type Instruction, type NodeIR } from '../../runtime/contract/ir';
import { isStartNode } from '../compiler/names';
import type { LocalFunction } from '../local/assembly';
import type { TimelineEntry } from '../local/timeline';
import type { CallRecord } from '../local/call-records';
import { isShardArrival, parseKey, TABLE } from '../../runtime/contract/table';
import { CapacityMeter } from './capacity';
import type { WireItem } from './item-size';
import { measureMechanisms, type MechanismUsage, type MeteredCall, SCHEDULES_BILLED, TASK_EVENT } from './mechanisms';
import { lambdaGbSeconds, type StepFunctionsRunUsage, type UnumRunUsage } from './report';

/** The `message` of the runtime's transition log line (runtime/ports/log.ts). */
const TRANSITION_MESSAGE = 'unum transition';

/**
 * User-code time of a runtime transition log line (`durations.userMs`), if the
 * line is one. Not the EMF metric: that is left out when it rounds to 0 ms.
 */
export function userCodeMsOfLogLine(line: string): number | undefined {
  if (!line.includes(TRANSITION_MESSAGE)) return undefined;
  try {
    const v = (JSON.parse(line) as { durations?: { userMs?: unknown } }).durations?.userMs;
    return typeof v === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Everything the engine recorded about one run. */
export interface RunEvidence {
  readonly executions: readonly TimelineEntry[];
  readonly calls: readonly CallRecord[];
  /** Functions of the app, by name (memory, IR). */
  readonly functions: ReadonlyMap<string, LocalFunction>;
  /** User-code milliseconds per execution id, from the runtime's transition log lines. */
  readonly userCodeMs: ReadonlyMap<string, number>;
  /**
   * Model each execution's duration as its user-code time plus this many ms
   * per I/O call it made, instead of its wall time on this machine (where
   * sandboxes, DynamoDB Local and the proxy are far slower than Lambda and
   * DynamoDB in one region). The Express duration is then the sum of the tasks'
   * user-code times (an upper bound when branches run in parallel).
   * @default undefined: local wall times
   */
  readonly callLatencyMs?: number;
}

export interface MeasuredRun {
  readonly unum: UnumRunUsage;
  readonly stepFunctions: StepFunctionsRunUsage;
  /** Invoke API calls the functions made (each is also one Lambda request). */
  readonly invokes: number;
  /** Invocations of the workflow's nodes the run executed, once each: its transitions on unum (the failure recorder is none). */
  readonly transitions: number;
  /** Fan-in arrivals recorded: successful shard updates that add an arrival (every level of the tree). */
  readonly arrivals: number;
  /** The part of `unum.writeUnits` that wrote the runs index (one per run, at its start). */
  readonly indexWriteUnits: number;
  readonly byOperation: Readonly<Record<string, { calls: number; readUnits: number; writeUnits: number }>>;
  /** What the run's Waits, callback Tasks and run-record reads used (lib/cost/mechanisms.ts). */
  readonly mechanisms: MechanismUsage;
}

/** Choice and folded Pass states a node's instructions pass through (top level: the ones a run always evaluates). */
function choiceStates(instructions: readonly Instruction[]): number {
  // A folded Pass (`pass` instruction) is a state transition on Step Functions too.
  return instructions.filter((i) => i.op === 'choice' || i.op === 'pass').length;
}

const parse = (s: string | undefined): Record<string, unknown> => (s ? JSON.parse(s) as Record<string, unknown> : {});

/** The tables a DynamoDB request names (one, or those of a batch or transaction). */
function tablesOf(request: Record<string, unknown>): string[] {
  if (typeof request.TableName === 'string') return [request.TableName];
  if (request.RequestItems && typeof request.RequestItems === 'object') return Object.keys(request.RequestItems);
  const items = Array.isArray(request.TransactItems) ? (request.TransactItems as Record<string, { TableName?: string }>[]) : [];
  return items.flatMap((t) => Object.values(t).map((op) => op.TableName ?? ''));
}

export function measureRun(run: RunEvidence): MeasuredRun {
  const memory = (fn: string): number => run.functions.get(fn)?.memoryMb ?? 128;
  const ir = (fn: string): NodeIR | undefined => run.functions.get(fn)?.ir;
  const ended = run.executions.filter((e) => e.end !== undefined);

  const runRecord = { reads: 0, readUnits: 0 };
  const meter = new CapacityMeter((_table, key: WireItem, readUnits) => {
    if (parseKey((key[TABLE.partitionKey] as { S?: string } | undefined)?.S ?? '')?.kind !== 'run') return;
    runRecord.reads++;
    runRecord.readUnits += readUnits;
  });
  const metered: MeteredCall[] = [];
  // The handlers' own tables (an approval inbox) are user work, the same with or without unum: not metered as unum's.
  const workflowTables = new Set([...run.functions.values()].map((f) => f.environment[ENV.table]).filter((t) => t !== undefined));
  let invokes = 0;
  let arrivals = 0;
  let schedules = 0;
  const callsOf = new Map<string, number>();
  for (const c of run.calls) {
    callsOf.set(c.exec.executionId, (callsOf.get(c.exec.executionId) ?? 0) + 1);
    // A call the fault plan dropped before it reached the service made no request.
    if (c.status === undefined) continue;
    if (c.call.service === 'lambda') { invokes++; continue; }
    // A schedule created once fires once (a second create of its name is refused), unless deleted first: Scheduler bills the invocation.
    if (c.call.service === 'scheduler') { if (c.status === 200) schedules += SCHEDULES_BILLED[c.call.operation] ?? 0; continue; }
    const request = parse(c.request);
    if (!tablesOf(request).some((t) => workflowTables.has(t))) continue;
    const ok = c.status >= 200 && c.status < 300;
    if (ok && c.call.operation === 'UpdateItem' && isShardArrival(request.UpdateExpression)) arrivals++;
    const before = { readUnits: meter.totals.readUnits, writeUnits: meter.totals.writeUnits };
    meter.record({ operation: c.call.operation, request, response: parse(c.response), ok });
    metered.push({ call: c, readUnits: meter.totals.readUnits - before.readUnits, writeUnits: meter.totals.writeUnits - before.writeUnits });
  }

  const userMs = (e: TimelineEntry): number => run.userCodeMs.get(e.executionId) ?? (e.end! - e.start);
  const modelled = run.callLatencyMs;
  const duration = (e: TimelineEntry): number =>
    modelled === undefined ? e.end! - e.start : userMs(e) + modelled * (callsOf.get(e.executionId) ?? 0);

  // On Step Functions each invocation is one state, run once: keep the first execution of each.
  const firsts = new Map<string, TimelineEntry>();
  for (const e of ended) if (!e.duplicate && !firsts.has(e.identity)) firsts.set(e.identity, e);
  let transitions = 0;
  let unumTransitions = 0;
  let taskRequests = 0;
  let taskGbSeconds = 0;
  let taskMs = 0;
  for (const e of firsts.values()) {
    const node = ir(e.functionName);
    if (node) unumTransitions++;
    // The failure recorder, a start node and a callback Task's executions on its responses (one state, counted at its
    // handler's execution) are unum's own machinery, no state of the definition.
    if (!node || isStartNode(node.node) || TASK_EVENT.test(e.identity)) continue;
    transitions += 1 + choiceStates(node.instructions);
    if (node.handler.kind === 'pass') continue; // a Pass state runs no Lambda
    taskRequests++;
    taskGbSeconds += lambdaGbSeconds(userMs(e), memory(e.functionName));
    taskMs += userMs(e);
  }
  const mechanisms = measureMechanisms({
    executions: ended,
    calls: run.calls,
    metered,
    runRecord,
    functions: run.functions,
    gbSeconds: (e) => lambdaGbSeconds(duration(e), memory(e.functionName)),
    // The task-response function waits for the Task's execution: its duration, plus its one invoke call when modelled.
    responseGbSeconds: (e, memoryMb) => lambdaGbSeconds(duration(e) + (modelled ?? 0), memoryMb),
  });
  const starts = ended.map((e) => e.start);
  const ends = ended.map((e) => e.end!);
  return {
    unum: {
      // The task-response function's invocations are no execution of the run (its caller is outside it): added here.
      lambdaRequests: run.executions.length + mechanisms.callbacks.responses,
      lambdaGbSeconds: ended.reduce((s, e) => s + lambdaGbSeconds(duration(e), memory(e.functionName)), 0) + mechanisms.callbacks.responseGbSeconds,
      readUnits: meter.totals.readUnits,
      writeUnits: meter.totals.writeUnits,
      scheduledInvocations: schedules,
    },
    stepFunctions: {
      stateTransitions: transitions,
      taskRequests,
      taskGbSeconds,
      expressDurationMs: modelled !== undefined ? taskMs : ended.length ? Math.max(...ends) - Math.min(...starts) : 0,
    },
    invokes,
    transitions: unumTransitions,
    arrivals,
    indexWriteUnits: meter.totals.indexWriteUnits,
    byOperation: meter.totals.byOperation,
    mechanisms,
  };
}

/** Field-wise mean of measured runs (the report prices an average run). */
export function averageRuns(runs: readonly MeasuredRun[]): MeasuredRun {
  const n = runs.length;
  const mean = <T extends object>(pick: (r: MeasuredRun) => T): T => {
    const keys = Object.keys(pick(runs[0])) as (keyof T)[];
    return Object.fromEntries(keys.map((k) => [k, runs.reduce((s, r) => s + Number(pick(r)[k]), 0) / n])) as T;
  };
  const ops: Record<string, { calls: number; readUnits: number; writeUnits: number }> = {};
  for (const r of runs) {
    for (const [op, v] of Object.entries(r.byOperation)) {
      const o = (ops[op] ??= { calls: 0, readUnits: 0, writeUnits: 0 });
      o.calls += v.calls / n;
      o.readUnits += v.readUnits / n;
      o.writeUnits += v.writeUnits / n;
    }
  }
  const meanOf = (pick: (r: MeasuredRun) => number): number => runs.reduce((s, r) => s + pick(r), 0) / n;
  const mechanisms = Object.fromEntries((Object.keys(runs[0].mechanisms) as (keyof MechanismUsage)[]).map((k) => [k, mean((r) => r.mechanisms[k])])) as unknown as MechanismUsage;
  return {
    unum: mean((r) => r.unum),
    stepFunctions: mean((r) => r.stepFunctions),
    invokes: meanOf((r) => r.invokes),
    transitions: meanOf((r) => r.transitions),
    arrivals: meanOf((r) => r.arrivals),
    indexWriteUnits: meanOf((r) => r.indexWriteUnits),
    byOperation: ops,
    mechanisms,
  };
}
