/**
 * The JSONata engine (runtime/language/jsonata.ts `JsonataEngine`) on the
 * `jsonata` package, with the functions Step Functions adds to JSONata 2.0
 * (`$partition`, `$range`, `$hash`, `$random`, `$uuid`, `$parse`) and
 * without the one it removes (`$eval`). Bundled only into functions whose IR
 * has JSONata (lib/construct/bundling.ts); the compiler uses it to check
 * expressions at synth. JSONata is interpreted by the package, never
 * compiled to code.
 */
import { createHash, randomUUID } from 'node:crypto';
import jsonata from 'jsonata';
import type { Json } from '../contract/ir';
import { type JsonataEngine, JsonataSyntaxError } from './jsonata';

/** Step Functions' `$hash` algorithms, by the name an expression gives. */
const HASHES: Readonly<Record<string, string>> = { MD5: 'md5', 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

const fail = (message: string): never => {
  throw new Error(message);
};

function partition(array: unknown, size: unknown): unknown[][] {
  if (!Array.isArray(array)) fail('$partition: the first argument must be an array');
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) fail('$partition: the chunk size must be a positive integer');
  const items = array as unknown[];
  const out: unknown[][] = [];
  for (let i = 0; i < items.length; i += size as number) out.push(items.slice(i, i + (size as number)));
  return out;
}

/** `$range(start, end, step)`: start to end inclusive, as `States.ArrayRange`; at most 1,000 elements, as there. */
function range(start: unknown, end: unknown, step: unknown): number[] {
  if (![start, end, step].every((n) => typeof n === 'number' && Number.isInteger(n))) fail('$range takes three integers: start, end, step');
  const [a, b, s] = [start, end, step] as number[];
  if (s === 0) fail('$range: the step must not be 0');
  const count = Math.max(0, Math.floor((b - a) / s) + 1);
  if (count > 1000) fail(`$range gives at most 1000 elements, this one ${count}`);
  return Array.from({ length: count }, (_, i) => a + i * s);
}

function hash(value: unknown, algorithm: unknown): string {
  if (typeof value !== 'string') fail('$hash: the value must be a string');
  const name = typeof algorithm === 'string' ? HASHES[algorithm] : undefined;
  if (!name) fail(`$hash: the algorithm must be one of ${Object.keys(HASHES).join(', ')}`);
  return createHash(name as string).update(value as string).digest('hex');
}

/** `$random([seed])`: with a seed, the same number for the same seed. */
function random(seed?: unknown): number {
  if (seed === undefined) return Math.random();
  if (typeof seed !== 'number' && typeof seed !== 'string') fail('$random: the seed must be a number or a string');
  return createHash('sha256').update(String(seed)).digest().readUInt32BE(0) / 2 ** 32;
}

function parse(text: unknown): unknown {
  if (typeof text !== 'string') fail('$parse takes a string');
  try {
    return JSON.parse(text as string);
  } catch (e) {
    return fail(`$parse: not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

type Expression = ReturnType<typeof jsonata>;

function compiled(expression: string): Expression {
  let expr: Expression;
  try {
    expr = jsonata(expression);
  } catch (e) {
    const err = e as { position?: number; message?: string };
    throw new JsonataSyntaxError(expression, err.position, err.message ?? String(e));
  }
  expr.registerFunction('partition', partition, '<an:a>');
  expr.registerFunction('range', range, '<nnn:a>');
  expr.registerFunction('hash', hash, '<ss:s>');
  expr.registerFunction('random', random, '<j?:n>');
  expr.registerFunction('uuid', () => randomUUID(), '<:s>');
  expr.registerFunction('parse', parse, '<s:j>');
  expr.registerFunction('eval', () => fail('$eval is not available in Step Functions: use $parse'));
  return expr;
}

const cache = new Map<string, Expression>();

interface AstNode {
  readonly type?: string;
  readonly value?: unknown;
  readonly procedure?: AstNode;
  readonly arguments?: readonly unknown[];
}

/**
 * The variables and functions `expression` names (`$now()` is `now` called
 * with 0 arguments; `$f := $now` names `now` with no call), from the parsed
 * expression: for the checks at synth of what an expression may read.
 * Throws a `JsonataSyntaxError` when it does not parse.
 */
export function namesUsed(expression: string): { readonly name: string; readonly args?: number }[] {
  const out: { name: string; args?: number }[] = [];
  const stack: unknown[] = [compiled(expression).ast()];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const { type, value, procedure } = node as AstNode;
    if (type === 'function' && procedure?.type === 'variable' && typeof procedure.value === 'string') {
      out.push({ name: procedure.value, args: (node as AstNode).arguments?.length ?? 0 });
      stack.push((node as AstNode).arguments);
      continue;
    }
    if (type === 'variable' && typeof value === 'string') out.push({ name: value });
    stack.push(...Object.values(node));
  }
  return out;
}

export const jsonataEngine: JsonataEngine = {
  check(expression: string): void {
    compiled(expression);
  },
  async evaluate(expression: string, input: Json, bindings: Readonly<Record<string, unknown>>): Promise<unknown> {
    let expr = cache.get(expression);
    if (!expr) {
      expr = compiled(expression);
      cache.set(expression, expr);
    }
    return expr.evaluate(input, bindings as Record<string, unknown>);
  },
};
