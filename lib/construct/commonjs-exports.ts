/**
 * The names a CommonJS module exports, read from its text without running it:
 * `exports.x = ...`, `module.exports.x = ...`, `exports['x'] = ...`,
 * `module.exports = { x, y: ..., z() {} }` and
 * `Object.defineProperty(exports, 'x', ...)` (what tsc emits). Anything
 * else that could add an export (`module.exports = require(...)`, a spread,
 * a computed key, `exports` passed to a function, as tsc's `__exportStar`
 * does) makes the answer unknown (`undefined`): the export check then stays
 * silent rather than reject a module that may be right.
 */

type Token = { readonly kind: 'name' | 'string' | 'punct' | 'other'; readonly text: string };

/** After these tokens a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^', '=>', '==',
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

const ESM_MARKER = '__esModule';

export function commonJsExports(source: string): readonly string[] | undefined {
  const tokens = tokenize(source);
  if (tokens === undefined) return undefined;
  const names = new Set<string>();
  const at = (i: number): string => tokens[i]?.text ?? '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'name' || at(i - 1) === '.' || (t.text !== 'exports' && t.text !== 'module')) continue;
    let j: number;
    if (t.text === 'module') {
      if (at(i + 1) !== '.') return undefined;
      if (at(i + 2) !== 'exports') continue;
      j = i + 3;
      if (at(j) === '=' && at(j + 1) === '{') {
        // The literal's values are scanned like any code after this.
        if (!objectKeys(tokens, j + 1, names)) return undefined;
        continue;
      }
    } else {
      j = i + 1;
      const defined = at(i - 1) === '(' && at(i - 2) === 'defineProperty' && at(i - 3) === '.' && at(i - 4) === 'Object';
      if (defined && at(j) === ',' && tokens[j + 1]?.kind === 'string') {
        names.add(at(j + 1));
        continue;
      }
    }
    // `<exports>.x`: assigned or read, the name is known; `<exports>['x']` likewise.
    if (at(j) === '.' && tokens[j + 1]?.kind === 'name') {
      if (at(j + 2) === '=') names.add(at(j + 1));
      continue;
    }
    if (at(j) === '[' && tokens[j + 1]?.kind === 'string' && at(j + 2) === ']') {
      if (at(j + 3) === '=') names.add(at(j + 1));
      continue;
    }
    return undefined;
  }
  names.delete(ESM_MARKER);
  return [...names].sort();
}

/**
 * Adds the keys of the object literal opening at `open` to `names`; false when
 * a key is not a plain name or string (a spread, a computed key) or the literal does not end.
 */
function objectKeys(tokens: readonly Token[], open: number, names: Set<string>): boolean {
  let i = open + 1;
  while (i < tokens.length && tokens[i].text !== '}') {
    let key = tokens[i];
    // Modifiers of a method: `async x() {}`, `get x() {}`, `*x() {}`.
    while ((['async', 'get', 'set', '*'].includes(key.text)) && !['(', ':', ',', '}'].includes(tokens[i + 1]?.text ?? '')) key = tokens[++i];
    if (key.kind !== 'name' && key.kind !== 'string') return false;
    names.add(key.text);
    // Skip to the `,` or `}` that ends this property (a value or a method's parameters and body).
    let depth = 0;
    for (i++; i < tokens.length; i++) {
      const text = tokens[i].text;
      if (tokens[i].kind !== 'punct') continue;
      if (text === '(' || text === '[' || text === '{') depth++;
      else if (text === ')' || text === ']' || (text === '}' && depth > 0)) depth--;
      else if (depth === 0 && (text === ',' || text === '}')) break;
    }
    if (tokens[i]?.text === ',') i++;
  }
  return i < tokens.length;
}

/**
 * Names, strings and punctuation of JavaScript source; comments, template
 * text and regular expressions skipped (a template's `${...}` parts are
 * code). Undefined when the text does not lex (an unterminated string).
 */
function tokenize(src: string): Token[] | undefined {
  const tokens: Token[] = [];
  // One entry per open `{`: true when it is a template's `${`.
  const braces: boolean[] = [];
  const last = (): string => {
    const t = tokens[tokens.length - 1];
    return t === undefined ? ';' : t.kind === 'punct' || t.kind === 'name' ? t.text : 'value';
  };
  let i = 0;
  const template = (): boolean => {
    // From inside a template's text to its end (false) or to a `${` (true).
    for (; i < src.length; i++) {
      if (src[i] === '\\') i++;
      else if (src[i] === '`') {
        i++;
        tokens.push({ kind: 'other', text: 'template' });
        return false;
      } else if (src[i] === '$' && src[i + 1] === '{') {
        i += 2;
        braces.push(true);
        return true;
      }
    }
    return false;
  };
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === '"' || c === "'") {
      let value = '';
      for (i++; i < src.length && src[i] !== c; i++) {
        if (src[i] === '\n') return undefined;
        if (src[i] === '\\') i++;
        value += src[i];
      }
      if (i >= src.length) return undefined;
      i++;
      tokens.push({ kind: 'string', text: value });
    } else if (c === '`') {
      i++;
      template();
    } else if (c === '}' && braces[braces.length - 1] === true) {
      braces.pop();
      i++;
      template();
    } else if (c === '/' && BEFORE_REGEX.has(last())) {
      // A regular expression ends on its line; a `/` in a class `[...]` does not end it.
      let inClass = false;
      let j = i + 1;
      for (; j < src.length && src[j] !== '\n'; j++) {
        if (src[j] === '\\') j++;
        else if (src[j] === '[') inClass = true;
        else if (src[j] === ']') inClass = false;
        else if (src[j] === '/' && !inClass) break;
      }
      if (src[j] !== '/') return undefined;
      i = j + 1;
      while (i < src.length && /[A-Za-z]/.test(src[i])) i++;
      tokens.push({ kind: 'other', text: 'regexp' });
    } else if (/[A-Za-z_$\u0080-\uffff]/.test(c)) {
      const start = i;
      while (i < src.length && /[\w$\u0080-\uffff]/.test(src[i])) i++;
      tokens.push({ kind: 'name', text: src.slice(start, i) });
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const start = i;
      while (i < src.length && /[\w.]/.test(src[i])) i++;
      tokens.push({ kind: 'other', text: src.slice(start, i) });
    } else {
      const op = ['...', '===', '!==', '==', '!=', '=>', '?.'].find((o) => src.startsWith(o, i)) ?? c;
      if (op === '{') braces.push(false);
      else if (op === '}') braces.pop();
      i += op.length;
      tokens.push({ kind: 'punct', text: op });
    }
  }
  return tokens;
}
