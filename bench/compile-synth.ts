/**
 * Figure 7: compile time of a chain of 100 / 1,000 / 10,000 Tasks
 * (lib/compiler `benchCompile`, in process, after a warm-up), and `cdk synth`
 * time with bundling of an app whose UnumWorkflow has 10 / 100 / 300 functions:
 * the pinned CDK CLI (`npx cdk synth --quiet -o <dir>`) on bench/apps/chain-app.ts,
 * each run a fresh process with an empty asset staging directory.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readAssembly } from '../lib/assembly';
import { benchCompile } from './compile';
import { synthesize } from '../lib/local/synth';
import { fmt, fmtMs, median } from './stats';
import type { BenchContext, FigureOutput, Table } from './types';

/** Runs `fn` with extra environment variables, restoring the old values after. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const old = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(old)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Synthesizes bench/apps/chain-app.ts with `tasks` Tasks into `outDir`; returns the wall time in ms. */
export async function synthChainApp(ctx: BenchContext, tasks: number, outDir: string, extraEnv: Record<string, string> = {}): Promise<number> {
  const appDir = path.join(ctx.scratch, `app-${tasks}-${path.basename(outDir)}`);
  const tmp = path.join(appDir, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const tsNode = path.join(ctx.root, 'node_modules', 'ts-node', 'register', 'transpile-only');
  const app = path.join(ctx.root, 'bench', 'apps', 'chain-app.ts');
  fs.writeFileSync(path.join(appDir, 'cdk.json'), JSON.stringify({
    app: `node -r ${JSON.stringify(tsNode).slice(1, -1)} ${app}`,
    notices: false,
    versionReporting: false,
    context: { 'cli-telemetry': false },
  }, null, 2));
  const t0 = performance.now();
  await withEnv({
    UNUM_BENCH_TASKS: String(tasks),
    TS_NODE_PROJECT: path.join(ctx.root, 'tsconfig.json'),
    // A fresh staging directory: every run bundles and stages its assets from scratch.
    TMPDIR: tmp,
    ...extraEnv,
  }, () => synthesize({ appDir, outDir }));
  return performance.now() - t0;
}

/** Lambda functions and stacks in a cloud assembly. */
function countFunctions(outDir: string): { functions: number; stacks: number } {
  const { stacks } = readAssembly(outDir);
  const functions = stacks.flatMap((s) => Object.values(s.resources)).filter((r) => r.Type === 'AWS::Lambda::Function').length;
  return { functions, stacks: stacks.length };
}

/** CloudFormation's limit on resources per stack. */
const STACK_RESOURCE_LIMIT = 500;

export async function run(ctx: BenchContext): Promise<FigureOutput> {
  const compileSizes = [100, 1000, 10000];
  const reps = (n: number): number => (ctx.quick ? (n >= 10000 ? 1 : 3) : n >= 10000 ? 5 : 9);
  benchCompile(100); // warm-up: module loading and JIT
  const compileRows: (string | number)[][] = [];
  for (const n of compileSizes) {
    const times: number[] = [];
    let nodes = 0;
    for (let r = 0; r < reps(n); r++) {
      const res = benchCompile(n);
      times.push(res.compileMs);
      nodes = res.nodes;
    }
    ctx.log(`compile ${n}: ${fmtMs(median(times))}`);
    compileRows.push([fmt(n, 0), fmt(nodes, 0), reps(n), fmtMs(median(times)), fmt((median(times) * 1000) / nodes, 1)]);
  }

  const synthSizes = [10, 100, 300];
  const synthReps = ctx.quick ? 1 : 3;
  const synthRows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const n of synthSizes) {
    // One workflow in one stack first; when CloudFormation's resource limit refuses it, split into stacks of at most 100 Tasks.
    let stacks = 1;
    const times: number[] = [];
    let counted = { functions: 0, stacks: 0 };
    try {
      const probeDir = path.join(ctx.scratch, `synth-${n}-probe`);
      times.push(await synthChainApp(ctx, n, probeDir));
      counted = countFunctions(probeDir);
      fs.rmSync(probeDir, { recursive: true, force: true });
    } catch (e) {
      const m = /Number of resources in stack '[^']+': (\d+) is greater than allowed maximum of (\d+)/.exec(String((e as Error).message));
      if (!m) throw e;
      stacks = Math.ceil(n / 100);
      notes.push(`A workflow of ${n} Tasks in one stack does not synthesize: ${m[1]} resources > CloudFormation's ${m[2]} per stack (the construct makes about 4 resources per node: function, role, policy, event-invoke config). Measured instead as ${stacks} workflows of ${Math.ceil(n / stacks)} Tasks, one per stack, in one app.`);
    }
    for (let r = times.length; r < synthReps; r++) {
      const outDir = path.join(ctx.scratch, `synth-${n}-${r}`);
      times.push(await synthChainApp(ctx, n, outDir, { UNUM_BENCH_STACKS: String(stacks) }));
      counted = countFunctions(outDir);
      fs.rmSync(outDir, { recursive: true, force: true });
    }
    ctx.log(`synth ${n}: ${fmtMs(median(times))}`);
    synthRows.push([n, counted.functions, counted.stacks, synthReps, fmtMs(median(times)), fmtMs(median(times) / counted.functions)]);
  }

  const tables: Table[] = [
    { caption: 'Compile (compileWorkflow of a chain of Tasks)', headers: ['States', 'Nodes', 'Runs', 'Median compile time', 'µs per node'], rows: compileRows },
    { caption: '`cdk synth` with bundling (UnumWorkflow chain of Tasks)', headers: ['Tasks', 'Lambda functions', 'Stacks', 'Runs', 'Median synth time', 'per function'], rows: synthRows },
  ];
  return {
    tables,
    notes: [...notes, `CloudFormation allows ${STACK_RESOURCE_LIMIT} resources per stack.`],
    method: [
      'Compile: `benchCompile(n)` (bench/compile.ts) times `compileWorkflow` alone on a chain of n Tasks, in this process after one warm-up compile; median of the runs shown.',
      'Synth: a fresh `npx cdk synth --quiet -o <dir>` (aws-cdk 2.1148.1, CDK_DISABLE_VERSION_CHECK=1, AWS_REGION=us-east-1) of bench/apps/chain-app.ts run with ts-node --transpile-only; each run gets an empty TMPDIR, so esbuild bundles and stages every asset anew. The time includes the CLI, loading aws-cdk-lib and writing the cloud assembly. Functions = the chain\'s nodes plus the failure recorder.',
    ],
  };
}
