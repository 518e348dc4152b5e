import type AslValidator from 'asl-validator';
import type { Json } from '../../runtime/contract/ir';
import { AslDefinitionError, AslValidationError, WORKFLOW_LEVEL, type AslValidatorFinding } from './errors';
import { childScopes, forEachState } from './scopes';

/** A Lambda function name: what the unum dialect writes as `Resource` instead of an ARN. */
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * asl-validator, loaded when a document is first imported: it is an optional
 * peer dependency of unum-cdk (with its own dependencies, 8 MB), which an app
 * that writes its workflows in the DSL does without.
 */
function loadAslValidator(workflow: string): typeof AslValidator {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, so that unum-cdk loads without it
    return require('asl-validator') as typeof AslValidator;
  } catch (err) {
    const missing = (err as { code?: unknown }).code === 'MODULE_NOT_FOUND' && String((err as Error).message).includes("'asl-validator'");
    if (missing) throw new AslDefinitionError(workflow, WORKFLOW_LEVEL, '(document)', 'importing ASL (fromAsl, unum asl) needs the npm package asl-validator, which validates the document: npm install --save-dev asl-validator');
    throw err;
  }
}

/**
 * Runs asl-validator on a copy (it writes into the document). In the unum
 * dialect a `Resource` may be a bare function name, which the validator only
 * accepts as an ARN or a `${...}` placeholder: such names are checked as
 * placeholders, everything else exactly as written.
 */
export function validateWithAslValidator(workflow: string, doc: object): void {
  const copy = JSON.parse(JSON.stringify(doc)) as object;
  forEachState(copy, (_name, state) => {
    if (state.Type === 'Task' && typeof state.Resource === 'string' && FUNCTION_NAME.test(state.Resource)) {
      (state as { Resource: string }).Resource = `\${${state.Resource}}`;
    }
  });
  hideEscapedBackslashes(copy);
  const originals = renameKeyNamedStates(copy);
  const aslValidator = loadAslValidator(workflow);
  let result: ReturnType<typeof aslValidator>;
  try {
    result = aslValidator(copy, { checkArn: true, checkPaths: true });
  } catch (e) {
    // It also writes into any object under a key named "States", e.g. inside a payload template.
    throw new AslDefinitionError(workflow, WORKFLOW_LEVEL, '(document)', `asl-validator could not check the document (${(e as Error).message}); a key named "States" outside a state list (e.g. in Parameters) whose values are not objects can cause this`);
  }
  if (result.isValid) return;
  // Longest first: one renamed name may extend another (`unum-renamed-Next_`).
  const original = (text: string): string => [...originals].sort((a, b) => b[0].length - a[0].length).reduce((t, [renamed, name]) => t.split(renamed).join(name), text);
  const findings: AslValidatorFinding[] = result.errors.map((e) => ({
    code: e['Error code'],
    // A schema error about the document itself has an empty pointer: show it as '/'.
    message: original(e.Message.replace(/^ is invalid/, '/ is invalid')),
    ...(e.schemaError ? { instancePath: original(e.schemaError.instancePath) } : {}),
  }));
  const where = locate(findings[0], doc);
  throw new AslValidationError(workflow, where.state, where.field, findings);
}

/**
 * Keys asl-validator looks up anywhere in the document (JSONPath `$..key`):
 * a state of that name is taken for the field (a Parallel named "Branches"
 * for a branch list, which crashes it; a state named "Next" for a
 * transition). Valid ASL, so in the copy it checks such states are renamed
 * (in their scope's `StartAt` and transitions too); returns `[renamed,
 * name]` pairs to name them as written in its findings.
 */
const VALIDATOR_KEYS = new Set(['StartAt', 'Next', 'Default', 'Parameters', 'ResultSelector', 'States', 'Branches', 'Iterator']);

function renameKeyNamedStates(root: object): [string, string][] {
  const pairs: [string, string][] = [];
  const scopes: unknown[] = [root];
  while (scopes.length > 0) {
    const scope = scopes.shift() as { StartAt?: unknown; States?: unknown };
    if (typeof scope !== 'object' || scope === null || typeof scope.States !== 'object' || scope.States === null) continue;
    const states = scope.States as Record<string, Record<string, unknown>>;
    const renames = new Map<string, string>();
    for (const name of Object.keys(states).filter((n) => VALIDATOR_KEYS.has(n))) {
      let renamed = `unum-renamed-${name}`;
      while (renamed in states) renamed += '_';
      renames.set(name, renamed);
      pairs.push([renamed, name]);
    }
    const to = (target: unknown): unknown => (typeof target === 'string' ? (renames.get(target) ?? target) : target);
    if (renames.size > 0) {
      scope.StartAt = to(scope.StartAt);
      scope.States = Object.fromEntries(Object.entries(states).map(([name, state]) => [renames.get(name) ?? name, state]));
    }
    for (const state of Object.values(scope.States as Record<string, unknown>)) {
      if (typeof state !== 'object' || state === null) continue;
      const s = state as Record<string, unknown>;
      if (renames.size > 0) {
        if ('Next' in s) s.Next = to(s.Next);
        if ('Default' in s) s.Default = to(s.Default);
        for (const list of [s.Choices, s.Catch]) if (Array.isArray(list)) for (const rule of list) if (typeof rule === 'object' && rule !== null && 'Next' in rule) rule.Next = to(rule.Next);
      }
      scopes.push(...childScopes(state));
    }
  }
  return pairs;
}

/**
 * asl-validator refuses the escaped backslash `\\` inside `.$` values, one of
 * the four escapes Step Functions documents for intrinsic string literals
 * (`\'`, `\{`, `\}`, `\\`). In the copy it checks, each such pair becomes
 * `\{`, which it accepts; the values as written are checked with the
 * runtime's own grammar (lib/compiler/jsonpath.ts).
 */
function hideEscapedBackslashes(root: object): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    const record = value as Record<string, unknown>;
    for (const [key, inner] of Object.entries(record)) {
      if (key.endsWith('.$') && typeof inner === 'string') record[key] = inner.replace(/\\([\s\S])/g, (pair, c: string) => (c === '\\' ? '\\{' : pair));
      else stack.push(inner);
    }
  }
}

/**
 * The state and field a finding is about: from its JSON pointer, else from
 * the validator's message (which names the state, or only the missing target
 * of a transition: then the state that transitions there is looked up).
 */
function locate(finding: AslValidatorFinding | undefined, doc: object): { state: string; field: string } {
  if (finding?.instancePath !== undefined) {
    const segments = finding.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const at = segments.lastIndexOf('States');
    if (at >= 0 && at + 1 < segments.length) return { state: segments[at + 1], field: fieldName(segments.slice(at + 2)) };
    return { state: WORKFLOW_LEVEL, field: segments.length === 0 ? '(document)' : fieldName(segments) };
  }
  const message = finding?.message ?? '';
  const missing = /target: (.+)$/.exec(message);
  if (missing) return transitionTo(doc, missing[1]);
  const named = /^State (?!machine )"?(.+?)"? (?:is|MUST)\b/.exec(message) ?? /already exists: (.+)$/.exec(message);
  return { state: named ? named[1] : WORKFLOW_LEVEL, field: '(document)' };
}

/** The first state whose Next, Default, Choices[i].Next or Catch[i].Next is `target`. */
function transitionTo(doc: object, target: string): { state: string; field: string } {
  let found: { state: string; field: string } | undefined;
  forEachState(doc, (name, state) => {
    if (found) return;
    const rules = (key: string): Json[] => (Array.isArray(state[key]) ? (state[key] as Json[]) : []);
    const refs: [string, Json | undefined][] = [
      ['Next', state.Next],
      ['Default', state.Default],
      ...rules('Choices').map((r, i): [string, Json | undefined] => [`Choices[${i}].Next`, (r as { Next?: Json }).Next]),
      ...rules('Catch').map((c, i): [string, Json | undefined] => [`Catch[${i}].Next`, (c as { Next?: Json }).Next]),
    ];
    const ref = refs.find(([, value]) => value === target);
    if (ref) found = { state: name, field: ref[0] };
  });
  return found ?? { state: WORKFLOW_LEVEL, field: 'StartAt' };
}

/** `['Retry', '0', 'ErrorEquals']` -> `Retry[0].ErrorEquals`. */
function fieldName(segments: readonly string[]): string {
  if (segments.length === 0) return '(state)';
  return segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}
