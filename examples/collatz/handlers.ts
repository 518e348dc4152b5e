/**
 * Collatz: a loop. `step` applies one Collatz step; a Choice sends the value
 * back to `step` until it reaches 1. Every iteration is a new invocation of
 * the same function.
 */

export interface CollatzState {
  readonly n: number;
  readonly start?: number;
  readonly steps?: number;
  readonly peak?: number;
}

export interface CollatzResult {
  readonly start: number;
  readonly steps: number;
  readonly peak: number;
}

export async function step(input: CollatzState): Promise<Required<CollatzState>> {
  if (!Number.isSafeInteger(input?.n) || input.n < 1) throw new RangeError('n must be a positive integer');
  const n = input.n % 2 === 0 ? input.n / 2 : 3 * input.n + 1;
  const start = input.start ?? input.n;
  return { n, start, steps: (input.steps ?? 0) + 1, peak: Math.max(input.peak ?? start, n) };
}

export async function finish(input: Required<CollatzState>): Promise<CollatzResult> {
  return { start: input.start, steps: input.steps, peak: input.peak };
}
