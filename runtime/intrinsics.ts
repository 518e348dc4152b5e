/**
 * Step Functions intrinsic functions in payload templates
 * (`"x.$": "States.Format('Hello {}', $.name)"`), parsed by a small recursive
 * descent parser and interpreted: never evaluated as code.
 * Supported: States.Format, States.Array, States.JsonMerge, States.StringToJson, States.JsonToString.
 */
import { runtimeError, StatesError } from './errors';
import type { Json } from './ir';
import { isObject, selectReference } from './paths';

type Arg =
  | { readonly lit: Json; readonly raw?: string }
  | { readonly path: string }
  | { readonly call: string; readonly args: readonly Arg[] };

const fail = (message: string): never => {
  throw new StatesError('States.IntrinsicFailure', message);
};

export function parseIntrinsic(text: string): Arg {
  let i = 0;
  const bad = (what: string): never => {
    throw runtimeError(`intrinsic ${text}: ${what} at position ${i}`);
  };
  const ws = (): void => {
    while (text[i] === ' ') i++;
  };
  /** Skips spaces, then consumes `c` if it comes next. */
  const eat = (c: string): boolean => {
    ws();
    if (text[i] !== c) return false;
    i++;
    return true;
  };
  const expect = (c: string): void => {
    if (!eat(c)) bad(`expected '${c}'`);
  };
  const arg = (): Arg => {
    if (eat("'")) {
      let raw = '';
      for (; i < text.length && text[i] !== "'"; i++) raw += text[i] === '\\' ? text[i++] + text[i] : text[i];
      expect("'");
      return { lit: raw.replace(/\\(.)/g, '$1'), raw };
    }
    if (text[i] === '$') {
      const start = i;
      let bracket = false;
      let quote = false;
      for (; i < text.length; i++) {
        const d = text[i];
        if (quote) quote = d !== "'";
        else if (d === "'") quote = true;
        else if (d === '[') bracket = true;
        else if (d === ']') bracket = false;
        else if (!bracket && (d === ',' || d === ')' || d === ' ')) break;
      }
      return { path: text.slice(start, i) };
    }
    const word = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (word) {
      i += word[0].length;
      return { lit: JSON.parse(word[0]) as Json };
    }
    return call();
  };
  const call = (): Arg => {
    ws();
    const name = /^States\.[A-Za-z]+/.exec(text.slice(i)) ?? bad('unexpected input');
    i += name[0].length;
    expect('(');
    const args: Arg[] = [];
    if (!eat(')')) {
      do args.push(arg());
      while (eat(','));
      expect(')');
    }
    return { call: name[0], args };
  };
  const result = call();
  ws();
  if (i !== text.length) bad('trailing input');
  return result;
}

/** Evaluates a parsed intrinsic against the input (`$`) and the context object (`$$`). */
export function evalIntrinsic(expr: Arg, input: Json, context: Json): Json {
  if ('lit' in expr) return expr.lit;
  if ('path' in expr) return selectReference(expr.path, input, context, 'intrinsic');
  const args = expr.args.map((a) => evalIntrinsic(a, input, context));
  const name = expr.call;
  switch (name) {
    case 'States.Format':
      return format(expr.args[0], args.slice(1));
    case 'States.Array':
      return args;
    case 'States.JsonMerge': {
      const [a, b, deep] = args;
      if (args.length !== 3 || !isObject(a) || !isObject(b) || deep !== false) {
        fail(`${name} takes two objects and false (deep merge is not supported)`);
      }
      return { ...(a as object), ...(b as object) } as Json;
    }
    case 'States.StringToJson':
      if (args.length !== 1 || typeof args[0] !== 'string') fail(`${name} takes one string`);
      try {
        return JSON.parse(args[0] as string) as Json;
      } catch {
        return fail(`${name}: not JSON: ${String(args[0]).slice(0, 100)}`);
      }
    case 'States.JsonToString':
      if (args.length !== 1) fail(`${name} takes one argument`);
      return JSON.stringify(args[0]);
    default:
      return fail(`unsupported intrinsic function ${name}`);
  }
}

/** States.Format: `{}` placeholders, `\{` `\}` literal braces, scalar arguments only. */
function format(template: Arg | undefined, values: Json[]): string {
  const raw = template && 'raw' in template ? template.raw : undefined;
  if (raw === undefined) return fail('States.Format needs a string literal template');
  let used = 0;
  // Left to right, as written: an escape yields the character after the backslash.
  const out = raw.replace(/\\([\s\S]?)|\{\}/g, (_, escaped?: string) => {
    if (escaped !== undefined) return escaped;
    if (used >= values.length) fail('States.Format: more placeholders than arguments');
    const v = values[used++];
    if (typeof v === 'object' && v !== null) fail('States.Format arguments must be strings, numbers, booleans or null');
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
  if (used !== values.length) fail('States.Format: more arguments than placeholders');
  return out;
}
