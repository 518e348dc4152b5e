/** Small statistics and formatting helpers for the benchmarks. */
import { performance } from 'node:perf_hooks';

export const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

/** A number with at most `digits` decimals and thousands separators. */
export function fmt(n: number, digits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export const fmtInt = (n: number): string => fmt(Math.round(n), 0);

export function fmtBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${fmt(bytes / 1024, 1)} KB`;
  return `${fmt(bytes / (1024 * 1024), 2)} MB`;
}

export function fmtMs(ms: number): string {
  if (ms >= 10_000) return `${fmt(ms / 1000, 1)} s`;
  if (ms >= 100) return `${fmt(ms, 0)} ms`;
  return `${fmt(ms, 2)} ms`;
}

export function fmtUsd(usd: number): string {
  return `$${usd.toFixed(usd >= 100 ? 2 : usd >= 1 ? 3 : 4)}`;
}
