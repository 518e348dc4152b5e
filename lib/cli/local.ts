/**
 * `unum local run|start`: a synthesized app on the local engine.
 *
 *   unum local run <workflow> --input <file.json|-> [--app <cdk.out | app dir>] [--synth] [--faults <seed>] [--workflow-id <id>] [--verbose]
 *   unum local start [--app <cdk.out | app dir>] [--synth] [--watch] [--port <N>] [--verbose]
 *
 * `run` runs one workflow and prints the result (stdout) and the per-node
 * timeline (stderr); with `--faults <seed>` it runs it again under that
 * seed's fault schedule and checks the run against the fault-free one.
 * `start` keeps the engine running for the client, the `unum` commands and
 * your scripts (from another shell) until Ctrl-C, and deploys each new synth
 * of the app's assembly onto it while runs are in flight (each run finishes on
 * the deployment it started on); with `--watch` it also synthesizes the app
 * again when its sources change, as `cdk watch` does. `--app` is a cloud assembly
 * or a CDK app directory; an app's assembly is reused while it is newer than
 * the app's sources (`--synth` synthesizes anyway). Default: the app of the
 * current directory (cdk.json here or above), else ./cdk.out. A run that
 * waits on a callback Task says so once, with the commands that answer it
 * from another shell. Help: lib/cli/help.ts.
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { Json } from '../../runtime/contract/ir';
import { decodeTaskToken } from '../../runtime/contract/task-token';
import { noWorkflowError, readAssembly } from '../assembly';
import { parseArgs, UsageError } from './argv';
import { answerCommands } from './answer';
import { LocalEngine } from '../local/engine';
import { cloudAssemblyOf, findAppDir, isCloudAssembly } from '../local/project';
import { renderTimeline, runSummary } from '../local/report';
import { runWorkflow, type LocalRun, type LocalRunOutcome } from '../local/run-workflow';
import { tokensHandedOut } from '../local/task-tokens';
import { AppWatcher } from '../local/watch';
import { randomFaults } from '../testing/random-faults';

const PROGRESS_EVERY_MS = 2000;
/** A status that has not changed is repeated this seldom: a run waiting on a callback Task can wait for long. */
const UNCHANGED_EVERY_MS = 30_000;
const RUN_TIMEOUT_MS = 15 * 60_000;

const log = (s: string): void => { process.stderr.write(`${s}\n`); };

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['input', 'faults', 'app', 'workflow-id', 'port'], flags: ['verbose', 'synth', 'watch'] });
  const [command, workflow, ...extra] = args.positional;
  if (command !== 'run' && command !== 'start') {
    throw new UsageError(command === undefined ? 'unum local needs a command: run <workflow> or start' : `unknown command 'local ${command}' (have: run, start)`);
  }
  if (command === 'run' && workflow === undefined) throw new UsageError('unum local run needs a workflow name');
  const unexpected = command === 'run' ? extra : [workflow, ...extra].filter((a) => a !== undefined);
  if (unexpected.length > 0) throw new UsageError(`unum local ${command} takes no argument '${unexpected[0]}'`);
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
    const app = args.values.get('app');
    const appDir = app !== undefined && isCloudAssembly(app) ? undefined : (app ?? findAppDir());
    if (args.flags.has('watch') && appDir === undefined) throw new UsageError('--watch synthesizes the app when its sources change: it takes a CDK app directory (with cdk.json) as --app, or none in one');
    const assembly = await cloudAssemblyOf(app, { synth, log });
    const watcher = new AppWatcher({ assembly, ...(args.flags.has('watch') && appDir !== undefined ? { appDir } : {}), log });
    try {
      const engine = await startEngine(watcher.first, verbose, port === undefined ? undefined : Number(port));
      watcher.watch(engine);
      return await start(engine, assembly, watcher);
    } finally {
      watcher.removeCopies();
    }
  }
  if (args.flags.has('watch')) throw new UsageError('unum local run takes no --watch');
  only(['input', 'faults', 'app', 'workflow-id']);
  const inputFile = args.values.get('input');
  if (inputFile === undefined) throw new UsageError('--input is required (a JSON file, or - for stdin)');
  const input = JSON.parse(fs.readFileSync(inputFile === '-' ? 0 : inputFile, 'utf8')) as Json;
  const faults = args.values.get('faults');
  if (faults !== undefined && !/^-?\d+$/.test(faults)) throw new UsageError(`--faults takes an integer seed, got '${faults}'`);
  const assembly = await cloudAssemblyOf(args.values.get('app'), { synth, log });
  // Before the engine starts (seconds): a mistyped name fails at once, listing the workflows there are.
  const app = readAssembly(assembly);
  if (!app.workflows.has(workflow as string)) throw new UsageError(noWorkflowError(app, workflow as string));
  const engine = await startEngine(assembly, verbose);
  try {
    const workflowId = args.values.get('workflow-id') ?? randomUUID();
    const waiting = callbackNotices(engine, workflow as string, workflowId);
    const run = await runWorkflow(engine, workflow as string, input, {
      timeoutMs: RUN_TIMEOUT_MS,
      onPoll: progress(waiting),
      workflowId,
      ...(faults === undefined ? {} : { faults: randomFaults(Number(faults)) }),
    });
    return report(workflow as string, run);
  } finally {
    await engine.stop();
  }
}

async function startEngine(assembly: string, verbose: boolean, port?: number): Promise<LocalEngine> {
  log('starting the local engine (DynamoDB Local + Lambda emulator) ...');
  return LocalEngine.fromCloudAssembly(assembly, {
    ...(verbose ? { onLog: (line: string, fn: string) => log(`[${fn}] ${line}`) } : {}),
    ...(port === undefined ? {} : { port }),
  });
}

/**
 * Prints the run's status every couple of seconds of a long run, and an
 * unchanged one (a run waiting on a callback Task) every half minute only.
 * `waiting` names the callback Tasks the run waits on, telling each once.
 */
function progress(waiting: () => readonly string[]): (status: string) => void {
  const started = Date.now();
  let last = started;
  let lastLine = '';
  return (status) => {
    const tasks = waiting();
    if (Date.now() - last < PROGRESS_EVERY_MS) return;
    const line = tasks.length ? `${status}, waiting on callback Task ${tasks.join(', ')}` : status;
    if (line === lastLine && Date.now() - last < UNCHANGED_EVERY_MS) return;
    last = Date.now();
    lastLine = line;
    log(`  ${((last - started) / 1000).toFixed(0)} s: ${line}`);
  };
}

/**
 * Watches the tokens run `workflowId` hands out (the engine sees every
 * waiting record written) and, for each new one, says which Task waits and
 * how to answer it from another shell: the engine's variables (once) and the
 * `unum task-success` / `task-failure` commands. Returns the waiting Tasks' nodes so far.
 */
function callbackNotices(engine: LocalEngine, workflow: string, workflowId: string): () => readonly string[] {
  const told = new Map<string, string>();
  const where = ['--app', path.relative(process.cwd(), engine.app.dir) || '.', '--workflow', workflow];
  return () => {
    for (const token of tokensHandedOut(engine.traffic.of(workflowId), engine.app.functions)) {
      if (told.has(token)) continue;
      const decoded = decodeTaskToken(token);
      const node = typeof decoded === 'string' ? '?' : decoded.node;
      log(`run ${workflowId} waits on callback Task ${node} since ${new Date().toISOString()}: nothing runs until its task token is answered.`);
      log('Answer it from another shell while this one waits:');
      if (told.size === 0) for (const [name, value] of Object.entries(engine.environment)) log(`  export ${name}=${value}`);
      for (const line of answerCommands(token, where)) log(`  ${line}`);
      told.set(token, node);
    }
    return [...new Set(told.values())];
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

/** Keeps the engine running, on the newest synth of `assembly`, until SIGINT or SIGTERM, having said how to reach it. */
async function start(engine: LocalEngine, assembly: string, watcher: AppWatcher): Promise<number> {
  const out = (s = ''): void => { process.stdout.write(`${s}\n`); };
  out(`unum local engine running: ${engine.workflows.length} workflow(s)`);
  out('');
  out('Point the AWS SDK at it (UnumClient, the unum commands, your scripts), e.g. in another shell:');
  for (const [name, value] of Object.entries(engine.environment)) out(`  export ${name}=${value}`);
  out('');
  const rows = engine.workflows.map((wf) => [wf.name, wf.deployment, wf.entryFunction, wf.tableName]);
  const headers = ['workflow', 'live deployment', 'entry function', 'table'];
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] as string).length)));
  const line = (r: readonly string[]): string => `  ${r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c] as number))).join('  ')}`;
  out(line(headers));
  for (const r of rows) out(line(r));
  out('');
  const shown = path.relative(process.cwd(), assembly) || '.';
  out(`Start a run:  unum start --app ${shown} --workflow ${rows[0]?.[0] ?? '<workflow>'} --input <file.json> --wait`);
  out(`A new synth of ${shown} is deployed while runs are in flight: each run finishes on the deployment it started on.`);
  out('A run waiting on a callback Task: unum status <id> (same options) prints its task token and the command that answers it.');
  out('Ctrl-C stops the engine.');
  // The listeners stay: a second Ctrl-C (or one sent to the whole process group) must not cut the cleanup short.
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.on('SIGINT', resolve);
    process.on('SIGTERM', resolve);
  });
  log(`${signal}: stopping the engine ...`);
  watcher.stop();
  await watcher.settled();
  await engine.stop();
  log('engine stopped');
  return 0;
}
