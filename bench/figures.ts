/**
 * The figures of issue 8, in order. Each module is loaded only when its figure
 * runs, so a component that is missing or broken costs that figure alone
 * ("not measured: <reason>"), never the whole run.
 */
import type { BenchContext, FigureOutput } from './types';

type FigureModule = { run(ctx: BenchContext): Promise<FigureOutput> };

/** CommonJS require, deferred: a module that fails to load fails its own figure only. */
async function load(file: string): Promise<FigureModule> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file) as FigureModule;
}

export interface FigureSpec {
  readonly id: string;
  readonly number: number;
  readonly title: string;
  readonly load: () => Promise<FigureModule>;
}

export const FIGURES: readonly FigureSpec[] = [
  { id: 'transition-cost', number: 1, title: 'Storage operations and capacity units per chain transition', load: () => load('./transition-cost') },
  { id: 'fan-in', number: 2, title: 'Fan-in cost per branch: shard tree vs the one-item set', load: () => load('./fan-in') },
  { id: 'map-fanout', number: 3, title: 'Map fan-out: time to launch N branches', load: () => load('./map-fanout') },
  { id: 'overhead', number: 4, title: 'Orchestration overhead of a 10-step chain', load: () => load('./overhead') },
  { id: 'throughput', number: 5, title: 'Local engine throughput', load: () => load('./throughput') },
  { id: 'bundle', number: 6, title: 'Runtime bundle size and cold initialisation', load: () => load('./bundle') },
  { id: 'compile-synth', number: 7, title: 'Compile and synth scaling', load: () => load('./compile-synth') },
  { id: 'cost', number: 8, title: 'Cost per million runs of each example', load: () => load('./cost') },
];

/** Finds figures by id, number or a unique id prefix. */
export function selectFigures(only: string | undefined): FigureSpec[] {
  if (!only) return [...FIGURES];
  const out: FigureSpec[] = [];
  for (const want of only.split(',').map((s) => s.trim()).filter(Boolean)) {
    const hits = FIGURES.filter((f) => f.id === want || String(f.number) === want || f.id.startsWith(want));
    if (hits.length !== 1) {
      throw new Error(`--only ${want}: ${hits.length === 0 ? 'no such figure' : 'ambiguous'}; figures: ${FIGURES.map((f) => `${f.number} ${f.id}`).join(', ')}`);
    }
    if (!out.includes(hits[0])) out.push(hits[0]);
  }
  return out;
}
