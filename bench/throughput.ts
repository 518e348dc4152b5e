/**
 * Figure 5: local engine throughput: 100 runs of the example workflows
 * started at once (round robin over the examples, each on its own
 * examples/<name>/input.json), transitions per second until all finished.
 */
import { randomUUID } from 'node:crypto';
import { machineInfo } from './machine';
import { type BenchExample, benchExamples, DEFAULT_SANDBOXES, examplesEngine, stopExamplesEngine } from './engine';
import { fmt, fmtMs, median, percentile } from './stats';
import type { BenchContext, FigureOutput } from './types';

const CONCURRENT_RUNS = 100;

interface BatchStats {
  readonly transitions: number;
  readonly failedExecutions: number;
  readonly failedRuns: number;
  readonly firstFailure: string;
  readonly walls: number[];
  readonly rates: number[];
  readonly latencies: number[];
  readonly perRun: Map<string, number>;
}

async function measure(ctx: BenchContext, maxSandboxes: number, reps: number): Promise<{ examples: BenchExample[]; stats: BatchStats }> {
  const { engine } = await examplesEngine(ctx, maxSandboxes);
  const examples = benchExamples(engine, ctx.root);
  if (examples.length === 0) throw new Error('no example workflow has an examples/<name>/input.json');
  let failedExecutions = 0;
  let failedRuns = 0;
  let firstFailure = '';
  const finish = async (workflow: string, id: string): Promise<{ transitions: number; ms: number }> => {
    await engine.idle(id);
    const record = await engine.readRun(workflow, id);
    if (record.status !== 'SUCCEEDED') {
      failedRuns++;
      firstFailure ||= `${workflow}: ${record.status} ${JSON.stringify(record.error)}`;
    }
    const entries = engine.emulator.timeline.of(id).filter((e) => e.end !== undefined);
    const transitions = entries.filter((e) => e.outcome === 'ok' && !e.duplicate).length;
    failedExecutions += entries.filter((e) => e.outcome !== 'ok').length;
    const ms = Math.max(...entries.map((e) => e.end as number)) - Math.min(...entries.map((e) => e.start));
    engine.forget(id);
    return { transitions, ms };
  };
  // Warm-up: one run of each example, one at a time.
  const perRun = new Map<string, number>();
  for (const ex of examples) {
    const id = engine.startRun(ex.name, ex.input, { workflowId: `bench-${randomUUID()}` });
    perRun.set(ex.name, (await finish(ex.name, id)).transitions);
  }
  if (failedRuns > 0) throw new Error(`a warm-up run did not succeed: ${firstFailure}`);
  failedExecutions = 0;
  const rates: number[] = [];
  const walls: number[] = [];
  const latencies: number[] = [];
  let transitions = 0;
  for (let r = 0; r < reps; r++) {
    const t0 = Date.now();
    const started = Array.from({ length: CONCURRENT_RUNS }, (_, k) => {
      const ex = examples[k % examples.length];
      return { ex, id: engine.startRun(ex.name, ex.input, { workflowId: `bench-${randomUUID()}` }) };
    });
    const done = await Promise.all(started.map((st) => finish(st.ex.name, st.id)));
    const wall = Date.now() - t0;
    transitions = done.reduce((sum, d) => sum + d.transitions, 0);
    rates.push(transitions / (wall / 1000));
    walls.push(wall);
    latencies.push(...done.map((d) => d.ms));
    ctx.log(`throughput (${maxSandboxes} sandboxes) batch ${r + 1}: ${transitions} transitions in ${fmtMs(wall)}`);
  }
  return { examples, stats: { transitions, failedExecutions, failedRuns, firstFailure, walls, rates, latencies, perRun } };
}

/** Sandbox caps measured: the engine's default. */
const CAPS = [DEFAULT_SANDBOXES];

export async function run(ctx: BenchContext): Promise<FigureOutput> {
  const reps = ctx.quick ? 1 : 2;
  const rows: (string | number)[][] = [];
  let examples: BenchExample[] = [];
  let perRun = new Map<string, number>();
  for (const cap of CAPS) {
    const m = await measure(ctx, cap, reps);
    examples = m.examples;
    perRun = m.stats.perRun;
    const st = m.stats;
    rows.push([cap === DEFAULT_SANDBOXES ? `${cap} (engine default)` : String(cap), fmt(st.transitions, 0), fmtMs(median(st.walls)), fmt(median(st.rates), 1),
      fmt(CONCURRENT_RUNS / (median(st.walls) / 1000), 1), fmtMs(median(st.latencies)), fmtMs(percentile(st.latencies, 90)), fmt(st.failedExecutions, 0),
      st.failedRuns === 0 ? '0' : `${st.failedRuns} (${st.firstFailure})`]);
    // Free this engine's sandboxes and DynamoDB Local before the next one starts.
    if (cap !== DEFAULT_SANDBOXES) await stopExamplesEngine(ctx, cap);
  }
  const m = machineInfo();
  return {
    tables: [
      {
        caption: `${CONCURRENT_RUNS} concurrent runs (round robin over ${examples.map((e) => e.name).join(', ')}), ${m.cores} cores; median of ${reps} batch${reps > 1 ? 'es' : ''} per row`,
        headers: ['Sandbox cap', 'Transitions per batch', 'Batch wall time', 'Transitions / s', 'Runs / s', 'Run latency p50', 'Run latency p90', 'Failed executions (retried)', 'Runs not SUCCEEDED'],
        rows,
      },
      {
        caption: 'Transitions (committed executions) per run of each example',
        headers: ['Example', 'Transitions per run'],
        rows: examples.map((e) => [e.name, fmt(perRun.get(e.name) ?? 0, 0)]),
      },
    ],
    method: [
      'The example app (examples/app.ts) is synthesized with the pinned CDK CLI and run on the local engine (lib/local): DynamoDB Local, the Lambda emulator with async-invoke semantics, each concurrent execution of a function in its own worker-thread sandbox; a sandbox stays warm for the next execution of its function, and when the cap is reached an idle sandbox of another function is evicted (a cold start for the next).',
      `A batch starts ${CONCURRENT_RUNS} runs at once with Event invokes of the entry functions and waits until every run is idle and SUCCEEDED. A transition is one execution that committed (no faults are injected). Transitions / s = transitions of the batch / batch wall time.`,
      `One warm-up run of each example first; each sandbox cap runs on its own engine. The machine has ${m.cores} cores shared by the engine, its sandboxes and DynamoDB Local (Java).`,
    ],
  };
}
