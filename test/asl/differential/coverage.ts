/**
 * What the README says the ASL importer supports, read from its "Supported
 * states and fields" table, and whether the differential corpus uses it.
 *
 * A cell of the table lists fields in backticks. Backticked names in
 * parentheses after a field are fields inside it (`Catch` (`ErrorEquals`,
 * ...)); capitalised words after a field are values it must take
 * (`JitterStrategy` FULL/NONE); "all fields" after `Retry` means every
 * retrier field of the ASL specification; a family such as `String*` with
 * operators in parentheses, "each also as `...Path`", means every ASL
 * comparison operator it names.
 */
import type { Json } from '../../../runtime/contract/ir';

/** One thing the table says is supported: `field` of a `state` type ('(top level)' for the document), optionally inside `parent`. */
export interface Requirement {
  readonly state: string;
  readonly parent?: string;
  /** A field name, a dotted path of names (`ProcessorConfig.Mode`), or a context path (`$$.Map.Item.Value`) used in a template. */
  readonly field: string;
  /** Values the field must take somewhere in the corpus. */
  readonly values?: readonly string[];
}

export const TOP_LEVEL = '(top level)';

/** The retrier fields of the ASL specification. */
const RETRIER_FIELDS = ['ErrorEquals', 'IntervalSeconds', 'MaxAttempts', 'BackoffRate', 'MaxDelaySeconds', 'JitterStrategy'];
/** The comparison operators of the ASL specification (Boolean has Equals only). */
const COMPARISONS = ['Equals', 'LessThan', 'GreaterThan', 'LessThanEquals', 'GreaterThanEquals'].flatMap((op) =>
  ['String', 'Numeric', 'Timestamp', ...(op === 'Equals' ? ['Boolean'] : [])].flatMap((family) => [`${family}${op}`, `${family}${op}Path`]),
);

interface Token {
  readonly text: string;
  /** The token whose parentheses hold this one. */
  readonly parent?: string;
  /** Capitalised words right after the token (`FULL/NONE`). */
  readonly values: readonly string[];
}

/** The backticked tokens of a cell, with the parenthesis each sits in. */
function tokens(cell: string): Token[] {
  const out: Token[] = [];
  const parents: (string | undefined)[] = [];
  let last: string | undefined;
  for (const m of cell.matchAll(/`([^`]+)`((?:\s+[A-Z]{2,}(?:\/[A-Z]{2,})*)?)|(\()|(\))/g)) {
    if (m[3]) parents.push(last);
    else if (m[4]) parents.pop();
    else {
      last = m[1];
      out.push({ text: m[1], parent: parents[parents.length - 1], values: m[2].trim() ? m[2].trim().split('/') : [] });
    }
  }
  return out;
}

/** The requirements of one row: `cell` is its "Supported fields" column. */
export function rowRequirements(state: string, cell: string): Requirement[] {
  const toks = tokens(cell);
  const families = toks.filter((t) => t.text.endsWith('*')).map((t) => t.text.slice(0, -1));
  const operators = new Set(toks.filter((t) => families.includes(t.parent?.slice(0, -1) ?? '') && !t.text.includes('Path')).map((t) => t.text));
  const withPath = toks.some((t) => t.text === '...Path');
  const out: Requirement[] = [];
  for (const t of toks) {
    if (t.text.endsWith('*') || operators.has(t.text) || t.text === '...Path') continue;
    const [field, value] = t.text.split(': ');
    const parent = t.parent && !t.parent.endsWith('*') ? t.parent : undefined;
    const values = value ? [value] : t.values;
    out.push({ state, field, ...(parent ? { parent } : {}), ...(values.length ? { values } : {}) });
  }
  for (const family of families) {
    for (const op of operators) {
      for (const name of [`${family}${op}`, ...(withPath ? [`${family}${op}Path`] : [])]) if (COMPARISONS.includes(name)) out.push({ state, field: name });
    }
  }
  if (/`Retry` \(all fields/.test(cell)) for (const field of RETRIER_FIELDS) out.push({ state, parent: 'Retry', field });
  return out;
}

/** Every requirement of the README's tables of supported states and top-level fields. */
export function readmeRequirements(readme: string): Requirement[] {
  const section = readme.split('## Supported states and fields')[1]?.split('\n## ')[0];
  if (!section) throw new Error('README has no "Supported states and fields" section');
  const out: Requirement[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // | State | Supported | Not supported |: cells[0] is before the first bar.
    if (cells.length < 4 || /^-+$/.test(cells[1]) || cells[2] === 'Supported fields' || cells[2] === 'Supported') continue;
    out.push(...rowRequirements(cells[1] === '' ? TOP_LEVEL : cells[1], cells[2]));
  }
  return out;
}

type Obj = { readonly [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every state of a scope and of the scopes inside it (Parallel branches, Map processors), with each document as a top-level pseudo-state. */
export function allStates(doc: Obj): { type: string; state: Obj }[] {
  const out: { type: string; state: Obj }[] = [{ type: TOP_LEVEL, state: doc }];
  const scope = (s: Obj): void => {
    for (const state of Object.values(isObj(s.States) ? s.States : {})) {
      if (!isObj(state)) continue;
      out.push({ type: String(state.Type), state });
      for (const inner of [...(Array.isArray(state.Branches) ? state.Branches : []), state.Iterator, state.ItemProcessor]) if (isObj(inner)) scope(inner);
    }
  };
  scope(doc);
  return out;
}

/** Values at a dotted path of names, looking into arrays on the way (`Retry` is a list of retriers). */
function valuesAt(v: Json | undefined, path: readonly string[]): Json[] {
  if (v === undefined) return [];
  if (Array.isArray(v)) return v.flatMap((x) => valuesAt(x, path));
  if (path.length === 0) return [v];
  return isObj(v) && Object.hasOwn(v, path[0]) ? valuesAt(v[path[0]], path.slice(1)) : [];
}

/** Choice rules and the rules nested in And / Or / Not. */
function rules(v: Json | undefined): Obj[] {
  if (Array.isArray(v)) return v.flatMap(rules);
  if (!isObj(v)) return [];
  return [v, ...rules(v.And), ...rules(v.Or), ...rules(v.Not)];
}

const strings = (v: Json): string[] => (typeof v === 'string' ? [v] : typeof v === 'object' && v !== null ? Object.values(v).flatMap(strings) : []);

/** Do the states of the requirement's type in `docs` use it (with all its values, across those states)? */
export function covers(docs: readonly Obj[], r: Requirement): boolean {
  const found = docs
    .flatMap(allStates)
    .filter(({ type }) => type === r.state)
    .flatMap(({ type, state }) => {
      // A Choice's comparison operators and And / Or / Not live in its rules.
      const holders = r.parent ? valuesAt(state, [r.parent]) : type === 'Choice' && r.field !== 'Choices' ? [state, ...rules(state.Choices)] : [state];
      if (r.field.startsWith('$$.')) return holders.flatMap(strings).filter((s) => s.includes(r.field));
      return holders.flatMap((h) => valuesAt(h, r.field.split('.')));
    });
  return r.values ? r.values.every((value) => found.includes(value)) : found.length > 0;
}

/** The intrinsic functions and context paths the README's paragraph on payload templates lists. */
export function templateNames(readme: string): string[] {
  const paragraph = readme.split('\nPayload templates (')[1]?.split('\n\n')[0];
  if (!paragraph) throw new Error('README has no paragraph on payload templates');
  return [...paragraph.matchAll(/`(States\.\w+|\$\$\.[\w.]+)`/g)].map((m) => m[1]);
}

/** Every string value in the documents (paths, templates, intrinsic calls). */
export const corpusStrings = (docs: readonly Obj[]): string[] => docs.flatMap(strings);

/** The `.$` values of every payload template, and the InputPath / OutputPath values, of the documents. */
export function corpusPaths(docs: readonly Obj[]): { template: string[]; io: string[] } {
  const template: string[] = [];
  const io: string[] = [];
  const walk = (v: Json): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isObj(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (k.endsWith('.$') && typeof x === 'string' && x.startsWith('$')) template.push(x);
        if ((k === 'InputPath' || k === 'OutputPath') && typeof x === 'string') io.push(x);
        walk(x);
      }
    }
  };
  docs.forEach(walk);
  return { template, io };
}
