/** Handlers of test/asl/fixtures/features.asl.json. */

/** The Map item: built by the ItemSelector from the context object and the Map's input. */
export const scaleArn = (item: { value: number; index: number; factor: number; tag: string }): { n: number; tag: string } => ({ n: item.value * item.factor, tag: item.tag });

export const total = (input: { values: number[] }): { sum: number; count: number } => ({ sum: input.values.reduce((a, b) => a + b, 0), count: input.values.length });

class NamedError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** Attempts per sum, within one sandbox: the runtime retries inside the same execution. */
const attempts = new Map<number, number>();

/** Fails once with `Flaky` (retried), or with `Fatal` above 100 (not retried: caught). */
export function flaky(input: { sum: number }): { attempts: number } {
  if (input.sum > 100) throw new NamedError('Fatal', `${input.sum} is too big`);
  const n = (attempts.get(input.sum) ?? 0) + 1;
  attempts.set(input.sum, n);
  if (n === 1) throw new NamedError('Flaky', 'first attempt fails');
  return { attempts: n };
}

// ---------------------------------------------------------------- result-path.asl.json

export const square = (n: number): number => n * n;
export const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
/** Its result is discarded by the Map's ResultPath null. */
export const noop = (): { ignored: true } => ({ ignored: true });
