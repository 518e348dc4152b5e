/**
 * `npm run demo`: synthesize the example app, start the local engine, run every
 * example workflow on its `examples/<name>/input.json`, and print the result,
 * a per-node timeline and the workflow's diagram; then stop everything.
 *
 *   npm run demo -- [--only <name,...>] [--faults <seed>] [--app <cdk.out>] [--verbose]
 *
 * `--only` runs the named examples alone (e.g. `--only Collatz,Orders`).
 *
 * With `--faults`, each workflow also runs under the seed's random fault
 * schedule (crashes, duplicates, reordering) and is checked against its
 * fault-free result.
 *
 * The Approval example waits a day and then for an approver: the engine runs
 * with a time scale (a day passes in 8.6 s), and the demo is the approver (it
 * reads the task token from the approvals inbox and approves the claim).
 *
 * The Orders example writes PostgreSQL: where PostgreSQL is installed the demo
 * starts a throwaway server for it (test/support/postgres.ts) and stops it at
 * the end; where it is not, Orders is skipped with the reason.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Duration } from 'aws-cdk-lib';
import type { Json, NodeIR } from '../runtime/contract/ir';
import { renderSvg, findDot } from '../lib/graph/graphviz';
import { toDot, toMermaid, workflowGraph } from '../lib/graph/mermaid';
import type { LocalWorkflow } from '../lib/local/assembly';
import { readCloudAssembly } from '../lib/local/assembly';
import { LocalEngine } from '../lib/local/engine';
import { checkedRun } from '../lib/testing/fault-run';
import { findAppDir } from '../lib/local/project';
import { renderTimeline, summarize } from '../lib/local/report';
import { paramsForSeed, RandomPlan } from '../lib/testing/schedule';
import { synthesize } from '../lib/local/synth';
import { parseArgs } from '../lib/cli/argv';
import { type OrdersDatabase, startOrdersDatabase } from '../test/support/orders-database';
import { postgresMissing } from '../test/support/postgres';
import { APPROVAL_WORKFLOW, localApprover } from './approval/approver';
import type { ExpenseClaim } from './approval/handlers';
import { ANSWER_WITHIN, HOLD } from './approval/workflow';
import { exampleInput } from './inputs';
import { WORKFLOWS_WITH_DATABASE } from './orders/database';

const MAX_RESULT_LINES = 25;
/** Engine time per real time: the Approval example's day of waiting (and its approver's day) take 8.6 s each. */
const DEMO_TIME_SCALE = 0.0001;

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['only', 'faults', 'app'], flags: ['verbose', 'help'] });
  if (args.flags.has('help')) {
    process.stdout.write('usage: npm run demo -- [--only <workflow,...>] [--faults <seed>] [--app <cloud assembly dir>] [--verbose]\n');
    return 0;
  }
  const started = Date.now();
  const appDir = findAppDir();
  if (!appDir) throw new Error('no cdk.json here or above: run the demo in the unum-cdk checkout');
  let assembly = args.values.get('app');
  if (!assembly) {
    assembly = path.join(appDir, 'cdk.out');
    process.stdout.write(`synthesizing the example app (${path.relative(process.cwd(), appDir) || '.'}/cdk.json) into ${path.relative(process.cwd(), assembly)} ...\n`);
    await synthesize({ appDir, outDir: assembly });
  }
  const verbose = args.flags.has('verbose');
  const only = chosenWorkflows(assembly, args.values.get('only'));
  const database = await ordersDatabase(only);
  process.stdout.write('starting the local engine (DynamoDB Local + Lambda emulator) ...\n');
  const engine = await LocalEngine.fromCloudAssembly(assembly, {
    timeScale: DEMO_TIME_SCALE,
    ...(verbose ? { onLog: (line: string, fn: string) => process.stderr.write(`[${fn}] ${line}\n`) } : {}),
    ...(database.started ? { functionEnvironment: database.started.environment } : {}),
  }).catch(async (e: unknown) => {
    await database.started?.stop();
    throw e;
  });
  const stopAll = async (): Promise<void> => {
    await engine.stop();
    await database.started?.stop();
  };
  const stopOnSignal = (): void => { void stopAll().finally(() => process.exit(130)); };
  process.once('SIGINT', stopOnSignal);
  let failures = 0;
  try {
    process.stdout.write(`engine up in ${Date.now() - started} ms: ${engine.workflows.length} workflows, ${engine.app.functions.size} functions\n`);
    for (const wf of engine.workflows.filter((w) => only.includes(w.name))) {
      const inputFile = exampleInput(appDir, wf.name);
      if (!inputFile) {
        process.stdout.write(`\n== ${wf.name}: no examples/<name>/input.json, skipped\n`);
        continue;
      }
      if (WORKFLOWS_WITH_DATABASE.includes(wf.name) && !database.started) {
        process.stdout.write(`\n== ${wf.name}: skipped, it needs PostgreSQL: ${database.missing}\n`);
        continue;
      }
      const input = JSON.parse(fs.readFileSync(inputFile, 'utf8')) as Json;
      const ok = await demoWorkflow(engine, wf, input, path.relative(process.cwd(), inputFile), args.values.get('faults'), appDir);
      if (!ok) failures++;
    }
  } finally {
    process.removeListener('SIGINT', stopOnSignal);
    await stopAll();
  }
  process.stdout.write(`\ndone in ${((Date.now() - started) / 1000).toFixed(1)} s; engine stopped${failures ? `; ${failures} workflow(s) failed` : ''}\n`);
  return failures ? 1 : 0;
}

/** The workflows to run: the app's, or those `--only` names (all of them the app's). */
function chosenWorkflows(assembly: string, only: string | undefined): string[] {
  const all = [...readCloudAssembly(assembly).workflows.keys()];
  if (only === undefined) return all;
  const names = only.split(',').map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => !all.includes(n));
  if (unknown.length > 0 || names.length === 0) throw new Error(`--only ${only}: the app's workflows are ${all.join(', ')}`);
  return names;
}

/** The Orders example's database, when it is to run and PostgreSQL can be started here; else why not. */
async function ordersDatabase(workflows: readonly string[]): Promise<{ started?: OrdersDatabase; missing?: string }> {
  if (!WORKFLOWS_WITH_DATABASE.some((name) => workflows.includes(name))) return {};
  const missing = postgresMissing();
  if (missing) return { missing };
  process.stdout.write('starting PostgreSQL for the Orders example ...\n');
  try {
    return { started: await startOrdersDatabase('the demo') };
  } catch (e) {
    return { missing: `it did not start: ${e instanceof Error ? e.message : String(e)}` };
  }
}

async function demoWorkflow(engine: LocalEngine, wf: LocalWorkflow, input: Json, inputFile: string, faults: string | undefined, appDir: string): Promise<boolean> {
  const out = (s = ''): void => { process.stdout.write(`${s}\n`); };
  out(`\n${'='.repeat(72)}\n${wf.name}  (${Object.keys(wf.nodes).length} nodes, input ${inputFile})\n${'='.repeat(72)}`);
  const t = Date.now();
  const workflowId = engine.startRun(wf.name, input, { workflowId: `demo-${wf.name}-${Date.now()}` });
  if (wf.name === APPROVAL_WORKFLOW) await approve(engine, workflowId, input as unknown as ExpenseClaim, out);
  // A guard against a run that hangs, not a time limit: on a loaded machine a run here has taken over a minute.
  const record = await engine.waitForRun(workflowId, { timeoutMs: 300_000 });
  const ended = Date.now() - t;
  if (wf.name === APPROVAL_WORKFLOW) {
    out(`the answer deleted the approval's ${ANSWER_WITHIN.toHumanString()} timeout schedule: it will not fire;`);
    out('AskApprover runs twice below: its handler (hands out the token) and the approver\'s completion');
  }
  await engine.idle(workflowId);
  const entries = engine.emulator.timeline.of(workflowId);
  const s = summarize(entries);
  out(`run ${workflowId}: ${record.status} in ${ended} ms (${s.executions} executions, ${s.retries} retries, ${s.duplicates} duplicates)`);
  if (record.status === 'SUCCEEDED') out(`result:\n${indent(truncate(JSON.stringify(record.result, null, 2)))}`);
  else out(`error: ${JSON.stringify(record.error)}`);
  out('timeline:');
  out(renderTimeline(entries));
  let ok = record.status === 'SUCCEEDED';
  if (faults !== undefined) ok = (await demoFaults(engine, wf, input, Number(faults), record.result ?? null)) && ok;
  const graph = workflowGraph(Object.values(wf.nodes).map((fn) => fn.ir as NodeIR));
  out('diagram (Mermaid):');
  out('```mermaid');
  out(toMermaid(graph));
  out('```');
  const svg = path.join(appDir, '.unum', 'diagrams', `${wf.name}.svg`);
  if (renderSvg(toDot(graph, wf.name), svg)) out(`diagram (SVG): ${path.relative(process.cwd(), svg)}`);
  else if (!findDot()) out('(install Graphviz `dot` for an SVG diagram)');
  return ok;
}

/** How long `d` takes on the demo's engine. */
const scaled = (d: Duration): string => `${((d.toMilliseconds() * DEMO_TIME_SCALE) / 1000).toFixed(1)} s`;

/**
 * The demo as the Approval example's approver: once the run has waited its
 * day and handed out its task token, read the request from the approvals
 * inbox and approve it through the task-response function.
 */
async function approve(engine: LocalEngine, workflowId: string, claim: ExpenseClaim, out: (s?: string) => void): Promise<void> {
  out(`HoldOneDay waits ${HOLD.toHumanString()} (scaled x${DEMO_TIME_SCALE} on the local engine: ${scaled(HOLD)} here), then AskApprover hands its task token to the approvals inbox ...`);
  const approver = localApprover(engine);
  try {
    const request = await approver.pending(claim.claimId);
    // The wait runs from Check's end (it created the schedule) to the start of the Wait's node.
    const entries = engine.emulator.timeline.of(workflowId);
    const checked = entries.find((e) => e.node === 'Check')?.end;
    const woke = entries.find((e) => e.node === 'HoldOneDay')?.start;
    const waited = checked !== undefined && woke !== undefined ? ` (the wait took ${((woke - checked) / 1000).toFixed(1)} s)` : '';
    out(`approval requested${waited}: claim ${request.claim.claimId}, ${(request.claim.amountCents / 100).toFixed(2)} for "${request.claim.description}", token ${request.token.slice(0, 16)}... (${request.token.length} chars); the run waits, nothing runs`);
    await approver.answer(request, { approved: true, approver: 'demo-approver', note: 'approved by npm run demo' });
    out('the demo, as approver, sent sendTaskSuccess({ approved: true, approver: "demo-approver" }) through the task-response function');
  } finally {
    approver.close();
  }
}

async function demoFaults(engine: LocalEngine, wf: LocalWorkflow, input: Json, seed: number, expected: Json): Promise<boolean> {
  const plan = new RandomPlan(paramsForSeed(seed));
  const run = await checkedRun(engine, wf.name, input, plan, { kind: 'result', result: expected }, { keep: true });
  const entries = engine.emulator.timeline.of(run.workflowId);
  const s = summarize(entries);
  const i = plan.injected;
  process.stdout.write(`with faults (seed ${seed}): ${run.record?.status ?? 'unfinished'}; injected ${i.crash} crashes, ${i.timeout} timeouts, ${i.duplicate} duplicates, ${i.late} late duplicates, ${i.rerun} re-runs; saw ${s.executions} executions, ${s.retries} retries, ${s.duplicates} duplicates\n`);
  process.stdout.write(`${renderTimeline(entries)}\n`);
  process.stdout.write(run.violations.length === 0 ? 'invariants hold: same result as the fault-free run, one result, no coordination state left\n' : `VIOLATIONS:\n${run.violations.map((v) => `  ${v}`).join('\n')}\n`);
  engine.forget(run.workflowId);
  return run.violations.length === 0;
}

function truncate(text: string): string {
  const lines = text.split('\n');
  return lines.length <= MAX_RESULT_LINES ? text : [...lines.slice(0, MAX_RESULT_LINES), `... (${lines.length - MAX_RESULT_LINES} more lines)`].join('\n');
}

function indent(text: string): string {
  return text.split('\n').map((l) => `  ${l}`).join('\n');
}
