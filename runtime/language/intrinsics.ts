/**
 * Step Functions intrinsic functions in payload templates
 * (`"x.$": "States.Format('Hello {}', $.name)"`), parsed with the path
 * grammar of runtime/language/paths.ts into an AST and interpreted: never
 * evaluated as code. The functions are in intrinsics/, each declaring its
 * parameters' types; whatever does not depend on the data (the function,
 * its argument count, a literal argument of the wrong type or value, a call
 * that returns the wrong type, the Format template) is checked when
 * parsing, so the compiler rejects it at synth.
 */
import { runtimeError } from '../contract/errors';
import type { Json } from '../contract/ir';
import { readPath, readScalar, Scanner, selectReference } from './paths';
import { ARRAY_FUNCTIONS } from './intrinsics/arrays';
import { ENCODING_FUNCTIONS } from './intrinsics/encoding';
import { JSON_FUNCTIONS } from './intrinsics/json';
import { MATH_FUNCTIONS } from './intrinsics/math';
import { evaluationIdentity, RANDOM_FUNCTIONS } from './intrinsics/random';
import { admit, argumentName, fail, mayGive, typeName, type Arg, type Call, type IntrinsicFunction, type Param } from './intrinsics/signature';
import { STRING_FUNCTIONS } from './intrinsics/strings';

export type { Arg, Call };

/** Every intrinsic function of the Step Functions documentation. */
const FUNCTIONS: Readonly<Record<string, IntrinsicFunction>> = {
  ...ARRAY_FUNCTIONS,
  ...ENCODING_FUNCTIONS,
  ...JSON_FUNCTIONS,
  ...MATH_FUNCTIONS,
  ...RANDOM_FUNCTIONS,
  ...STRING_FUNCTIONS,
};

const FUNCTION = /States\.[A-Za-z0-9]+/y;
/** A string literal: only the escapes Step Functions documents, `\'` `\{` `\}` `\\`. */
const STRING = /'((?:[^'\\]|\\['{}\\])*)'/y;

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

const arityText = (least: number, most: number): string => (least === most ? `${least}` : most === Infinity ? `at least ${least}` : `${least} or ${most}`);

/** The parameter argument `k` of `fn` is checked against. */
const paramOf = (fn: IntrinsicFunction, k: number): Param | undefined => fn.params[k] ?? fn.rest;

/** The checks that do not depend on the data: argument count, literal arguments, the types calls return; a problem with an argument is reported at its position (`starts`). */
function checkArgs(s: Scanner, name: string, fn: IntrinsicFunction, args: readonly Arg[], starts: readonly number[]): void {
  const least = fn.params.length - (fn.optional ?? 0);
  const most = fn.rest ? Infinity : fn.params.length;
  if (args.length < least || args.length > most) s.fail(`${name} takes ${arityText(least, most)} argument(s), got ${args.length}`);
  args.forEach((a, k) => {
    const param = paramOf(fn, k);
    if (!param) return;
    s.i = starts[k];
    if ('lit' in a) {
      const admitted = admit(param, k, a.lit);
      if ('problem' in admitted) s.fail(`${name}: ${admitted.problem}`);
    } else if ('call' in a && !mayGive(FUNCTIONS[a.call].returns, param.type)) {
      s.fail(`${name}: ${argumentName(param, k)} must be ${typeName(param.type)}, and ${a.call} gives ${typeName(FUNCTIONS[a.call].returns)}`);
    }
  });
}

function call(s: Scanner): Call {
  s.ws();
  const at = s.i;
  const name = s.next(FUNCTION)?.[0] ?? s.fail('expected a path, a literal or an intrinsic function States.…');
  if (!Object.hasOwn(FUNCTIONS, name)) {
    s.i = at;
    s.fail(`the intrinsic function ${name} is not supported (supported: ${Object.keys(FUNCTIONS).join(', ')})`);
  }
  s.ws();
  s.expect('(');
  const args: Arg[] = [];
  const starts: number[] = [];
  s.ws();
  if (!s.eat(')')) {
    do {
      s.ws();
      starts.push(s.i);
      args.push(arg(s));
    } while (s.eat(','));
    s.expect(')');
  }
  const end = s.i;
  checkArgs(s, name, FUNCTIONS[name], args, starts);
  s.i = end;
  if (name !== 'States.Format') return { call: name, args, at };
  const template = args[0];
  if (!('raw' in template) || template.raw === undefined) return s.fail('States.Format needs a string literal template as its first argument');
  const parts = formatParts(s, template.raw);
  if (parts.length !== args.length) s.fail(`States.Format has ${parts.length - 1} placeholder(s) for ${args.length - 1} argument(s)`);
  return { call: name, args, at, parts };
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

const cache = new Map<string, Call>();

export function parseIntrinsic(text: string): Call {
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

/**
 * Evaluates a parsed intrinsic against the input (`$`) and the context
 * object (`$$`). `site` names the place of the expression in its template
 * (runtime/language/template.ts): with the context and the input, it is the
 * identity that States.MathRandom and States.UUID draw from (intrinsics/random.ts).
 */
export function evalIntrinsic(expr: Arg, input: Json, context: Json, site = ''): Json {
  if ('lit' in expr) return expr.lit;
  if ('path' in expr) return selectReference(expr.path, expr.text, input, context, 'intrinsic');
  const fn = FUNCTIONS[expr.call];
  const args = expr.args.map((a, k) => {
    const value = evalIntrinsic(a, input, context, site);
    const param = paramOf(fn, k);
    if (!param) return value;
    const admitted = admit(param, k, value);
    return 'problem' in admitted ? fail(`${expr.call}: ${admitted.problem}`) : admitted.value;
  });
  return fn.run(args, { call: expr, identity: () => evaluationIdentity(context, input, site, expr.at) });
}
