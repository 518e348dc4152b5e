/**
 * Figure 8: cost per million runs of each example on unum beside Step
 * Functions Standard and Express and Lambda durable functions, from the cost report (lib/cost): each example
 * runs on the local engine, every execution and DynamoDB call is measured
 * (lib/cost/measure.ts), and one million average runs are priced with the
 * dated price table (lib/cost/prices.ts). The examples that wait run under a
 * time scale (a day in 8.6 s), their task tokens answered as soon as they are
 * handed out; what each mechanism (Waits, callbacks, run-record reads) costs
 * is a table of its own: the hidden costs (schedules, waiting records,
 * task-response invocations, reads) are in unum's total.
 */
import { randomUUID } from 'node:crypto';
import { UnumClient } from '../lib/client';
import { averageRuns, measureRun, type MeasuredRun } from '../lib/cost/measure';
import { priceMechanisms } from '../lib/cost/mechanisms';
import { PRICES } from '../lib/cost/prices';
import { compareCosts } from '../lib/cost/report';
import { answerTasks } from '../lib/local/task-tokens';
import { BENCH_TIME_SCALE, benchExamples, examplesEngine } from './engine';
import { fmt, fmtUsd } from './stats';
import type { BenchContext, FigureOutput } from './types';

/** Modelled latency of one DynamoDB or Invoke call from Lambda in one region (the `unum cost` default). */
const CALL_LATENCY_MS = 5;
const RUNS = 1_000_000;

export async function run(ctx: BenchContext): Promise<FigureOutput> {
  const { engine, userCodeMs } = await examplesEngine(ctx);
  const runs = ctx.quick ? 2 : 5;
  const rows: (string | number)[][] = [];
  const usage: (string | number)[][] = [];
  const orchestration: (string | number)[][] = [];
  const mechanisms: (string | number)[][] = [];
  const checks: { name: string; standardRatio: number; writeUnits: number; bound: number; perMillionTransitions: number }[] = [];
  const notes: string[] = [];
  for (const { name, input, taskSuccess } of benchExamples(engine, ctx.root, { waiting: true })) {
    const wf = engine.workflow(name);
    // The approver: every token a run hands out is answered with the example's task-success.json.
    const client = taskSuccess === undefined ? undefined : UnumClient.fromCloudAssembly(engine.app.dir, name, { localEngine: engine.environment });
    const measured: MeasuredRun[] = [];
    for (let i = 0; i < runs; i++) {
      const id = engine.startRun(wf.name, input, { workflowId: `bench-${randomUUID()}` });
      if (client && taskSuccess !== undefined) await answerTasks(engine, id, engine.waitForRun(wf.name, id, { timeoutMs: 300_000 }), (token) => client.sendTaskSuccess(token, taskSuccess));
      // Every schedule the run created fires first (a callback's timeout after its completion too).
      await engine.idle(id);
      const record = await engine.readRun(wf.name, id);
      if (record.status !== 'SUCCEEDED') throw new Error(`${wf.name} run ${id}: ${record.status} ${JSON.stringify(record.error)}`);
      measured.push(measureRun({
        executions: engine.emulator.timeline.of(id),
        calls: engine.traffic.of(id),
        functions: engine.app.functions,
        userCodeMs,
        callLatencyMs: CALL_LATENCY_MS,
      }));
      engine.forget(id);
    }
    const avg = averageRuns(measured);
    const c = compareCosts(avg.unum, avg.stepFunctions, RUNS);
    const total = (name: string): number => c.options.find((o) => o.name === name)?.totalUsd ?? NaN;
    const unum = total('unum');
    const std = total('Step Functions Standard');
    const exp = total('Step Functions Express');
    const durable = total('Lambda durable functions');
    ctx.log(`cost ${wf.name}: unum ${fmtUsd(unum)}, Standard ${fmtUsd(std)}, Express ${fmtUsd(exp)}, durable functions ${fmtUsd(durable)}`);
    const lines = c.options.find((o) => o.name === 'unum')?.lines ?? [];
    const usdOf = (item: string): number => lines.find((l) => l.item === item)?.usd ?? NaN;
    const orchestrationUsd = usdOf('Lambda requests') + usdOf('DynamoDB writes') + usdOf('DynamoDB reads');
    const bound = avg.transitions + avg.arrivals + 1;
    // The bound is the run's own writes; the runs index's write at the run's start is the price of listing runs, shown beside it.
    const runWrites = avg.unum.writeUnits - avg.indexWriteUnits;
    checks.push({ name: wf.name, standardRatio: std / unum, writeUnits: runWrites, bound, perMillionTransitions: (orchestrationUsd / (avg.transitions * RUNS)) * 1_000_000 });
    // What the write bound alone costs per transition, with one invoke each and no read: the $1 target is out of reach above it.
    const floor = ((PRICES.lambda.perRequest * avg.transitions + PRICES.dynamodb.perWriteRequestUnit * bound) / avg.transitions) * 1_000_000;
    if (floor > 1) {
      notes.push(`${wf.name}: at the write bound (${fmt(bound, 1)} WRU for ${fmt(avg.transitions, 1)} transitions and ${fmt(avg.arrivals, 1)} fan-in arrivals) orchestration costs at least ${fmtUsd(floor)} per million transitions before any read, so the $1.00 target cannot be met together with the bound: each fan-in arrival is a write of its own (the shard tree of figure 2), beside the arriving branch's checkpoint.`);
    }
    orchestration.push([wf.name, fmt(avg.transitions, 1), fmt(avg.arrivals, 1), fmt(runWrites, 1), fmt(avg.indexWriteUnits, 1), fmt(bound, 1),
      runWrites <= bound ? 'yes' : 'no', fmt(avg.unum.writeUnits / avg.transitions, 2), fmtUsd((orchestrationUsd / (avg.transitions * RUNS)) * 1_000_000)]);
    const share = lines.map((l) => `${l.item} ${fmt((100 * l.usd) / unum, 0)}%`).join(', ');
    notes.push(`${wf.name}: unum's cost is ${share}.${exp < unum ? ` Step Functions Express costs ${fmt(exp / unum, 2)}x unum here.` : ''}`);
    for (const m of priceMechanisms(avg.mechanisms, RUNS)) mechanisms.push([wf.name, m.mechanism, m.perRun, fmtUsd(m.usd), `${fmt((100 * m.usd) / unum, 0)}%`]);
    rows.push([wf.name, runs, fmtUsd(unum), fmtUsd(std), `${fmt(std / unum, 2)}x`, fmtUsd(exp), `${fmt(exp / unum, 2)}x`, fmtUsd(durable), `${fmt(durable / unum, 2)}x`]);
    usage.push([wf.name, fmt(avg.unum.lambdaRequests, 1), fmt(avg.unum.lambdaGbSeconds, 5), fmt(avg.unum.writeUnits, 1), fmt(avg.unum.readUnits, 1),
      fmt(avg.stepFunctions.stateTransitions, 1), fmt(avg.stepFunctions.taskRequests, 1), Object.entries(avg.byOperation).map(([op, v]) => `${op} ${fmt(v.calls, 1)}`).join(', ')]);
  }
  if (rows.length === 0) throw new Error('no example workflow has an examples/<name>/input.json');
  return {
    tables: [
      {
        caption: `Cost of ${fmt(RUNS, 0)} runs (${PRICES.region}, on-demand, no free tier; prices of ${PRICES.date})`,
        headers: ['Example', 'Runs measured', 'unum', 'Step Functions Standard', 'Standard / unum', 'Step Functions Express', 'Express / unum', 'Lambda durable functions', 'Durable / unum'],
        rows,
      },
      {
        caption: 'Write units per run against the bound transitions + fan-in arrivals + 1 (the runs index\'s one write per run, at its start, beside it), and orchestration cost (DynamoDB + invokes, without user code) per million transitions',
        headers: ['Example', 'Transitions', 'Fan-in arrivals', 'WRU', 'Runs index WRU', 'Bound', 'WRU <= bound', 'WRU / transition', 'Orchestration per 1M transitions'],
        rows: orchestration,
      },
      {
        caption: `What each mechanism costs, part of unum's total: Waits (their schedules, each a Scheduler invocation, and the Wait nodes' executions), callback Tasks (waiting records, timeout schedules, task-response invocations, the Task's executions on a response or its timeout) and the run record's reads; per ${fmt(RUNS, 0)} runs`,
        headers: ['Example', 'Mechanism', 'Per run', `Per ${fmt(RUNS, 0)} runs`, 'Share of unum'],
        rows: mechanisms,
      },
      {
        caption: 'Usage per run (means over the measured runs)',
        headers: ['Example', 'unum Lambda requests', 'unum GB-s', 'WRU', 'RRU', 'SFN state transitions', 'SFN task requests', 'DynamoDB calls by operation'],
        rows: usage,
      },
    ],
    targets: [
      { name: 'every example at least 15x cheaper than Step Functions Standard', met: checks.every((c) => c.standardRatio >= 15), detail: checks.map((c) => `${c.name} ${fmt(c.standardRatio, 2)}x`).join(', ') },
      { name: 'whole-run write units (the runs index\'s aside) <= transitions + fan-in arrivals + 1', met: checks.every((c) => c.writeUnits <= c.bound), detail: checks.map((c) => `${c.name} ${fmt(c.writeUnits, 1)} of ${fmt(c.bound, 1)}`).join(', ') },
      { name: 'orchestration (DynamoDB + invokes) <= $1.00 per million transitions', met: checks.every((c) => c.perMillionTransitions <= 1), detail: checks.map((c) => `${c.name} ${fmtUsd(c.perMillionTransitions)}`).join(', ') },
    ],
    notes,
    method: [
      `Each example runs ${runs} times on the local engine on its examples/<name>/input.json; lib/cost/measure.ts turns each run's executions and observed DynamoDB calls into usage (capacity units by AWS's rules), lib/cost/report.ts \`compareCosts\` prices one million average runs with lib/cost/prices.ts.`,
      `Lambda durations are modelled as user-code time + ${CALL_LATENCY_MS} ms per DynamoDB or Invoke call (the \`unum cost\` default), not this machine's wall times. Step Functions figures assume the same Lambda tasks without unum's runtime; Express duration is the tasks' user-code time.`,
      'Lambda durable functions: one invocation per run runs every state as a step, billed for the tasks\' user-code time, plus one durable operation per state and one for the start; data-written and data-retained charges are left out, so its figure is a lower bound.',
      `Examples with a Wait or a callback Task run on an engine whose time scale is ${BENCH_TIME_SCALE} (a day passes in 8.6 s); each task token a run hands out is answered at once with the example's task-success.json (sendTaskSuccess through the task-response function), and every schedule the run created fires before it is measured, a callback's timeout after its completion too. The task-response function's invocation is counted with the duration of the Task execution it waits for. DynamoDB calls a handler makes itself (the Approval example's put of the token into its approvals inbox, 1 WRU) are in unum's figures and not in Step Functions'.`,
      'Transitions are the invocations of the workflow\'s nodes a run executed (start nodes and joins included); fan-in arrivals are successful shard updates that add an arrival; orchestration cost is unum\'s Lambda requests + DynamoDB writes + reads, divided by transitions.',
      'Step Functions Express is cheaper than unum wherever its column is below 1x: it bills duration, not transitions. It does not give what unum and Standard give: its executions are at-least-once (a state can run twice and the run has no exactly-once result), a run lasts at most 5 minutes, and it keeps no execution history outside CloudWatch Logs.',
    ],
  };
}
