/**
 * Shapes shared by the benchmark figures and the report writer. A figure
 * returns tables of measured values (never typed by hand), the targets it
 * checked, and notes on method; the report writer (report.ts) renders them.
 */
import type { BenchResources } from './resources';

export type Cell = string | number;

export interface Table {
  readonly caption?: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
}

export interface Target {
  /** What the issue asks, e.g. "≤ 5 WU per branch at every N". */
  readonly name: string;
  readonly met: boolean;
  /** The measured value the verdict rests on. */
  readonly detail: string;
}

/** What a figure measured. */
export interface FigureOutput {
  readonly tables: readonly Table[];
  readonly targets?: readonly Target[];
  /** How it was measured (one paragraph per entry). */
  readonly method?: readonly string[];
  readonly notes?: readonly string[];
}

export interface FigureResult extends FigureOutput {
  readonly id: string;
  readonly number: number;
  readonly title: string;
  /** `not measured` when a component is missing or the figure failed; `reason` says why. */
  readonly status: 'measured' | 'not measured';
  readonly reason?: string;
  readonly quick: boolean;
  /** ISO time the figure finished. */
  readonly measuredAt: string;
  readonly seconds: number;
  /** The command that produced the figure, when it is not `npm run bench` (an external figure, bench/figures.ts). */
  readonly command?: string;
}

export interface BenchContext {
  readonly quick: boolean;
  /** Repository root. */
  readonly root: string;
  /** Scratch directory of this bench run (inside the repository, gitignored). */
  readonly scratch: string;
  readonly resources: BenchResources;
  log(message: string): void;
}

export interface Figure {
  readonly id: string;
  readonly number: number;
  readonly title: string;
  run(ctx: BenchContext): Promise<FigureOutput>;
}

/** Thrown by a figure when something it needs does not exist yet: reported as "not measured: <reason>". */
export class NotMeasured extends Error {
  override readonly name = 'NotMeasured';
}
