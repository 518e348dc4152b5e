/**
 * `unum cost <workflow> --input <file.json|-> [--runs N] [--app <cdk.out | app dir>] [--synth] [--json]
 *   [--task-success <file.json>] [--time-scale X]`:
 * runs the workflow N times on the local engine, measures each run at the
 * engine (executions, durations, every DynamoDB call with its request and
 * response, the schedules it created; user-code time from the runtime's log
 * lines), prices one million runs (lib/cost) and prints unum beside Step
 * Functions Standard and Express, and what each mechanism (Waits, callback
 * Tasks, run-record reads) costs. With `--task-success`, every task token a
 * run hands out is completed with that output, as an approver would; without
 * it, a run that reaches a callback Task stops the measurement with a usage
 * error naming the Task (a run that never reaches one needs no answer).
 * Help: lib/cli/help.ts.
 */
import * as fs from 'node:fs';
import type { Json } from '../../runtime/contract/ir';
import { averageRuns, measureRun, userCodeMsOfLogLine, type MeasuredRun } from '../cost/measure';
import { compareCosts, formatCostComparison } from '../cost/report';
import { formatMechanisms, priceMechanisms } from '../cost/mechanisms';
import { decodeTaskToken } from '../../runtime/contract/task-token';
import { noWorkflowError, readAssembly } from '../assembly';
import { UnumClient, UnumClientError } from '../client';
import { LocalEngine } from '../local/engine';
import { cloudAssemblyOf } from '../local/project';
import { answerTasks } from '../local/task-tokens';
import { parseArgs, UsageError } from './argv';

/** A day's wait takes 8.6 s: quick enough to measure, far longer than a run's own steps on the engine. */
const DEFAULT_TIME_SCALE = 0.0001;

/**
 * Modelled latency of one DynamoDB or Invoke call from Lambda in the same
 * region: single-digit milliseconds for DynamoDB, about as much to queue an
 * async invoke. Local wall times (`--local-durations`) are far larger.
 */
const DEFAULT_CALL_LATENCY_MS = 5;

/** The node of a task token, for messages. */
function nodeOf(token: string): string {
  const decoded = decodeTaskToken(token);
  return typeof decoded === 'string' ? '?' : decoded.node;
}

function readInput(file: string): Json {
  return JSON.parse(fs.readFileSync(file === '-' ? 0 : file, 'utf8')) as Json;
}

/** Whether `work` settles within `ms`. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), ms); });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['runs', 'input', 'app', 'timeout', 'call-latency-ms', 'task-success', 'time-scale'], flags: ['json', 'local-durations', 'synth'] });
  const [workflow, ...extra] = args.positional;
  if (workflow === undefined) throw new UsageError('unum cost needs a workflow name');
  if (extra.length > 0) throw new UsageError(`unum cost takes one workflow, got also '${extra[0]}'`);
  const runs = Number(args.values.get('runs') ?? 10);
  if (!Number.isInteger(runs) || runs < 1) throw new UnumClientError(`--runs must be a positive integer, got '${args.values.get('runs')}'`);
  const inputFile = args.values.get('input');
  if (inputFile === undefined) throw new UsageError('--input is required (a JSON file, or - for stdin)');
  const input = readInput(inputFile);
  const timeoutMs = Number(args.values.get('timeout') ?? 120) * 1000;
  const callLatencyMs = args.flags.has('local-durations') ? undefined : Number(args.values.get('call-latency-ms') ?? DEFAULT_CALL_LATENCY_MS);
  if (callLatencyMs !== undefined && !(callLatencyMs >= 0)) throw new UnumClientError(`--call-latency-ms must be a number >= 0, got '${args.values.get('call-latency-ms')}'`);

  const taskSuccess = args.values.get('task-success');
  if (taskSuccess === '-' && inputFile === '-') throw new UsageError('--input and --task-success cannot both read stdin');
  const taskOutput = taskSuccess === undefined ? undefined : readInput(taskSuccess);
  const timeScale = Number(args.values.get('time-scale') ?? DEFAULT_TIME_SCALE);
  if (!(timeScale > 0)) throw new UnumClientError(`--time-scale must be a number > 0, got '${args.values.get('time-scale')}'`);

  const userCode = new Map<string, number>();
  const log = (line: string): void => { process.stderr.write(`${line}\n`); };
  const assembly = await cloudAssemblyOf(args.values.get('app'), { synth: args.flags.has('synth'), log });
  // Before the engine starts (seconds): a mistyped name fails at once, listing the workflows there are.
  const app = readAssembly(assembly);
  if (!app.workflows.has(workflow)) throw new UsageError(noWorkflowError(app, workflow));
  const engine = await LocalEngine.fromCloudAssembly(assembly, {
    timeScale,
    onLog: (line, _fn, executionId) => {
      const ms = executionId === undefined ? undefined : userCodeMsOfLogLine(line);
      if (ms !== undefined) userCode.set(executionId!, ms);
    },
  });
  try {
    const hasCallbacks = Object.values(engine.workflow(workflow).nodes).some((fn) => fn.ir?.callback);
    const client = hasCallbacks ? UnumClient.fromCloudAssembly(assembly, workflow, { localEngine: engine.environment }) : undefined;
    const measured: MeasuredRun[] = [];
    for (let i = 0; i < runs; i++) {
      const id = engine.startRun(workflow, input);
      const stopWaiting = new AbortController();
      const ended = engine.waitForRun(workflow, id, { timeoutMs, signal: stopWaiting.signal });
      // Without --task-success, the first token handed out ends the measurement: the run would wait for ever.
      const respond = taskOutput !== undefined && client
        ? (token: string) => client.sendTaskSuccess(token, taskOutput)
        : (token: string) => Promise.reject(new UsageError(`run ${id} of ${workflow} waits on callback Task ${nodeOf(token)}: give --task-success <output.json> to complete its task tokens`));
      const answered = hasCallbacks ? answerTasks(engine, id, ended, respond) : undefined;
      // A rejected answer (no --task-success, or a failed response) ends the wait before the engine stops.
      answered?.catch((err: unknown) => stopWaiting.abort(err));
      const record = await ended;
      await answered;
      // GC, late calls and the run's schedules (a callback's timeout) follow the final status: count them too,
      // unless one is further ahead than --timeout (e.g. a one-year timeout at this time scale).
      if (!(await settlesWithin(engine.idle(id), timeoutMs))) {
        process.stderr.write(`run ${id}: work still pending ${timeoutMs / 1000} s after the run ended (a schedule further ahead, such as a callback's timeout?): measured without it; a smaller --time-scale includes it\n`);
      }
      if (record.status !== 'SUCCEEDED') throw new UnumClientError(`run ${id} of ${workflow} ended ${record.status}: ${JSON.stringify(record.error)}`);
      measured.push(measureRun({
        executions: engine.emulator.timeline.of(id),
        calls: engine.traffic.of(id),
        functions: engine.app.functions,
        userCodeMs: userCode,
        ...(callLatencyMs !== undefined ? { callLatencyMs } : {}),
      }));
      engine.forget(id);
      // On a terminal the count updates in place; in a log, one line per run.
      process.stderr.write(process.stderr.isTTY ? `\rmeasured ${i + 1}/${runs} runs${i + 1 === runs ? '\n' : ''}` : `measured ${i + 1}/${runs} runs\n`);
    }
    const avg = averageRuns(measured);
    const comparison = compareCosts(avg.unum, avg.stepFunctions);
    const mechanisms = priceMechanisms(avg.mechanisms, comparison.runs);
    if (args.flags.has('json')) {
      process.stdout.write(`${JSON.stringify({ workflow, runs, input: inputFile, timeScale, perRun: avg, comparison, mechanisms })}\n`);
      return 0;
    }
    const u = avg.unum;
    const s = avg.stepFunctions;
    process.stdout.write([
      `${workflow}: ${runs} runs on the local engine, input ${inputFile}; per run:`,
      `  unum            ${u.lambdaRequests.toFixed(1)} Lambda requests, ${u.lambdaGbSeconds.toFixed(5)} GB-s, ${u.writeUnits.toFixed(1)} WRU, ${u.readUnits.toFixed(1)} RRU, ${avg.invokes.toFixed(1)} invokes`,
      `  Step Functions  ${s.stateTransitions.toFixed(1)} state transitions, ${s.taskRequests.toFixed(1)} task requests, ${s.taskGbSeconds.toFixed(5)} GB-s, ${s.expressDurationMs.toFixed(0)} ms`,
      '  DynamoDB by operation: ' + Object.entries(avg.byOperation).map(([op, v]) => `${op} ${v.calls.toFixed(1)} (${(v.writeUnits + v.readUnits).toFixed(1)} u)`).join(', '),
      callLatencyMs === undefined
        ? '  Durations: wall times on this machine (worker threads, DynamoDB Local), far slower than Lambda.'
        : `  Durations: user code + ${callLatencyMs} ms per DynamoDB or Invoke call (--local-durations for wall times here).`,
      ...formatMechanisms(mechanisms, comparison.runs),
      '',
      formatCostComparison(comparison),
      '',
    ].join('\n'));
    return 0;
  } finally {
    await engine.stop();
  }
}
