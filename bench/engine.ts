/**
 * Local engines the engine-based figures share: the example app
 * (examples/app.ts, synthesized with the pinned CDK CLI) and the bench chain app
 * (bench/apps/chain-app.ts: a 10-step UnumWorkflow and the same 10 functions
 * chained by plain async invokes). Each engine has its own DynamoDB Local and
 * Lambda emulator; it is started once per bench run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exampleInput, exampleTaskSuccess } from '../examples/inputs';
import { WORKFLOWS_WITH_DATABASE } from '../examples/orders/database';
import { userCodeMsOfLogLine } from '../lib/cost/measure';
import type { LocalWorkflow } from '../lib/local/assembly';
import { LocalEngine } from '../lib/local/engine';
import { synthesize } from '../lib/local/synth';
import { synthChainApp } from './compile-synth';
import type { Json } from '../runtime/contract/ir';
import type { BenchContext } from './types';

export interface BenchEngine {
  readonly engine: LocalEngine;
  /** User-code ms per execution id, from the runtime's transition log lines (for lib/cost). */
  readonly userCodeMs: Map<string, number>;
}

export interface BenchExample {
  readonly name: string;
  readonly input: Json;
  /** What an approver answers the example's callback Tasks (examples/<name>/task-success.json); none: it has none. */
  readonly taskSuccess?: Json;
}

/**
 * Engine time per real time: a Wait's day takes 8.6 s, and every schedule a run
 * creates and does not delete fires before the run is measured.
 */
export const BENCH_TIME_SCALE = 0.0001;

/** Whether a workflow has a Wait or a callback Task: its runs are mostly waiting. */
function waits(wf: LocalWorkflow): boolean {
  const hasWait = (v: unknown): boolean =>
    Array.isArray(v) ? v.some(hasWait) : v !== null && typeof v === 'object' && (('wait' in v && 'target' in v) || Object.values(v).some(hasWait));
  return Object.values(wf.nodes).some((fn) => fn.ir?.callback !== undefined || hasWait(fn.ir?.instructions));
}

/**
 * The examples the engine-based figures run, each on its
 * examples/<name>/input.json: not the ones that need the orders database
 * (PostgreSQL), whose writes figure 11 measures on their own, and those that
 * wait (a Wait, a callback Task) unless `waiting` says so: a throughput
 * figure measures work, not waiting.
 */
export function benchExamples(engine: LocalEngine, root: string, options: { readonly waiting?: boolean } = {}): BenchExample[] {
  const read = (file: string): Json => JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
  return engine.workflows.flatMap((wf) => {
    const file = WORKFLOWS_WITH_DATABASE.includes(wf.name) || (waits(wf) && !options.waiting) ? undefined : exampleInput(root, wf.name);
    const answer = exampleTaskSuccess(root, wf.name);
    return file ? [{ name: wf.name, input: read(file), ...(answer ? { taskSuccess: read(answer) } : {}) }] : [];
  });
}

/** The engine's default cap on live function sandboxes (lib/local/function-runner.ts). */
export const DEFAULT_SANDBOXES = 64;

async function start(assembly: string, maxSandboxes = DEFAULT_SANDBOXES, timeScale?: number): Promise<{ value: BenchEngine; stop: () => Promise<void> }> {
  const userCodeMs = new Map<string, number>();
  const engine = await LocalEngine.fromCloudAssembly(assembly, {
    maxSandboxes,
    ...(timeScale !== undefined ? { timeScale } : {}),
    onLog: (line, _fn, executionId) => {
      const ms = executionId === undefined ? undefined : userCodeMsOfLogLine(line);
      if (ms !== undefined) userCodeMs.set(executionId as string, ms);
    },
  });
  return { value: { engine, userCodeMs }, stop: () => engine.stop() };
}

/** The example app's cloud assembly, synthesized once per bench run. */
function examplesAssembly(ctx: BenchContext): Promise<string> {
  return ctx.resources.shared('assembly:examples', async () => {
    const outDir = path.join(ctx.scratch, 'examples.out');
    ctx.log('synthesizing the example app ...');
    await synthesize({ appDir: ctx.root, outDir });
    return { value: outDir };
  });
}

/** An engine on the example app; `maxSandboxes` other than the default gets its own engine. */
export function examplesEngine(ctx: BenchContext, maxSandboxes = DEFAULT_SANDBOXES): Promise<BenchEngine> {
  return ctx.resources.shared(`engine:examples:${maxSandboxes}`, async () => start(await examplesAssembly(ctx), maxSandboxes, BENCH_TIME_SCALE));
}

/** Stops a shared engine before the run ends (frees its sandboxes and DynamoDB Local). */
export async function stopExamplesEngine(ctx: BenchContext, maxSandboxes: number): Promise<void> {
  await ctx.resources.release(`engine:examples:${maxSandboxes}`);
}

export function chainEngine(ctx: BenchContext, steps: number): Promise<BenchEngine> {
  return ctx.resources.shared(`engine:chain${steps}`, async () => {
    const outDir = path.join(ctx.scratch, `chain${steps}.out`);
    ctx.log(`synthesizing the ${steps}-step bench app ...`);
    await synthChainApp(ctx, steps, outDir, { UNUM_BENCH_PLAIN_DIR: path.join(ctx.scratch, `plain${steps}`) });
    return start(outDir);
  });
}
