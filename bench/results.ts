/**
 * The results behind BENCHMARKS.md, kept in .unum/bench (gitignored):
 * results.json holds the last result of every figure, meta.json the machine
 * and command of the last bench run. `npm run bench` (bench/cli.ts) and
 * `npm run test:faults -- --record` (test/faults/campaign.ts) both go through
 * here: read the results, merge the fresh ones, write them, render the report.
 * Without .unum/bench (a fresh checkout) the results are read back from the
 * committed report (report-parse.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { externalFigure, FIGURES } from './figures';
import { renderReport, type ReportInput } from './report';
import { parseReport } from './report-parse';
import type { FigureResult } from './types';

/** The machine and command of the report header. */
export type ReportMeta = Omit<ReportInput, 'figures' | 'expected'>;

export interface BenchState {
  readonly dir: string;
  readonly resultsFile: string;
  readonly metaFile: string;
}

export function benchState(root: string): BenchState {
  const dir = path.join(root, '.unum', 'bench');
  return { dir, resultsFile: path.join(dir, 'results.json'), metaFile: path.join(dir, 'meta.json') };
}

/** The last results (none when the file is missing or unreadable). */
export function readResults(state: BenchState): FigureResult[] {
  try {
    const parsed = JSON.parse(fs.readFileSync(state.resultsFile, 'utf8')) as unknown;
    return Array.isArray(parsed) ? (parsed as FigureResult[]) : [];
  } catch {
    return [];
  }
}

export function readMeta(state: BenchState): ReportMeta | undefined {
  try {
    return JSON.parse(fs.readFileSync(state.metaFile, 'utf8')) as ReportMeta;
  } catch {
    return undefined;
  }
}

/** `previous` with each figure of `fresh` replacing the result of the same id (fresh ones last). */
export function mergeResults(previous: readonly FigureResult[], fresh: readonly FigureResult[]): FigureResult[] {
  return [...previous.filter((p) => !fresh.some((f) => f.id === p.id)), ...fresh];
}

/**
 * The earlier results a bench run keeps beside the figures it ran: the
 * external figures always (bench never measures them), and with `--only`
 * (`partial`) every other figure it did not run.
 */
export function keptResults(previous: readonly FigureResult[], ran: readonly FigureResult[], partial: boolean): FigureResult[] {
  return previous.filter((p) => !ran.some((r) => r.id === p.id) && (partial || externalFigure(p.id) !== undefined));
}

/**
 * The command line of the report header. Kept figures that are not external
 * are leftovers of earlier bench runs and are named; an external figure gives
 * its own command in its section.
 */
export function benchCommand(argv: readonly string[], kept: readonly FigureResult[]): string {
  const flags = argv.join(' ');
  const leftovers = kept.filter((k) => externalFigure(k.id) === undefined).map((k) => k.number).sort((a, b) => a - b);
  const note = leftovers.length > 0 ? ` (figures ${leftovers.join(', ')} kept from an earlier run; each section gives its date and mode)` : '';
  return `npm run bench${flags ? ` -- ${flags}` : ''}${note}`;
}

/** Writes results.json and, when given, meta.json. */
export function saveState(state: BenchState, figures: readonly FigureResult[], meta?: ReportMeta): void {
  fs.mkdirSync(state.dir, { recursive: true });
  fs.writeFileSync(state.resultsFile, JSON.stringify(figures, null, 2));
  if (meta) fs.writeFileSync(state.metaFile, JSON.stringify(meta, null, 2));
}

/** Renders the report of these results into `outFile`. */
export function writeReport(outFile: string, meta: ReportMeta, figures: readonly FigureResult[]): void {
  fs.writeFileSync(outFile, renderReport({ ...meta, figures, expected: FIGURES }));
}

/** `npm run bench -- --render`: the report from the last results (`lastResults`), without measuring. */
export function renderSaved(state: BenchState, outFile: string): ReportMeta {
  const { meta, figures } = lastResults(state, outFile);
  if (!meta) throw new Error(`${state.metaFile} is missing or unreadable and there is no report to read back: run \`npm run bench\` first`);
  writeReport(outFile, meta, figures);
  return meta;
}

/**
 * The last results and their header: those in .unum/bench, or, when it holds
 * none (a fresh checkout: it is not committed), those of the report `outFile`
 * read back, so that what is recorded next keeps every figure the report has.
 */
export function lastResults(state: BenchState, outFile: string): { figures: FigureResult[]; meta?: ReportMeta } {
  const figures = readResults(state);
  const meta = readMeta(state);
  if (figures.length > 0 || !fs.existsSync(outFile)) return { figures, ...(meta ? { meta } : {}) };
  const report = parseReport(fs.readFileSync(outFile, 'utf8'), FIGURES);
  return { figures: report.figures, meta: meta ?? { machine: report.machine, command: report.command } };
}

/**
 * Records results measured outside `npm run bench` (an external figure):
 * merges them into the last results (`lastResults`), saves them and
 * re-renders the report like `--render`. Without a header from an earlier
 * bench run or the report, `meta()` makes one.
 */
export function recordResults(state: BenchState, outFile: string, fresh: readonly FigureResult[], meta: () => ReportMeta): FigureResult[] {
  const last = lastResults(state, outFile);
  const all = mergeResults(last.figures, fresh);
  const header = last.meta ?? meta();
  saveState(state, all, header);
  writeReport(outFile, header, all);
  return all;
}
