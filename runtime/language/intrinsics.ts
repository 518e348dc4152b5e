/**
 * Step Functions intrinsic functions in payload templates
 * (`"x.$": "States.Format('Hello {}', $.name)"`), parsed with the path
 * grammar of runtime/language/paths.ts into an AST and interpreted: never evaluated as code.
 * Whatever does not depend on the data (the function, its argument count,
 * the Format template) is checked when parsing, so the compiler rejects it at synth.
 */
import { runtimeError, StatesError } from '../contract/errors';
import type { Json } from '../contract/ir';
import { isObject, readPath, readScalar, Scanner, selectReference, type ParsedPath } from './paths';

export type Arg =
  /** `raw`: a string literal as written, escapes included. */
  | { readonly lit: Json; readonly raw?: string }
  | { readonly path: ParsedPath; readonly text: string }
  /** `parts`: States.Format's template split at its placeholders. */
  | { readonly call: string; readonly args: readonly Arg[]; readonly parts?: readonly string[] };

/** The supported functions and their [least, most] argument counts. */
const ARITY: Readonly<Record<string, readonly [number, number]>> = {
  'States.Format': [1, Infinity],
  'States.Array': [0, Infinity],
  'States.JsonMerge': [3, 3],
  'States.StringToJson': [1, 1],
  'States.JsonToString': [1, 1],
};

const FUNCTION = /States\.[A-Za-z0-9]+/y;
/** A string literal: only the escapes Step Functions documents, `\'` `\{` `\}` `\\`. */
const STRING = /'((?:[^'\\]|\\['{}\\])*)'/y;

const fail = (message: string): never => {
  throw new StatesError('States.IntrinsicFailure', message);
};

function arg(s: Scanner): Arg {
  s.ws();
  let a: Arg;
  const c = s.text[s.i];
  const string = s.next(STRING);
  if (string) a = { lit: string[1].replace(/\\(.)/g, '$1'), raw: string[1] };
  else if (c === "'") return s.fail("a string literal must end with ' and may only escape \\' \\{ \\} and \\\\");
  else if (c === '$') {
    const start = s.i;
    const path = readPath(s);
    a = { path, text: s.text.slice(start, s.i) };
  } else {
    const lit = readScalar(s);
    a = lit === undefined ? call(s) : { lit };
  }
  s.ws();
  return a;
}

function call(s: Scanner): Arg {
  s.ws();
  const start = s.i;
  const name = s.next(FUNCTION)?.[0] ?? s.fail('expected a path, a literal or an intrinsic function States.…');
  if (!Object.hasOwn(ARITY, name)) {
    s.i = start;
    s.fail(`the intrinsic function ${name} is not supported (supported: ${Object.keys(ARITY).join(', ')})`);
  }
  s.ws();
  s.expect('(');
  const args: Arg[] = [];
  s.ws();
  if (!s.eat(')')) {
    do args.push(arg(s));
    while (s.eat(','));
    s.expect(')');
  }
  const [least, most] = ARITY[name];
  if (args.length < least || args.length > most) s.fail(`${name} takes ${least === most ? least : `at least ${least}`} argument(s), got ${args.length}`);
  if (name === 'States.JsonMerge' && 'lit' in args[2] && args[2].lit !== false) s.fail('States.JsonMerge: only a shallow merge (false) is supported');
  if (name !== 'States.Format') return { call: name, args };
  const template = args[0];
  if (!('raw' in template) || template.raw === undefined) return s.fail('States.Format needs a string literal template as its first argument');
  const parts = formatParts(s, template.raw);
  if (parts.length !== args.length) s.fail(`States.Format has ${parts.length - 1} placeholder(s) for ${args.length - 1} argument(s)`);
  return { call: name, args, parts };
}

/** The literal pieces between the `{}` placeholders; a brace of its own must be escaped. */
function formatParts(s: Scanner, raw: string): string[] {
  const parts = [''];
  for (const m of raw.matchAll(/\\(.)|\{\}|([{}])|[^\\{}]+/g)) {
    if (m[2]) s.fail(`States.Format: escape a brace that is not a {} placeholder (\\${m[2]})`);
    if (m[0] === '{}') parts.push('');
    else parts[parts.length - 1] += m[1] ?? m[0];
  }
  return parts;
}

const cache = new Map<string, Arg>();

export function parseIntrinsic(text: string): Arg {
  const hit = cache.get(text);
  if (hit) return hit;
  if (typeof text !== 'string') throw runtimeError(`invalid intrinsic ${JSON.stringify(text)}: not a string`);
  const s = new Scanner(text, 'intrinsic');
  const expr = call(s);
  s.ws();
  if (s.i !== text.length) s.fail('unexpected input');
  cache.set(text, expr);
  return expr;
}

/** States.Format's arguments: strings as they are, numbers, booleans and null as JSON. */
function formatValue(v: Json): string {
  if (typeof v === 'object' && v !== null) fail('States.Format arguments must be strings, numbers, booleans or null');
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Evaluates a parsed intrinsic against the input (`$`) and the context object (`$$`). */
export function evalIntrinsic(expr: Arg, input: Json, context: Json): Json {
  if ('lit' in expr) return expr.lit;
  if ('path' in expr) return selectReference(expr.path, expr.text, input, context, 'intrinsic');
  const args = expr.args.map((a) => evalIntrinsic(a, input, context));
  switch (expr.call) {
    case 'States.Format':
      return (expr.parts as string[]).reduce((out, part, k) => out + formatValue(args[k]) + part);
    case 'States.Array':
      return args;
    case 'States.JsonMerge': {
      const [a, b, deep] = args;
      if (!isObject(a) || !isObject(b) || deep !== false) fail('States.JsonMerge takes two objects and false (deep merge is not supported)');
      return { ...(a as object), ...(b as object) } as Json;
    }
    case 'States.StringToJson':
      if (typeof args[0] !== 'string') fail('States.StringToJson takes one string');
      try {
        return JSON.parse(args[0] as string) as Json;
      } catch {
        return fail(`States.StringToJson: not JSON: ${String(args[0]).slice(0, 100)}`);
      }
    default:
      // States.JsonToString: parsing admitted no other function.
      return JSON.stringify(args[0]);
  }
}
