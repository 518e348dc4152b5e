/**
 * The figures of issue 8, in order. Each module is loaded only when its figure
 * runs, so a component that is missing or broken costs that figure alone
 * ("not measured: <reason>"), never the whole run.
 *
 * An external figure is not measured by `npm run bench` (it takes too long):
 * another command produces it and records it into .unum/bench/results.json,
 * and every bench run keeps it from there (bench/results.ts).
 */
import type { BenchContext, FigureOutput } from './types';

type FigureModule = { run(ctx: BenchContext): Promise<FigureOutput> };

/** CommonJS require, deferred: a module that fails to load fails its own figure only. */
async function load(file: string): Promise<FigureModule> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file) as FigureModule;
}

interface FigureSpecBase {
  readonly id: string;
  readonly number: number;
  readonly title: string;
}

/** A figure `npm run bench` measures by loading its module and running it. */
export interface MeasuredFigureSpec extends FigureSpecBase {
  readonly load: () => Promise<FigureModule>;
  readonly external?: undefined;
}

/** A figure another command produces and records; `npm run bench` keeps its last result. */
export interface ExternalFigureSpec extends FigureSpecBase {
  readonly external: {
    /** The command that produces and records the figure. */
    readonly command: string;
    /** Why `npm run bench` does not run it, e.g. "about an hour". */
    readonly why: string;
  };
  readonly load?: undefined;
}

export type FigureSpec = MeasuredFigureSpec | ExternalFigureSpec;

/** Seeds of the fault campaign behind figure 9 (its target). */
export const FAULT_CAMPAIGN_SEEDS = 10_000;

export const FAULT_CAMPAIGN: ExternalFigureSpec = {
  id: 'fault-campaign',
  number: 9,
  title: 'Fault campaign: random fault schedules over every workflow',
  external: { command: `npm run test:faults -- --seeds ${FAULT_CAMPAIGN_SEEDS} --record`, why: 'it takes about an hour' },
};

/** Seeds of the extended campaign behind figure 10 (its target). */
export const EXTENDED_FAULT_CAMPAIGN_SEEDS = 2_000;

export const EXTENDED_FAULT_CAMPAIGN: ExternalFigureSpec = {
  id: 'extended-fault-campaign',
  number: 10,
  title: 'Extended fault campaign: more workflow shapes, under service faults too',
  external: { command: `npm run test:faults -- --seeds ${EXTENDED_FAULT_CAMPAIGN_SEEDS} --extended --service-faults --record`, why: 'it takes about half an hour' },
};

/** Seeds of the redeploy campaign behind figure 12 (its target, issue 34). */
export const REDEPLOY_FAULT_CAMPAIGN_SEEDS = 2_000;

export const REDEPLOY_FAULT_CAMPAIGN: ExternalFigureSpec = {
  id: 'redeploy-fault-campaign',
  number: 12,
  title: 'Redeploy fault campaign: deploys while runs are in flight',
  external: { command: `npm run test:faults -- --seeds ${REDEPLOY_FAULT_CAMPAIGN_SEEDS} --redeploy --record`, why: 'it takes about an hour' },
};

/** Seeds of the effects campaign behind figure 13 (its target, issue 35). */
export const EFFECTS_FAULT_CAMPAIGN_SEEDS = 10_000;

export const EFFECTS_FAULT_CAMPAIGN: ExternalFigureSpec = {
  id: 'effects-fault-campaign',
  number: 13,
  title: 'Effects fault campaign: the Orders shape under PostgreSQL server faults',
  external: { command: `npm run test:faults -- --seeds ${EFFECTS_FAULT_CAMPAIGN_SEEDS} --effects --record`, why: 'it takes about an hour' },
};

export const FIGURES: readonly FigureSpec[] = [
  { id: 'transition-cost', number: 1, title: 'Storage operations and capacity units per chain transition', load: () => load('./transition-cost') },
  { id: 'fan-in', number: 2, title: 'Fan-in cost per branch: shard tree vs the one-item set', load: () => load('./fan-in') },
  { id: 'map-fanout', number: 3, title: 'Map fan-out: time to launch N branches', load: () => load('./map-fanout') },
  { id: 'overhead', number: 4, title: 'Orchestration overhead of a 10-step chain', load: () => load('./overhead') },
  { id: 'throughput', number: 5, title: 'Local engine throughput', load: () => load('./throughput') },
  { id: 'bundle', number: 6, title: 'Runtime bundle size and cold initialisation', load: () => load('./bundle') },
  { id: 'compile-synth', number: 7, title: 'Compile and synth scaling', load: () => load('./compile-synth') },
  { id: 'cost', number: 8, title: 'Cost per million runs of each example', load: () => load('./cost') },
  FAULT_CAMPAIGN,
  EXTENDED_FAULT_CAMPAIGN,
  { id: 'effects-cost', number: 11, title: 'Exactly-once writes: the added cost over a plain write', load: () => load('./effects-cost') },
  REDEPLOY_FAULT_CAMPAIGN,
  EFFECTS_FAULT_CAMPAIGN,
];

export const isExternal = (spec: FigureSpec): spec is ExternalFigureSpec => spec.external !== undefined;

/** The external figure of that id, if it is one. */
export function externalFigure(id: string): ExternalFigureSpec | undefined {
  const spec = FIGURES.find((f) => f.id === id);
  return spec && isExternal(spec) ? spec : undefined;
}

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
