/**
 * Local engines the engine-based figures share: the example app
 * (examples/app.ts, synthesized with the pinned CDK CLI) and the bench chain app
 * (bench/apps/chain-app.ts: a 10-step UnumWorkflow and the same 10 functions
 * chained by plain async invokes). Each engine has its own DynamoDB Local and
 * Lambda emulator; it is started once per bench run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exampleInput } from '../examples/inputs';
import { WORKFLOWS_WITH_DATABASE } from '../examples/orders/database';
import { userCodeMsOfLogLine } from '../lib/cost/measure';
import { LocalEngine } from '../lib/local/engine';
import { synthesize } from '../lib/local/synth';
import { synthChainApp } from './compile-synth';
import type { Json } from '../runtime/ir';
import type { BenchContext } from './types';

export interface BenchEngine {
  readonly engine: LocalEngine;
  /** User-code ms per execution id, from the runtime's transition log lines (for lib/cost). */
  readonly userCodeMs: Map<string, number>;
}

export interface BenchExample {
  readonly name: string;
  readonly input: Json;
}

/**
 * The examples the engine-based figures run, each on its
 * examples/<name>/input.json: not the ones that need the orders database
 * (PostgreSQL), whose writes figure 11 measures on their own.
 */
export function benchExamples(engine: LocalEngine, root: string): BenchExample[] {
  return engine.workflows.flatMap((wf) => {
    const file = WORKFLOWS_WITH_DATABASE.includes(wf.name) ? undefined : exampleInput(root, wf.name);
    return file ? [{ name: wf.name, input: JSON.parse(fs.readFileSync(file, 'utf8')) as Json }] : [];
  });
}

/** The engine's default cap on live function sandboxes (lib/local/function-runner.ts). */
export const DEFAULT_SANDBOXES = 64;

async function start(assembly: string, maxSandboxes = DEFAULT_SANDBOXES): Promise<{ value: BenchEngine; stop: () => Promise<void> }> {
  const userCodeMs = new Map<string, number>();
  const engine = await LocalEngine.fromCloudAssembly(assembly, {
    maxSandboxes,
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
  return ctx.resources.shared(`engine:examples:${maxSandboxes}`, async () => start(await examplesAssembly(ctx), maxSandboxes));
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
