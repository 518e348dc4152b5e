/**
 * Step Functions intrinsic functions in payload templates
 * (`"x.$": "States.Format('Hello {}', $.name)"`), parsed by a small recursive
 * descent parser and interpreted: never evaluated as code.
 * Supported: States.Format, States.Array, States.JsonMerge, States.StringToJson, States.JsonToString.
 */
import { runtimeError, StatesError } from './errors';
import type { Json } from './ir';
import { selectPath } from './paths';

type Arg =
  | { readonly lit: Json; readonly raw?: string }
  | { readonly path: string }
  | { readonly call: string; readonly args: readonly Arg[] };

const fail = (message: string): never => {
  throw new StatesError('States.IntrinsicFailure', message);
};

export function parseIntrinsic(text: string): Arg {
  let i = 0;
  const ws = (): void => {
    while (text[i] === ' ') i++;
  };
  const expect = (c: string): void => {
    ws();
    if (text[i] !== c) throw runtimeError(`intrinsic ${text}: expected '${c}' at position ${i}`);
    i++;
  };
  const arg = (): Arg => {
    ws();
    const c = text[i];
    if (c === "'") {
      let raw = '';
      for (i++; i < text.length && text[i] !== "'"; i++) raw += text[i] === '\\' ? text[i++] + text[i] : text[i];
      expect("'");
      return { lit: raw.replace(/\\(.)/g, '$1'), raw };
    }
    if (c === '$') {
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
    const name = /^States\.[A-Za-z]+/.exec(text.slice(i));
    if (!name) throw runtimeError(`intrinsic ${text}: unexpected input at position ${i}`);
    i += name[0].length;
    expect('(');
    const args: Arg[] = [];
    ws();
    if (text[i] === ')') i++;
    else {
      for (;;) {
        args.push(arg());
        ws();
        if (text[i] === ',') i++;
        else break;
      }
      expect(')');
    }
    return { call: name[0], args };
  };
  const result = call();
  ws();
  if (i !== text.length) throw runtimeError(`intrinsic ${text}: trailing input at position ${i}`);
  return result;
}

/** Evaluates a parsed intrinsic against the input (`$`) and the context object (`$$`). */
export function evalIntrinsic(expr: Arg, input: Json, context: Json): Json {
  if ('lit' in expr) return expr.lit;
  if ('path' in expr) {
    return expr.path.startsWith('$$') ? selectPath(context, expr.path.slice(1), 'intrinsic') : selectPath(input, expr.path, 'intrinsic');
  }
  const args = expr.args.map((a) => evalIntrinsic(a, input, context));
  switch (expr.call) {
    case 'States.Format':
      return format(expr.args[0], args.slice(1));
    case 'States.Array':
      return args;
    case 'States.JsonMerge': {
      const [a, b, deep] = args;
      const isObj = (v: Json): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
      if (args.length !== 3 || !isObj(a) || !isObj(b) || deep !== false) {
        fail('States.JsonMerge takes two objects and false (deep merge is not supported)');
      }
      return { ...(a as object), ...(b as object) } as Json;
    }
    case 'States.StringToJson':
      if (args.length !== 1 || typeof args[0] !== 'string') fail('States.StringToJson takes one string');
      try {
        return JSON.parse(args[0] as string) as Json;
      } catch {
        return fail(`States.StringToJson: not JSON: ${String(args[0]).slice(0, 100)}`);
      }
    case 'States.JsonToString':
      if (args.length !== 1) fail('States.JsonToString takes one argument');
      return JSON.stringify(args[0]);
    default:
      return fail(`unsupported intrinsic function ${expr.call}`);
  }
}

/** States.Format: `{}` placeholders, `\{` `\}` literal braces, scalar arguments only. */
function format(template: Arg | undefined, values: Json[]): string {
  if (!template || !('raw' in template) || template.raw === undefined) return fail('States.Format needs a string literal template');
  const raw = template.raw;
  let out = '';
  let used = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '\\') out += raw[++i] ?? '';
    else if (raw[i] === '{' && raw[i + 1] === '}') {
      if (used >= values.length) fail('States.Format: more placeholders than arguments');
      const v = values[used++];
      if (typeof v === 'object' && v !== null) fail('States.Format arguments must be strings, numbers, booleans or null');
      out += typeof v === 'string' ? v : JSON.stringify(v);
      i++;
    } else out += raw[i];
  }
  if (used !== values.length) fail('States.Format: more arguments than placeholders');
  return out;
}
