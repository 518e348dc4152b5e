/**
 * The one JSONPath grammar of unum, as Step Functions reads JSONPath: parsed
 * into a small AST that the runtime evaluates and the compiler validates, so
 * whatever synth accepts runs, and nothing is ever evaluated as code.
 *
 *   path      = ('$' | '$$') step*                 ('$$' reads the context object)
 *   step      = '.' (name | '*') | '..' (name | '*' | bracket) | bracket
 *   bracket   = '[' ( '*' | quoted name | integer | [integer] ':' [integer] | '?(' filter ')' ) ']'
 *   filter    = term ('&&' term | '||' term)*, '&&' binding tighter
 *   term      = '!' term | '(' filter ')' | operand [('==' | '!=' | '<' | '<=' | '>' | '>=') operand]
 *   operand   = '@' or '$' followed by names and indexes | number | quoted string | true | false | null
 *
 * Which fields take which paths (as the ASL specification defines them) is
 * `PathKind`; `pathOf` checks a path for a field, at synth and at run time alike.
 */
import { runtimeError, StatesError } from '../contract/errors';
import type { Json } from '../contract/ir';

export type Step =
  | { readonly name: string }
  /** Negative: counted from the end. */
  | { readonly index: number }
  | { readonly wild: true }
  | { readonly slice: readonly [number | undefined, number | undefined] }
  | { readonly filter: Predicate }
  /** `..`: the step applied at every depth. */
  | { readonly scan: Step };

export interface ParsedPath {
  /** `$` the input, `$$` the context object, `@` the current node of a filter. */
  readonly root: '$' | '$$' | '@';
  readonly steps: readonly Step[];
  /** Names and indexes only: selects one value or nothing; any other path selects an array. */
  readonly definite: boolean;
}

export type Operand = { readonly path: ParsedPath } | { readonly lit: Json };

export type Predicate =
  | { readonly and: readonly [Predicate, Predicate] }
  | { readonly or: readonly [Predicate, Predicate] }
  | { readonly not: Predicate }
  | { readonly exists: ParsedPath }
  | { readonly op: string; readonly left: Operand; readonly right: Operand };

/** A cursor over an expression (a path, or an intrinsic call containing paths). */
export class Scanner {
  i = 0;
  constructor(
    readonly text: string,
    readonly what: string,
  ) {}

  /** Consumes `s` if it comes next. */
  eat(s: string): boolean {
    if (!this.text.startsWith(s, this.i)) return false;
    this.i += s.length;
    return true;
  }

  /** Consumes a match of the sticky regular expression `re` at the cursor. */
  next(re: RegExp): RegExpExecArray | undefined {
    re.lastIndex = this.i;
    const m = re.exec(this.text) ?? undefined;
    if (m) this.i = re.lastIndex;
    return m;
  }

  ws(): void {
    this.next(SPACE);
  }

  expect(s: string): void {
    if (!this.eat(s)) this.fail(`expected '${s}'`);
  }

  fail(problem: string): never {
    throw runtimeError(`invalid ${this.what} ${JSON.stringify(this.text)}: ${problem} at position ${this.i}`);
  }
}

const SPACE = /[ \t\n]*/y;
/** Characters that end a name written after a dot: bracket notation quotes any other name. */
const NAME = /[^.[\]()'",\s<>=!&|*\\]+/y;
const INTEGER = /-?\d+/y;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const QUOTED = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/y;
const KEYWORD = /true|false|null/y;
const COMPARISON = /==|!=|<=|>=|<|>/y;
const WILD: Step = { wild: true };

const numberOf = (n: string | undefined): number | undefined => (n === undefined ? undefined : Number(n));
const unquote = (m: RegExpExecArray): string => (m[1] ?? m[2]).replace(/\\(.)/g, '$1');

/** Reads a path at the cursor, up to the first character that cannot continue it. */
export function readPath(s: Scanner): ParsedPath {
  const root = s.eat('$$') ? '$$' : s.eat('$') ? '$' : s.eat('@') ? '@' : s.fail('expected a path');
  const steps: Step[] = [];
  for (;;) {
    if (s.eat('..')) steps.push({ scan: s.eat('*') ? WILD : s.text[s.i] === '[' ? bracket(s) : { name: name(s) } });
    else if (s.eat('.')) steps.push(s.eat('*') ? WILD : { name: name(s) });
    else if (s.text[s.i] === '[') steps.push(bracket(s));
    else break;
  }
  return { root, steps, definite: steps.every((step) => 'name' in step || 'index' in step) };
}

function name(s: Scanner): string {
  return s.next(NAME)?.[0] ?? s.fail("expected a name (use ['...'] for other characters)");
}

function bracket(s: Scanner): Step {
  s.expect('[');
  s.ws();
  let step: Step;
  const quoted = s.next(QUOTED);
  if (quoted) step = { name: unquote(quoted) };
  else if (s.eat('*')) step = WILD;
  else if (s.eat('?(')) {
    step = { filter: filter(s) };
    s.expect(')');
  } else {
    const start = s.next(INTEGER)?.[0];
    if (s.eat(':')) step = { slice: [numberOf(start), numberOf(s.next(INTEGER)?.[0])] };
    else if (start !== undefined) step = { index: Number(start) };
    else return s.fail("expected '*', a quoted name, an index, a slice or a filter '?(...)'");
  }
  s.ws();
  s.expect(']');
  return step;
}

function filter(s: Scanner): Predicate {
  let p = conjunction(s);
  while (s.eat('||')) p = { or: [p, conjunction(s)] };
  return p;
}

function conjunction(s: Scanner): Predicate {
  let p = term(s);
  while (s.eat('&&')) p = { and: [p, term(s)] };
  return p;
}

/** A term and the spaces after it. */
function term(s: Scanner): Predicate {
  s.ws();
  let p: Predicate;
  if (s.eat('!')) return { not: term(s) };
  if (s.eat('(')) {
    p = filter(s);
    s.expect(')');
  } else {
    const left = operand(s);
    s.ws();
    const op = s.next(COMPARISON)?.[0];
    if (op !== undefined) {
      s.ws();
      p = { op, left, right: operand(s) };
    } else if ('path' in left && /[)&|]/.test(s.text[s.i] ?? '')) p = { exists: left.path };
    else return s.fail("expected ==, !=, <, <=, >, >=, &&, || or ')'");
  }
  s.ws();
  return p;
}

function operand(s: Scanner): Operand {
  const c = s.text[s.i];
  if (c === '@' || c === '$') {
    const path = readPath(s);
    if (path.root === '$$' || !path.definite) s.fail('a filter reads @ or $ paths of names and indexes only');
    return { path };
  }
  const quoted = s.next(QUOTED);
  if (quoted) return { lit: unquote(quoted) };
  const lit = readScalar(s);
  return lit === undefined ? s.fail('expected a path, a number, a string, true, false or null') : { lit };
}

/** A number, true, false or null at the cursor (JSON syntax), if there is one. */
export function readScalar(s: Scanner): Json | undefined {
  const m = s.next(NUMBER) ?? s.next(KEYWORD);
  return m && (JSON.parse(m[0]) as Json);
}

const cache = new Map<string, ParsedPath>();

/** Parses a whole path (`$...` or `$$...`). */
export function parsePath(text: string): ParsedPath {
  const hit = cache.get(text);
  if (hit) return hit;
  if (typeof text !== 'string') throw runtimeError(`invalid path ${JSON.stringify(text)}: not a string`);
  const s = new Scanner(text, 'path');
  const path = s.text[0] === '@' ? s.fail('expected $') : readPath(s);
  if (s.i !== text.length) s.fail('unexpected character');
  cache.set(text, path);
  return path;
}

/**
 * What a field takes (the ASL specification's terms): a `reference` path
 * (ResultPath, ItemsPath, Choice variables) names one place, with names and
 * non-negative indexes only; a `path` (InputPath, OutputPath) may also
 * select several values; a `template` value (`.$` keys, intrinsic
 * arguments) may also read the context object.
 */
export type PathKind = 'reference' | 'path' | 'template';

/** Parses `text` and checks that the field kind allows it. */
export function pathOf(text: string, kind: PathKind): ParsedPath {
  const path = parsePath(text);
  if (path.root === '$$' && kind !== 'template') throw runtimeError(`invalid path ${JSON.stringify(text)}: the context object ($$) can only be read in payload templates`);
  if (kind === 'reference' && !path.steps.every((s) => 'name' in s || ('index' in s && s.index >= 0))) {
    throw runtimeError(`invalid path ${JSON.stringify(text)}: a reference path has only names and non-negative indexes (no wildcards, slices, filters or '..')`);
  }
  return path;
}

export const isObject = (v: unknown): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `node` and everything below it, parents first. */
function subtree(node: Json, out: Json[]): Json[] {
  out.push(node);
  if (typeof node === 'object' && node !== null) for (const child of Object.values(node)) subtree(child, out);
  return out;
}

/** What `step` selects in `node`; `root` is the document, for `$` inside filters. */
function apply(step: Step, node: Json, root: Json): Json[] {
  if ('name' in step) return isObject(node) && Object.hasOwn(node, step.name) ? [node[step.name]] : [];
  if ('index' in step) {
    const i = step.index < 0 && Array.isArray(node) ? node.length + step.index : step.index;
    return Array.isArray(node) && i >= 0 && i < node.length ? [node[i]] : [];
  }
  // An array's values are its elements, in order.
  if ('wild' in step) return typeof node === 'object' && node !== null ? Object.values(node) : [];
  if ('slice' in step) return Array.isArray(node) ? node.slice(...step.slice) : [];
  if ('filter' in step) {
    // As Jayway JsonPath (which Step Functions uses): an array's matching elements; an object itself, if it matches.
    if (Array.isArray(node)) return node.filter((e) => matches(step.filter, e, root));
    return isObject(node) && matches(step.filter, node, root) ? [node] : [];
  }
  const inner = step.scan;
  // `..[?(...)]`: every node below that matches, once each.
  if ('filter' in inner) return subtree(node, []).slice(1).filter((n) => matches(inner.filter, n, root));
  return subtree(node, []).flatMap((n) => apply(inner, n, root));
}

function select(path: ParsedPath, doc: Json, root: Json): Json[] {
  let nodes = [doc];
  for (const step of path.steps) nodes = nodes.flatMap((n) => apply(step, n, root));
  return nodes;
}

const MISSING = Symbol('missing');

function operandValue(o: Operand, node: Json, root: Json): Json | typeof MISSING {
  if ('lit' in o) return o.lit;
  const found = select(o.path, o.path.root === '@' ? node : root, root);
  return found.length === 1 ? found[0] : MISSING;
}

/** A comparison with a missing operand is false; `<`, `>`, ... compare two numbers or two strings. */
function matches(p: Predicate, node: Json, root: Json): boolean {
  if ('and' in p) return matches(p.and[0], node, root) && matches(p.and[1], node, root);
  if ('or' in p) return matches(p.or[0], node, root) || matches(p.or[1], node, root);
  if ('not' in p) return !matches(p.not, node, root);
  if ('exists' in p) return operandValue({ path: p.exists }, node, root) !== MISSING;
  const a = operandValue(p.left, node, root);
  const b = operandValue(p.right, node, root);
  if (a === MISSING || b === MISSING) return false;
  const equal = a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
  if (p.op === '==') return equal;
  if (p.op === '!=') return !equal;
  if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
  const [x, y] = [a, b] as [number, number];
  return p.op === '<' ? x < y : p.op === '<=' ? x <= y : p.op === '>' ? x > y : x >= y;
}

/**
 * Evaluates a parsed path on `doc`. A definite path yields its value or
 * `found: false`; any other yields the array of all matches.
 */
export function evaluatePath(path: ParsedPath, doc: Json): { found: boolean; value?: Json } {
  const nodes = select(path, doc, doc);
  if (!path.definite) return { found: true, value: nodes };
  return nodes.length === 1 ? { found: true, value: nodes[0] } : { found: false };
}

/** Evaluates a path of the given kind on `doc`. */
export function evalPath(doc: Json, path: string, kind: PathKind = 'path'): { found: boolean; value?: Json } {
  return evaluatePath(pathOf(path, kind), doc);
}

function found(r: { found: boolean; value?: Json }, path: string, what: string): Json {
  if (!r.found) throw runtimeError(`${what}: path ${path} not found in the input`);
  return r.value as Json;
}

/** The value at a path (InputPath, OutputPath), or States.Runtime naming the path. */
export function selectPath(doc: Json, path: string, what: string): Json {
  return found(evalPath(doc, path), path, what);
}

/** A template value or intrinsic argument: `$$...` reads the context object, `$...` the input. */
export function selectReference(path: ParsedPath, text: string, input: Json, context: Json, what: string): Json {
  return found(evaluatePath(path, path.root === '$$' ? context : input), text, what);
}

/**
 * ResultPath: a copy of `doc` with `value` placed at `path`, creating missing
 * objects on the way (ASL). A non-object in the way is States.ResultPathMatchFailure.
 */
export function setPath(doc: Json, path: string, value: Json): Json {
  const steps = pathOf(path, 'reference').steps as ({ name: string } | { index: number })[];
  if (steps.length === 0) return value;
  const root = structuredClone(doc);
  let cur: Json = root;
  steps.forEach((s, k) => {
    // A name selects in an object, an index inside an array.
    let prop: string | number;
    if ('name' in s && isObject(cur)) prop = s.name;
    else if ('index' in s && Array.isArray(cur) && s.index < cur.length) prop = s.index;
    else throw new StatesError('States.ResultPathMatchFailure', `ResultPath ${path} cannot be applied to the input`);
    const container = cur as { [p: string | number]: Json };
    if (k === steps.length - 1) container[prop] = value;
    else {
      if (!Object.hasOwn(container, prop)) container[prop] = {};
      cur = container[prop];
    }
  });
  return root;
}
