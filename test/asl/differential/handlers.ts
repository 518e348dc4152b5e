/**
 * The Task handlers of the differential corpus, one export per function name
 * a document's `Resource` names. Both sides run these same functions: unum as
 * the Lambda handlers of the synthesized app, the peer interpreter as its
 * `taskResourceLocalHandlers`. Each is deterministic given its input (the
 * retry handler counts attempts per `key`, which every case makes unique).
 */
import * as fs from 'fs';
import * as path from 'path';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

class NamedError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export const echo = (input: Json): Json => input;
export const double = (n: number): number => n * 2;
export const square = (n: number): number => n * n;
export const add = (input: { a: number; b: number }): number => input.a + input.b;
export const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
export const shout = (s: string): string => `${s.toUpperCase()}!`;
export const describe = (input: Json): { type: string; keys: string[] } => ({
  type: input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input,
  keys: typeof input === 'object' && input !== null && !Array.isArray(input) ? Object.keys(input).sort() : [],
});

/** Falsy results, which a result path must still place. */
export const zero = (): number => 0;
export const no = (): boolean => false;
export const empty = (): string => '';
export const nothing = (): null => null;

/** Throws the error the input names. */
export function boom(input: { error?: string; message?: string }): never {
  throw new NamedError(input.error ?? 'Boom', input.message ?? 'it went boom');
}

/** Throws when `n` is negative, else doubles it: a Map item or branch that fails for some inputs. */
export function checked(n: number): number {
  if (n < 0) throw new NamedError('Negative', `${n} is negative`);
  return n * 2;
}

/**
 * Counts the calls for `key` in a file of the directory `DIFFERENTIAL_ATTEMPTS_DIR`:
 * a count in memory would restart when the local engine runs a Lambda retry in a new sandbox.
 */
function nextAttempt(key: string): number {
  const dir = process.env.DIFFERENTIAL_ATTEMPTS_DIR;
  if (!dir) throw new Error('flaky: DIFFERENTIAL_ATTEMPTS_DIR is not set');
  const file = path.join(dir, encodeURIComponent(key));
  const n = (fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8')) : 0) + 1;
  fs.writeFileSync(file, String(n));
  return n;
}

/** Fails `failures` times per `key` with the error `error` (default Flaky), then reports the attempt count. */
export function flaky(input: { key: string; failures: number; error?: string }): { key: string; attempts: number } {
  const n = nextAttempt(input.key);
  if (n <= input.failures) throw new NamedError(input.error ?? 'Flaky', `attempt ${n} of ${input.key} fails`);
  return { key: input.key, attempts: n };
}

/** Resolves after `ms` milliseconds (TimeoutSeconds cases). */
export async function sleep(input: { ms: number }): Promise<{ slept: number }> {
  await new Promise((resolve) => setTimeout(resolve, input.ms));
  return { slept: input.ms };
}
