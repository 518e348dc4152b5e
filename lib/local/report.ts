/**
 * Text renderings of a run for the CLI: a per-node timeline (which function
 * ran when, retries and duplicates) and a one-line summary of it.
 */
import { attemptsText } from '../runs/attempts';
import type { LocalRunOutcome } from './run-workflow';
import type { TimelineEntry } from './timeline';

const BAR_WIDTH = 40;

export interface TimelineSummary {
  readonly executions: number;
  /** Executions after the first attempt of their event (Lambda async retries). */
  readonly retries: number;
  /** Handler attempts retried inside executions (the runtime's retry rules, Step Functions' Retry). */
  readonly handlerRetries: number;
  /** Duplicate deliveries and re-runs of succeeded executions. */
  readonly duplicates: number;
  readonly failedAttempts: number;
}

export function summarize(entries: readonly TimelineEntry[]): TimelineSummary {
  return {
    executions: entries.length,
    retries: entries.filter((e) => e.attempt > 1 && !e.duplicate).length,
    handlerRetries: entries.reduce((n, e) => n + (e.handlerAttempts ?? 1) - 1, 0),
    duplicates: entries.filter((e) => e.duplicate).length,
    failedAttempts: entries.filter((e) => e.outcome !== undefined && e.outcome !== 'ok').length,
  };
}

/**
 * The one-line summary of a run: its status, the state where a failed run
 * ended, and how its functions ran, with Lambda's retries of an execution
 * and the handler's retries inside one (retry rules) counted apart.
 */
export function runSummary(title: string, run: Pick<LocalRunOutcome, 'status' | 'error' | 'timeline'>): string {
  const s = summarize(run.timeline);
  const ended = run.error ? ` at ${run.error.state ?? run.error.node ?? '?'}: ${run.error.error ?? 'Error'}` : '';
  return `${title}: ${run.status}${ended} (${s.executions} executions, ${s.retries} Lambda retries, ${s.handlerRetries} handler retries, ${s.duplicates} duplicates)`;
}

/** One line per execution: offset, a bar over the run's span, node, duration, outcome and flags. */
export function renderTimeline(entries: readonly TimelineEntry[]): string {
  if (entries.length === 0) return '  (no executions)';
  const sorted = [...entries].sort((a, b) => a.start - b.start);
  const t0 = sorted[0]?.start ?? 0;
  const t1 = Math.max(...sorted.map((e) => e.end ?? e.start));
  const span = Math.max(1, t1 - t0);
  const nameWidth = Math.min(28, Math.max(...sorted.map((e) => label(e).length)));
  return sorted.map((e) => {
    const from = Math.floor(((e.start - t0) / span) * BAR_WIDTH);
    const to = Math.max(from + 1, Math.ceil((((e.end ?? t1) - t0) / span) * BAR_WIDTH));
    const bar = `${' '.repeat(from)}${(e.outcome === 'ok' ? '█' : '▒').repeat(to - from)}`.padEnd(BAR_WIDTH);
    const flags = [
      e.attempt > 1 ? `attempt ${e.attempt}` : '',
      e.handlerAttempts ? `handler attempts ${attemptsText(e.handlerAttempts, e.retried)}` : '',
      e.duplicate ? 'duplicate' : '',
      e.outcome && e.outcome !== 'ok' ? `${e.outcome}${e.error ? ` (${e.error.slice(0, 60)})` : ''}` : '',
    ].filter(Boolean).join(', ');
    const duration = e.end === undefined ? 'running' : `${e.end - e.start} ms`;
    return `  +${String(e.start - t0).padStart(5)} ms |${bar}| ${label(e).padEnd(nameWidth)} ${duration.padStart(8)}${flags ? `  ${flags}` : ''}`;
  }).join('\n');
}

function label(e: TimelineEntry): string {
  const frames = /\[([^\]]*)\]/.exec(e.identity)?.[1];
  const iteration = /@(\d+)\[/.exec(e.identity)?.[1];
  const where = [frames ? `#${frames.split(',').map((f) => f.split('.')[1]).join('.')}` : '', iteration && iteration !== '0' ? `it${iteration}` : ''].filter(Boolean).join(' ');
  const name = e.state !== undefined && e.node !== undefined && e.state !== e.node ? `${e.state} (${e.node})` : (e.node ?? e.functionName);
  return `${name}${where ? ` ${where}` : ''}`;
}
