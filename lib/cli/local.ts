/**
 * `unum local run|start`: a synthesized app on the local engine.
 *
 *   unum local run <workflow> --input <file.json|-> [--app <cdk.out | app dir>] [--synth] [--faults <seed>] [--workflow-id <id>] [--verbose]
 *   unum local start [--app <cdk.out | app dir>] [--synth] [--port <N>] [--verbose]
 *
 * `run` runs one workflow and prints the result (stdout) and the per-node
 * timeline (stderr); with `--faults <seed>` it runs it again under that
 * seed's fault schedule and checks the run against the fault-free one.
 * `start` keeps the engine running for the client, the `unum` commands and
 * your scripts (from another shell) until Ctrl-C. `--app` is a cloud assembly
 * or a CDK app directory; an app's assembly is reused while it is newer than
 * the app's sources (`--synth` synthesizes anyway). Default: the app of the
 * current directory (cdk.json here or above), else ./cdk.out.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Json } from '../../runtime/contract/ir';
import { parseArgs, UsageError } from './argv';
import { LocalEngine } from '../local/engine';
import { cloudAssemblyOf } from '../local/project';
import { renderTimeline, runSummary } from '../local/report';
import { runWorkflow, type LocalRun, type LocalRunOutcome } from '../local/run-workflow';

const USAGE = `usage:
  unum local run <workflow> --input <file.json|-> [--app <cdk.out | app dir>] [--synth] [--faults <seed>] [--workflow-id <id>] [--verbose]
  unum local start [--app <cdk.out | app dir>] [--synth] [--port <N>] [--verbose]
`;
const PROGRESS_EVERY_MS = 2000;
const RUN_TIMEOUT_MS = 15 * 60_000;

const log = (s: string): void => { process.stderr.write(`${s}\n`); };

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['input', 'faults', 'app', 'workflow-id', 'port'], flags: ['verbose', 'help', 'synth'] });
  const [command, workflow, ...extra] = args.positional;
  const ok = (command === 'run' && workflow !== undefined && extra.length === 0) || (command === 'start' && workflow === undefined);
  if (args.flags.has('help') || !ok) {
    process.stderr.write(USAGE);
    return args.flags.has('help') ? 0 : 2;
  }
  const only = (names: readonly string[]): void => {
    const other = [...args.values.keys()].find((k) => !names.includes(k));
    if (other !== undefined) throw new UsageError(`unum local ${command} takes no --${other}`);
  };
  const verbose = args.flags.has('verbose');
  const synth = args.flags.has('synth');
  if (command === 'start') {
    only(['app', 'port']);
    const port = args.values.get('port');
    if (port !== undefined && !/^\d{1,5}$/.test(port)) throw new UsageError(`--port takes a port number, got '${port}'`);
    return start(await startEngine(args.values.get('app'), synth, verbose, port === undefined ? undefined : Number(port)));
  }
  only(['input', 'faults', 'app', 'workflow-id']);
  const inputFile = args.values.get('input');
  if (inputFile === undefined) throw new UsageError('--input is required (a JSON file, or - for stdin)');
  const input = JSON.parse(fs.readFileSync(inputFile === '-' ? 0 : inputFile, 'utf8')) as Json;
  const faults = args.values.get('faults');
  if (faults !== undefined && !/^-?\d+$/.test(faults)) throw new UsageError(`--faults takes an integer seed, got '${faults}'`);
  const engine = await startEngine(args.values.get('app'), synth, verbose);
  try {
    engine.workflow(workflow as string); // fail before starting, listing the workflows there are
    const workflowId = args.values.get('workflow-id');
    const run = await runWorkflow(engine, workflow as string, input, {
      timeoutMs: RUN_TIMEOUT_MS,
      onPoll: progress(),
      ...(workflowId === undefined ? {} : { workflowId }),
      ...(faults === undefined ? {} : { faults: Number(faults) }),
    });
    return report(workflow as string, run);
  } finally {
    await engine.stop();
  }
}

async function startEngine(app: string | undefined, synth: boolean, verbose: boolean, port?: number): Promise<LocalEngine> {
  const assembly = await cloudAssemblyOf(app, { synth, log });
  log('starting the local engine (DynamoDB Local + Lambda emulator) ...');
  return LocalEngine.fromCloudAssembly(assembly, {
    ...(verbose ? { onLog: (line: string, fn: string) => log(`[${fn}] ${line}`) } : {}),
    ...(port === undefined ? {} : { port }),
  });
}

/** Prints the run's status every couple of seconds of a long run. */
function progress(): (status: string) => void {
  const started = Date.now();
  let last = started;
  return (status) => {
    if (Date.now() - last < PROGRESS_EVERY_MS) return;
    last = Date.now();
    log(`  ${((last - started) / 1000).toFixed(0)} s: ${status}`);
  };
}

/** The result on stdout, the timelines and the fault check on stderr; the exit code. */
function report(workflow: string, run: LocalRun): number {
  const reference = run.faults?.reference ?? run;
  logOutcome(`${workflow} run ${reference.workflowId}`, reference);
  process.stdout.write(`${JSON.stringify(reference.status === 'SUCCEEDED' ? reference.result : { status: reference.status, error: reference.error ?? null }, null, 2)}\n`);
  const faults = run.faults;
  if (!faults) return run.status === 'SUCCEEDED' ? 0 : 1;
  log(`\nagain with fault schedule seed ${faults.seed}: ${JSON.stringify(faults.params)}`);
  logOutcome(`run ${run.workflowId}`, run);
  const i = faults.injected;
  log(`injected ${i.crash} crashes, ${i.timeout} timeouts, ${i.duplicate} duplicates, ${i.late} late duplicates, ${i.rerun} re-runs`);
  if (faults.violations.length === 0) {
    log('invariants hold: one result, equal to the fault-free run\'s; no coordination state left');
    return 0;
  }
  log(`seed ${faults.seed}: ${faults.violations.length} violation(s):\n${faults.violations.map((v) => `  ${v}`).join('\n')}`);
  return 3;
}

function logOutcome(title: string, run: LocalRunOutcome): void {
  log(runSummary(title, run));
  log(renderTimeline(run.timeline));
}

/** Keeps the engine running until SIGINT or SIGTERM, having said how to reach it. */
async function start(engine: LocalEngine): Promise<number> {
  const out = (s = ''): void => { process.stdout.write(`${s}\n`); };
  out(`unum local engine running: ${engine.workflows.length} workflow(s)`);
  out('');
  out('Point the AWS SDK at it (UnumClient, the unum commands, your scripts), e.g. in another shell:');
  for (const [name, value] of Object.entries(engine.environment)) out(`  export ${name}=${value}`);
  out('');
  const rows = engine.workflows.map((wf) => [wf.name, wf.entryFunction, wf.tableName]);
  const widths = [0, 1].map((c) => Math.max(...rows.map((r) => (r[c] as string).length), c === 0 ? 'workflow'.length : 'entry function'.length));
  const line = (r: readonly string[]): string => `  ${(r[0] as string).padEnd(widths[0] as number)}  ${(r[1] as string).padEnd(widths[1] as number)}  ${r[2]}`;
  out(line(['workflow', 'entry function', 'table']));
  for (const r of rows) out(line(r));
  out('');
  out(`Start a run:  unum start --app ${path.relative(process.cwd(), engine.app.dir) || '.'} --workflow ${rows[0]?.[0] ?? '<workflow>'} --input <file.json> --wait`);
  out('Ctrl-C stops the engine.');
  // The listeners stay: a second Ctrl-C (or one sent to the whole process group) must not cut the cleanup short.
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.on('SIGINT', resolve);
    process.on('SIGTERM', resolve);
  });
  log(`${signal}: stopping the engine ...`);
  await engine.stop();
  log('engine stopped');
  return 0;
}
