/**
 * `npm run bench -- [--quick] [--only <figure>[,<figure>]] [--out BENCHMARKS.md]`:
 * runs the benchmarks of issue 8 and writes BENCHMARKS.md (bench/report.ts).
 *
 * `--quick` measures fewer sizes and repetitions (to iterate); `--only` runs
 * some figures (by number or id) and keeps the other figures of the previous
 * run (kept in .unum/bench/results.json, else read back from the report) in
 * the file. A figure that cannot be produced is reported as "not measured:
 * <reason>"; the others still run.
 * External figures (bench/figures.ts: the fault campaign) are never measured
 * here: every run keeps their last recorded result (bench/results.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIGURES, isExternal, selectFigures, type ExternalFigureSpec, type MeasuredFigureSpec } from './figures';
import { loadAverage, machineInfo } from './machine';
import { externalSource } from './report';
import { BenchResources } from './resources';
import { benchCommand, benchState, keptResults, lastResults, renderSaved, saveState, writeReport } from './results';
import { NotMeasured, type BenchContext, type FigureResult } from './types';
import { findAppDir } from '../lib/local/project';
import { parseArgs } from '../lib/cli/argv';

const USAGE = 'usage: npm run bench -- [--quick] [--only <figure>[,<figure>...]] [--out BENCHMARKS.md] [--render]\n'
  + '  --render  rewrite the report from the last results (.unum/bench) without measuring\n'
  + `figures: ${FIGURES.map((f) => `${f.number} ${f.id}${isExternal(f) ? ` (external: \`${f.external.command}\`)` : ''}`).join(', ')}\n`;

function reasonOf(err: unknown): string {
  if (err instanceof NotMeasured) return err.message;
  const text = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return `failed: ${text.split('\n')[0].slice(0, 300)}`;
}

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { values: ['only', 'out'], flags: ['quick', 'help', 'render'] });
  if (args.flags.has('help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const root = findAppDir() ?? process.cwd();
  const quick = args.flags.has('quick');
  const only = args.values.get('only');
  const selected = selectFigures(only);
  const outFile = path.resolve(root, args.values.get('out') ?? 'BENCHMARKS.md');
  const state = benchState(root);
  if (args.flags.has('render')) {
    const meta = renderSaved(state, outFile);
    process.stderr.write(`rewrote ${outFile} from the results of \`${meta.command}\`\n`);
    return 0;
  }
  const figures = selected.filter((f): f is MeasuredFigureSpec => !isExternal(f));
  if (only) {
    // A full run passes over the external figures silently: their section says how to produce them.
    for (const f of selected.filter((x): x is ExternalFigureSpec => isExternal(x))) {
      process.stderr.write(`figure ${f.number} (${f.id}) is external: ${externalSource(f.external)}; run that to record it\n`);
    }
    if (figures.length === 0) return 2;
  }
  const scratch = path.join(state.dir, `run-${process.pid}`);
  fs.mkdirSync(scratch, { recursive: true });

  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.AWS_EC2_METADATA_DISABLED ??= 'true';
  process.env.CDK_DISABLE_VERSION_CHECK ??= '1';
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';

  const resources = new BenchResources();
  const started = Date.now();
  const loadAtStart = loadAverage();
  const log = (m: string): void => { process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${m}\n`); };
  const ctx: BenchContext = { quick, root, scratch, resources, log };
  const results: FigureResult[] = [];
  const stop = (): void => { void resources.stop().finally(() => process.exit(130)); };
  process.once('SIGINT', stop);
  // Stopping DynamoDB Local waits on an unref'd child: keep the event loop alive until the report is written.
  const keepAlive = setInterval(() => undefined, 1000);
  // The runtime, run in this process by some figures, writes a log line per transition to stdout: drop them.
  const stdoutWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((..._args: unknown[]) => true) as typeof process.stdout.write;
  try {
    for (const spec of figures) {
      log(`figure ${spec.number} (${spec.id}) ...`);
      const t0 = Date.now();
      const base = { id: spec.id, number: spec.number, title: spec.title, quick };
      try {
        const mod = await spec.load();
        const output = await mod.run(ctx);
        results.push({ ...base, ...output, status: 'measured', measuredAt: new Date().toISOString(), seconds: (Date.now() - t0) / 1000 });
        log(`figure ${spec.number} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      } catch (err) {
        const reason = reasonOf(err);
        results.push({ ...base, tables: [], status: 'not measured', reason, measuredAt: new Date().toISOString(), seconds: (Date.now() - t0) / 1000 });
        log(`figure ${spec.number} not measured: ${reason}`);
        if (!(err instanceof NotMeasured) && process.env.UNUM_BENCH_DEBUG) process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
      }
    }
  } finally {
    process.stdout.write = stdoutWrite;
    process.removeListener('SIGINT', stop);
    await resources.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  // External figures are always kept; --only keeps the other figures of the previous run too.
  const kept = keptResults(lastResults(state, outFile).figures, results, Boolean(only));
  const all = [...kept, ...results];
  const meta = { machine: { ...machineInfo(), load: { start: loadAtStart, end: loadAverage() } }, command: benchCommand(argv, kept) };
  saveState(state, all, meta);
  writeReport(outFile, meta, all);
  const missing = all.filter((r) => r.status === 'not measured').length;
  log(`wrote ${path.relative(process.cwd(), outFile) || outFile}: ${all.length - missing} figures measured, ${missing} not measured`);
  clearInterval(keepAlive);
  return 0;
}
