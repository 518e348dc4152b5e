/**
 * `unum local run <workflow> --input file.json [--faults <seed>] [--app <dir>] [--workflow-id id] [--verbose]`
 *
 * Runs one workflow of a synthesized app on the local engine and prints the
 * result (stdout) and the per-node timeline (stderr). `--app` is a cloud
 * assembly (`cdk.out`) or a CDK app directory (with cdk.json, synthesized
 * first); default: the app of the current directory. With `--faults <seed>`
 * the run is repeated under that seed's fault schedule and checked against
 * the fault-free run; the seed replays the same schedule.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Json } from '../../runtime/ir';
import type { RunStatusWithResult } from '../client/records';
import { parseArgs } from './argv';
import { LocalEngine } from '../local/engine';
import { checkedRun } from '../local/fault-run';
import { findAppDir } from '../local/project';
import { renderTimeline, summarize } from '../local/report';
import { paramsForSeed, RandomPlan } from '../local/schedule';

const USAGE = 'usage: unum local run <workflow> --input <file.json> [--faults <seed>] [--app <cdk.out | app dir>] [--workflow-id <id>] [--verbose]\n';
const PROGRESS_EVERY_MS = 2000;

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['input', 'faults', 'app', 'workflow-id'], flags: ['verbose', 'help'] });
  const [command, workflow] = args.positional;
  if (args.flags.has('help') || command !== 'run' || !workflow) {
    process.stderr.write(USAGE);
    return args.flags.has('help') ? 0 : 2;
  }
  const inputFile = args.values.get('input');
  if (!inputFile) {
    process.stderr.write(`--input is required\n${USAGE}`);
    return 2;
  }
  const input = JSON.parse(fs.readFileSync(inputFile, 'utf8')) as Json;
  const faults = args.values.get('faults');
  if (faults !== undefined && !/^-?\d+$/.test(faults)) throw new Error(`--faults takes an integer seed, got '${faults}'`);
  const log = (s: string): void => { process.stderr.write(`${s}\n`); };
  const engine = await startEngine(args.values.get('app'), args.flags.has('verbose'), log);
  try {
    engine.workflow(workflow); // fail early, listing the workflows there are
    const workflowId = engine.startRun(workflow, input, args.values.has('workflow-id') ? { workflowId: args.values.get('workflow-id') as string } : {});
    log(`started ${workflow} run ${workflowId}`);
    const record = await engine.waitForRun(workflowId, { timeoutMs: 15 * 60_000, onPoll: progress(engine, workflowId, log) });
    await engine.idle(workflowId);
    const entries = engine.emulator.timeline.of(workflowId);
    const s = summarize(entries);
    log(`${record.status}: ${s.executions} executions, ${s.retries} retries, ${s.duplicates} duplicates`);
    log(renderTimeline(entries));
    printRecord(record);
    if (faults === undefined) return record.status === 'SUCCEEDED' ? 0 : 1;
    return await runWithFaults(engine, workflow, input, Number(faults), record, log);
  } finally {
    await engine.stop();
  }
}

async function startEngine(app: string | undefined, verbose: boolean, log: (s: string) => void): Promise<LocalEngine> {
  const options = verbose ? { onLog: (line: string, fn: string) => log(`[${fn}] ${line}`) } : {};
  const target = app ?? findAppDir() ?? 'cdk.out';
  if (fs.existsSync(path.join(target, 'manifest.json'))) return LocalEngine.fromCloudAssembly(target, options);
  if (fs.existsSync(path.join(target, 'cdk.json'))) {
    log(`synthesizing ${path.join(target, 'cdk.json')} ...`);
    return LocalEngine.fromApp(target, options);
  }
  throw new Error(`${target} is neither a cloud assembly (manifest.json) nor a CDK app (cdk.json)`);
}

/** Prints a progress line every couple of seconds of a long run. */
function progress(engine: LocalEngine, workflowId: string, log: (s: string) => void): (r: RunStatusWithResult) => void {
  const started = Date.now();
  let last = started;
  return (r) => {
    if (Date.now() - last < PROGRESS_EVERY_MS) return;
    last = Date.now();
    const entries = engine.emulator.timeline.of(workflowId);
    const running = entries.filter((e) => e.end === undefined).map((e) => e.node ?? e.functionName);
    log(`  ${((last - started) / 1000).toFixed(0)} s: ${r.status}, ${entries.length} executions${running.length ? `, running ${[...new Set(running)].join(', ')}` : ''}`);
  };
}

function printRecord(record: RunStatusWithResult): void {
  if (record.status === 'SUCCEEDED') process.stdout.write(`${JSON.stringify(record.result, null, 2)}\n`);
  else process.stdout.write(`${JSON.stringify({ status: record.status, error: record.error ?? null }, null, 2)}\n`);
}

async function runWithFaults(engine: LocalEngine, workflow: string, input: Json, seed: number, reference: RunStatusWithResult, log: (s: string) => void): Promise<number> {
  const plan = new RandomPlan(paramsForSeed(seed));
  const expectation = reference.status === 'SUCCEEDED' ? { kind: 'result' as const, result: reference.result ?? null } : { kind: 'failed' as const };
  log(`\nagain with fault schedule seed ${seed}: ${JSON.stringify(plan.params)}`);
  const run = await checkedRun(engine, workflow, input, plan, expectation, { keep: true });
  log(renderTimeline(engine.emulator.timeline.of(run.workflowId)));
  const i = plan.injected;
  log(`injected ${i.crash} crashes, ${i.timeout} timeouts, ${i.duplicate} duplicates, ${i.late} late duplicates, ${i.rerun} re-runs (${run.executions} executions)`);
  if (run.violations.length === 0) {
    log('invariants hold: one result, equal to the fault-free run\'s; no coordination state left');
    return 0;
  }
  log(`seed ${seed}: ${run.violations.length} violation(s):\n${run.violations.map((v) => `  ${v}`).join('\n')}`);
  return 3;
}
