import aslValidator from 'asl-validator';
import type { Json } from '../../../runtime/ir';
import { AslDefinitionError, AslValidationError, WORKFLOW_LEVEL, type AslValidatorFinding } from './errors';
import { forEachState } from './scopes';
import type { AslScope } from './types';

/** A Lambda function name: what the unum dialect writes as `Resource` instead of an ARN. */
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Reads an ASL document (JSON text or a parsed object) and checks it: JSONata
 * mode is rejected first (with its own message), then asl-validator checks
 * the whole document against the ASL specification. Returns a private copy,
 * made through JSON text: it is plain JSON in the caller's realm (unlike
 * structuredClone's result under a test runner's vm), which the compiler requires.
 */
export function readDocument(workflow: string, input: unknown): AslScope {
  const doc = parseJson(workflow, typeof input === 'string' ? input : JSON.stringify(input));
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new AslDefinitionError(workflow, WORKFLOW_LEVEL, '(document)', 'an ASL definition must be a JSON object with StartAt and States');
  }
  rejectJsonata(workflow, doc as { [k: string]: Json });
  validateWithAslValidator(workflow, doc);
  return doc as unknown as AslScope;
}

function parseJson(workflow: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new AslDefinitionError(workflow, WORKFLOW_LEVEL, '(document)', `the definition is not JSON: ${(e as Error).message}`);
  }
}

/** JSONata expressions would need a JSONata interpreter in every function; only JSONPath mode is supported. */
function rejectJsonata(workflow: string, doc: { [k: string]: Json }): void {
  const message = "QueryLanguage 'JSONata' is not supported: unum runs ASL in JSONPath mode only (InputPath, Parameters, ResultSelector, ResultPath, OutputPath); rewrite the state with JSONPath fields";
  if (doc.QueryLanguage === 'JSONata') throw new AslDefinitionError(workflow, WORKFLOW_LEVEL, 'QueryLanguage', message);
  let jsonataState: string | undefined;
  forEachState(doc, (name, state) => {
    if (jsonataState === undefined && state.QueryLanguage === 'JSONata') jsonataState = name;
  });
  if (jsonataState !== undefined) throw new AslDefinitionError(workflow, jsonataState, 'QueryLanguage', message);
}

/**
 * Runs asl-validator on a copy (it writes into the document). In the unum
 * dialect a `Resource` may be a bare function name, which the validator only
 * accepts as an ARN or a `${...}` placeholder: such names are checked as
 * placeholders, everything else exactly as written.
 */
function validateWithAslValidator(workflow: string, doc: object): void {
  const copy = JSON.parse(JSON.stringify(doc)) as object;
  forEachState(copy, (_name, state) => {
    if (state.Type === 'Task' && typeof state.Resource === 'string' && FUNCTION_NAME.test(state.Resource)) {
      (state as { Resource: string }).Resource = `\${${state.Resource}}`;
    }
  });
  const result = aslValidator(copy, { checkArn: true, checkPaths: true });
  if (result.isValid) return;
  const findings: AslValidatorFinding[] = result.errors.map((e) => ({
    code: e['Error code'],
    // A schema error about the document itself has an empty pointer: show it as '/'.
    message: e.Message.replace(/^ is invalid/, '/ is invalid'),
    ...(e.schemaError ? { instancePath: e.schemaError.instancePath } : {}),
  }));
  const where = locate(findings[0], copy);
  throw new AslValidationError(workflow, where.state, where.field, findings);
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
