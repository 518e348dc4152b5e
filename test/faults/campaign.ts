/**
 * The long fault campaign behind `npm run test:faults`:
 *
 *   --seeds N          random schedules for seeds 1..N (or --from S .. S+N-1) over every
 *                      example workflow, every fault-test workflow and the run-control targets
 *                      (a stop racing the run's end, a run timeout); prints the seed of any failure.
 *                      The Orders example writes DynamoDB and PostgreSQL through its effects: the
 *                      campaign starts a throwaway PostgreSQL (test/support/postgres.ts) and stops
 *                      with a clear error where there is none
 *   --seed S           replay one seed and print its timeline
 *   --crash-points     every single crash point and every pair (exactly, one run per pair) of the fault-test workflows
 *   --extended         the extended workflow set: figure 9's and the shapes of issue 14 (SHAPE_TARGETS);
 *                      seed s then runs another workflow than in figure 9's set
 *   --service-faults   random schedules also meet the services' failures: DynamoDB throttling,
 *                      500s before and after a write, short outages, Lambda 429s (ServiceFaultPlan)
 *   --redeploy         random schedules over the redeploy app's workflows (test/faults/redeploy-app), each
 *                      seed also deploying shapes of the app while the runs are in flight (issue 34):
 *                      every run must finish on its deployment with that deployment's result
 *                      (test/faults/redeploy-campaign.ts); with --seed, replays the seed with its own deploys
 *   --effects          random schedules over the Orders shape under PostgreSQL's own failures too (issue 35,
 *                      test/faults/pg-faults.ts): a server crash-restart or a killed backend just before or
 *                      after PlaceOrder's COMMIT, a lost transaction status; the default strategy (PgOrders) and
 *                      `introspection` (PgIntrospectedOrders), which may fail with the undeterminable EffectError
 *   --concurrency C    schedules in flight (default 8)
 *   --record           with --seeds: once the campaign completes, record it as figure 9 of
 *                      BENCHMARKS.md, with --extended as figure 10, with --redeploy as figure 12, with --effects as figure 13 (.unum/bench/results.json,
 *                      else the figures read back from BENCHMARKS.md) and re-render the report
 *                      (`npm run test:faults -- --seeds 10000 --record` for figure 9's target,
 *                      `npm run test:faults -- --seeds 2000 --extended --service-faults --record` for figure 10's,
 *                      `npm run test:faults -- --seeds 2000 --redeploy --record` for figure 12's,
 *                      `npm run test:faults -- --seeds 10000 --effects --record` for figure 13's)
 *
 * Exit code 1 when any schedule violates an invariant.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { campaignModeFlags, faultCampaignCommand, faultCampaignResult, type CampaignModeOptions, type FaultCampaignRun } from '../../bench/fault-campaign';
import { gitRevision, loadAverage, machineInfo, machineLine } from '../../bench/machine';
import { benchState, lastResults, recordResults } from '../../bench/results';
import { parseArgs } from '../../lib/cli/argv';
import { enumerateCrashPoints, expectationFor, randomSchedules, targetOfSeed, type CampaignSummary, type Target } from '../../lib/testing/campaign';
import { LocalEngine } from '../../lib/local/engine';
import { checkedRun, referenceRun } from '../../lib/testing/fault-run';
import { renderTimeline } from '../../lib/local/report';
import { planForSeed, ServiceFaultPlan } from '../../lib/testing/schedule';
import { synthesize } from '../../lib/local/synth';
import { startOrdersDatabase } from '../support/orders-database';
import { redeployCampaign } from './redeploy-campaign';
import { PG_FAULT_KINDS, PgFaultControl, pgFaultTargets } from './pg-faults';
import type { Order } from '../../examples/orders/handlers';
import { exampleTargets, FAULT_APP_DIR, FAULT_TARGETS, RUN_CONTROL_TARGETS, SHAPE_TARGETS } from './app/targets';

const ROOT = path.join(__dirname, '..', '..');

const USAGE = 'usage: npm run test:faults -- [--seeds N [--from S] [--record]] [--seed S] [--crash-points] [--extended] [--service-faults] [--redeploy] [--effects] [--concurrency C]\n'
  + '  --effects   the Orders shape under PostgreSQL\'s failures too (server restart, killed backend, lost status; with --seeds or --seed)\n'
  + '  --redeploy  the redeploy app\'s workflows, its shapes deployed while the runs are in flight (with --seeds or --seed)\n'
  + '  --record    with --seeds alone: record the campaign as figure 9 of BENCHMARKS.md, with --extended as figure 10, with --redeploy as figure 12, with --effects as figure 13 (.unum/bench), and re-render it\n'
  + '              (--service-faults is recorded with --extended only)\n';

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['seeds', 'from', 'seed', 'concurrency'], flags: ['crash-points', 'help', 'record', 'extended', 'service-faults', 'redeploy', 'effects'] });
  const record = args.flags.has('record');
  const mode: CampaignModeOptions = { extended: args.flags.has('extended'), serviceFaults: args.flags.has('service-faults'), redeploy: args.flags.has('redeploy'), effects: args.flags.has('effects') };
  // --record records the random schedules alone, so that the recorded command reproduces exactly what was measured.
  const recordMisused = record && (!args.values.has('seeds') || args.values.has('seed') || args.flags.has('crash-points') || (mode.serviceFaults && !mode.extended) || (mode.redeploy && mode.extended));
  const redeployMisused = mode.redeploy && (args.flags.has('crash-points') || mode.extended);
  // The effects campaign's targets have no crash-point enumeration, and its figure (13) stands for them alone.
  const effectsMisused = mode.effects && (args.flags.has('crash-points') || mode.extended || mode.redeploy);
  if (args.flags.has('help') || recordMisused || redeployMisused || effectsMisused || (!args.values.has('seeds') && !args.values.has('seed') && !args.flags.has('crash-points'))) {
    process.stdout.write(USAGE);
    return args.flags.has('help') ? 0 : 2;
  }
  const outFile = path.join(ROOT, 'BENCHMARKS.md');
  // Read the report to record into before the campaign runs, not after an hour of it.
  if (record) lastResults(benchState(ROOT), outFile);
  const concurrency = Number(args.values.get('concurrency') ?? 8);
  const started = Date.now();
  const loadAtStart = loadAverage();
  const commit = record ? gitRevision(ROOT) : undefined;
  if (mode.redeploy) {
    const from = Number(args.values.get('from') ?? 1);
    const seeds = args.values.has('seeds') ? Array.from({ length: Number(args.values.get('seeds')) }, (_, i) => from + i) : [];
    const failed = await redeployCampaign({
      seeds,
      ...(args.values.has('seed') ? { replay: Number(args.values.get('seed')) } : {}),
      concurrency,
      serviceFaults: mode.serviceFaults ?? false,
      report,
      ...(record
        ? {
            completed: ({ summary, workflows, redeploys, scheduleSeconds }) => recordCampaign(outFile, {
              seeds: seeds.length,
              ...(args.values.has('from') ? { from } : {}),
              ...(args.values.has('concurrency') ? { concurrency } : {}),
              ...mode,
              concurrencyUsed: concurrency,
              workflows,
              summary,
              redeploys,
              wallSeconds: (Date.now() - started) / 1000,
              scheduleSeconds,
              finishedAt: new Date(),
              ...(commit ? { commit } : {}),
              load: { start: loadAtStart, end: loadAverage() },
              machine: machineLine(machineInfo()),
            }),
          }
        : {}),
    });
    process.stdout.write(`total ${((Date.now() - started) / 1000).toFixed(1)} s; violations: ${failed}\n`);
    return failed > 0 ? 1 : 0;
  }
  const dirs = [fs.mkdtempSync(path.join(os.tmpdir(), 'unum-examples-')), fs.mkdtempSync(path.join(os.tmpdir(), 'unum-fault-app-'))] as const;
  process.stdout.write('synthesizing the example app and the fault-test app ...\n');
  await synthesize({ appDir: ROOT, outDir: dirs[0] });
  await synthesize({ appDir: FAULT_APP_DIR, outDir: dirs[1] });
  process.stdout.write('starting PostgreSQL for the Orders example ...\n');
  const database = await startOrdersDatabase('the fault campaign').catch((e: unknown) => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    throw e;
  });
  const running: { engine?: LocalEngine; pgFaults?: PgFaultControl } = {};
  const cleanUp = async (): Promise<void> => {
    await running.engine?.stop();
    await running.pgFaults?.close();
    await database.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  };
  // A campaign of hours is often cut short: Ctrl-C or a kill must not leave PostgreSQL and DynamoDB Local running.
  const interrupted = (signal: NodeJS.Signals): void => {
    process.stdout.write(`${signal}: stopping the engine and PostgreSQL\n`);
    void cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  // The handlers ask the PostgreSQL faults' channel for theirs: it is in their environment, so it starts first.
  const pgFaults = mode.effects ? await PgFaultControl.start(database.server, () => running.engine as LocalEngine) : undefined;
  running.pgFaults = pgFaults;
  const engine = await LocalEngine.fromCloudAssembly([...dirs], { timeScale: 0.0005, ttlIntervalMs: 60_000, functionEnvironment: { ...database.environment, ...pgFaults?.environment } });
  running.engine = engine;
  const faultTargets = [...FAULT_TARGETS, ...(mode.extended ? SHAPE_TARGETS : []), ...RUN_CONTROL_TARGETS];
  const order = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'orders', 'input.json'), 'utf8')) as Order;
  const targets = pgFaults ? await pgFaultTargets(engine, database.pool, pgFaults, order) : [...(await exampleTargets(ROOT, engine, database)), ...faultTargets];
  const replayHint = `npm run test:faults --${campaignModeFlags(mode)} --seed`;
  let failed = 0;
  try {
    if (args.values.has('seed')) failed += await replay(engine, targets, Number(args.values.get('seed')), mode.serviceFaults ?? false);
    if (args.values.has('seeds')) {
      const from = Number(args.values.get('from') ?? 1);
      const seeds = Array.from({ length: Number(args.values.get('seeds')) }, (_, i) => from + i);
      const schedulesStarted = Date.now();
      let done = 0;
      const s = await randomSchedules(engine, targets, seeds, {
        concurrency,
        ...(mode.serviceFaults ? { serviceFaults: true } : {}),
        ...(mode.effects ? { targetFaultKinds: PG_FAULT_KINDS } : {}),
        onSeed: (seed, target, run) => {
          done++;
          if (run.violations.length > 0) process.stdout.write(`FAIL seed ${seed} (${target.workflow}): ${run.violations.join('; ')}\n  replay: ${replayHint} ${seed}\n`);
          if (done % 100 === 0) process.stdout.write(`  ${done}/${seeds.length} seeds, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
        },
      });
      report(`random schedules: ${seeds.length} seeds (${from}..${from + seeds.length - 1}) over ${targets.length} workflows`, s, started);
      process.stdout.write(`  faults injected: ${Object.entries(s.injected).map(([k, v]) => `${v} ${k}`).join(', ')}\n`);
      process.stdout.write(`  seeds per second (synthesis excluded): ${(seeds.length / ((Date.now() - schedulesStarted) / 1000)).toFixed(2)}\n`);
      if (s.failures.length) process.stdout.write(`  failing seeds: ${s.failures.map((f) => f.what).join(', ')}\n`);
      failed += s.failures.length;
      if (record) {
        recordCampaign(outFile, {
          seeds: seeds.length,
          ...(args.values.has('from') ? { from } : {}),
          ...(args.values.has('concurrency') ? { concurrency } : {}),
          ...mode,
          concurrencyUsed: concurrency,
          workflows: targets.map((t) => t.workflow),
          summary: s,
          wallSeconds: (Date.now() - started) / 1000,
          scheduleSeconds: (Date.now() - schedulesStarted) / 1000,
          finishedAt: new Date(),
          ...(commit ? { commit } : {}),
          load: { start: loadAtStart, end: loadAverage() },
          machine: machineLine(machineInfo()),
        });
      }
    }
    if (args.flags.has('crash-points')) {
      for (const target of faultTargets) {
        const t = Date.now();
        const s = await enumerateCrashPoints(engine, target, { pairs: 'exact', concurrency });
        report(`${target.workflow}: ${s.points} crash points, ${s.pairs} pairs of ${s.pairPoints} points (exact)`, s, t);
        for (const f of s.failures) process.stdout.write(`FAIL ${f.what}: ${f.violations.join('; ')}\n`);
        failed += s.failures.length;
      }
    }
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanUp();
  }
  process.stdout.write(`total ${((Date.now() - started) / 1000).toFixed(1)} s; violations: ${failed}\n`);
  return failed > 0 ? 1 : 0;
}

/** Figure 9, 10, 12 or 13 of BENCHMARKS.md from a completed campaign: into .unum/bench/results.json, then the report re-rendered. */
function recordCampaign(outFile: string, run: FaultCampaignRun): void {
  const result = faultCampaignResult(run);
  // Without an earlier bench run or report there is no header yet: this machine and the campaign's command.
  recordResults(benchState(ROOT), outFile, [result], () => ({ machine: { ...machineInfo(), load: run.load }, command: faultCampaignCommand(run) }));
  process.stdout.write(`recorded figure ${result.number} (${result.targets?.map((t) => (t.met ? 'target met' : 'TARGET MISSED')).join(', ')}) into ${path.relative(ROOT, benchState(ROOT).resultsFile)}; rewrote ${path.relative(ROOT, outFile)}\n`);
}

function report(title: string, s: CampaignSummary, started: number): void {
  const service = s.serviceFaults > 0 ? `, ${s.serviceFaults} service faults (throttling / 500 / unreachable)` : '';
  process.stdout.write(`${title}: ${s.schedules} schedules, ${s.executions} executions, ${s.callFaults} call faults (crash/timeout)${service} injected, ${s.staleReads} stale reads, ${s.lateDuplicates} late duplicates delivered, violations ${s.failures.length}, ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  for (const [note, n] of s.notes) process.stdout.write(`  note (${n}x): ${note}\n`);
}

async function replay(engine: LocalEngine, targets: readonly Target[], seed: number, serviceFaults: boolean): Promise<number> {
  const target = targetOfSeed(targets, seed);
  const expectation = expectationFor(target, await referenceRun(engine, target.workflow, target.input), engine);
  const plan = planForSeed(seed, serviceFaults);
  process.stdout.write(`seed ${seed}: ${target.workflow}, ${JSON.stringify(plan instanceof ServiceFaultPlan ? { ...plan.params, service: plan.service } : plan.params)}\n`);
  const workflowId = `seed-${seed}-replay`;
  const armed = target.arm?.(seed, workflowId);
  const run = await checkedRun(engine, target.workflow, target.input, plan, expectation, { workflowId, keep: true, ...(target.effects ? { effects: target.effects } : {}) });
  armed?.disarm();
  process.stdout.write(`${renderTimeline(engine.emulator.timeline.of(run.workflowId))}\n`);
  process.stdout.write(`injected ${JSON.stringify({ ...plan.counts(), ...armed?.counts() })}; ${run.violations.length === 0 ? 'invariants hold' : `VIOLATIONS:\n  ${run.violations.join('\n  ')}`}\n`);
  for (const n of run.notes) process.stdout.write(`note: ${n}\n`);
  return run.violations.length > 0 ? 1 : 0;
}
