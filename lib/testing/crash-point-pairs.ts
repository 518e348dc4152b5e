/**
 * Pairwise covering of crash points: sets of points such that every pair of
 * points occurs together in at least one set. Running each set as one
 * schedule exercises every pair of crash points in far fewer runs than one
 * run per pair (about n²/k² instead of n²/2 for sets of k points).
 *
 * A set holds at most two points of one invocation, so that invocation can
 * still succeed within Lambda's three attempts and the run keeps a result.
 */
import type { CrashPoint } from './schedule';

export function pairwiseCovering(points: readonly CrashPoint[], setSize: number): CrashPoint[][] {
  const n = points.length;
  const uncovered = new Set<number>();
  const pair = (i: number, j: number): number => (i < j ? i * n + j : j * n + i);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) uncovered.add(pair(i, j));
  const sets: CrashPoint[][] = [];
  while (uncovered.size > 0) {
    const first = uncovered.values().next().value as number;
    const chosen = [Math.floor(first / n), first % n];
    while (chosen.length < setSize) {
      let best = -1;
      let bestGain = 0;
      for (let c = 0; c < n; c++) {
        if (chosen.includes(c) || !fits(points, chosen, c)) continue;
        const gain = chosen.filter((x) => uncovered.has(pair(x, c))).length;
        if (gain > bestGain) {
          best = c;
          bestGain = gain;
        }
      }
      if (best < 0) break;
      chosen.push(best);
    }
    for (const a of chosen) for (const b of chosen) if (a < b) uncovered.delete(pair(a, b));
    sets.push(chosen.sort((a, b) => a - b).map((i) => points[i] as CrashPoint));
  }
  return sets;
}

function fits(points: readonly CrashPoint[], chosen: readonly number[], candidate: number): boolean {
  const identity = points[candidate]?.identity;
  return chosen.filter((i) => points[i]?.identity === identity).length < 2;
}

/** Every pair of points, each as its own schedule. */
export function allPairs(points: readonly CrashPoint[]): CrashPoint[][] {
  const out: CrashPoint[][] = [];
  for (let i = 0; i < points.length; i++) for (let j = i + 1; j < points.length; j++) out.push([points[i] as CrashPoint, points[j] as CrashPoint]);
  return out;
}
