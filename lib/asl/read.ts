import type { Json } from '../../runtime/contract/ir';
import { validateWithAslValidator } from './asl-validation';
import { AslDefinitionError, WORKFLOW_LEVEL } from './errors';
import { childScopes, forEachState } from './scopes';
import type { AslScope } from './types';

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
  rejectNonObjectStates(workflow, doc);
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
 * asl-validator writes a property into every state and throws a TypeError on
 * a state (or a `States`) that is not an object: such documents are rejected
 * here, with the state's name.
 */
function rejectNonObjectStates(workflow: string, doc: object): void {
  const scopes: unknown[] = [doc];
  while (scopes.length > 0) {
    const scope = scopes.pop() as { States?: unknown };
    if (typeof scope !== 'object' || scope === null || scope.States === undefined) continue;
    if (typeof scope.States !== 'object' || scope.States === null || Array.isArray(scope.States)) {
      throw new AslDefinitionError(workflow, WORKFLOW_LEVEL, 'States', `States must be an object of named states, got ${JSON.stringify(scope.States)}`);
    }
    for (const [name, state] of Object.entries(scope.States)) {
      if (typeof state !== 'object' || state === null || Array.isArray(state)) {
        throw new AslDefinitionError(workflow, name, '(state)', `a state must be a JSON object, got ${JSON.stringify(state)}`);
      }
      scopes.push(...childScopes(state));
    }
  }
}
