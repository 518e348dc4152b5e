import type { Json } from '../../runtime/contract/ir';
import { validateWithAslValidator } from './asl-validation';
import { AslDefinitionError, WORKFLOW_LEVEL } from './errors';
import { childScopes, forEachState } from './scopes';
import type { AslScope } from './types';

/**
 * Reads an ASL document (JSON text or a parsed object) and checks it:
 * asl-validator checks the whole document against the ASL specification,
 * then each state gets its query language. Returns a private copy,
 * made through JSON text: it is plain JSON in the caller's realm (unlike
 * structuredClone's result under a test runner's vm), which the compiler requires.
 */
export function readDocument(workflow: string, input: unknown): AslScope {
  const doc = parseJson(workflow, typeof input === 'string' ? input : JSON.stringify(input));
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new AslDefinitionError(workflow, WORKFLOW_LEVEL, '(document)', 'an ASL definition must be a JSON object with StartAt and States');
  }
  rejectNonObjectStates(workflow, doc);
  validateWithAslValidator(workflow, doc);
  settleQueryLanguage(workflow, doc as { [k: string]: Json });
  return doc as unknown as AslScope;
}

function parseJson(workflow: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new AslDefinitionError(workflow, WORKFLOW_LEVEL, '(document)', `the definition is not JSON: ${(e as Error).message}`);
  }
}

/**
 * Step Functions' query languages: a state without its own `QueryLanguage`
 * takes the document's (default JSONPath). Written into every state here,
 * so each reader sees its state's language; a JSONPath state inside a
 * JSONata document is refused, as Step Functions refuses it.
 */
function settleQueryLanguage(workflow: string, doc: { [k: string]: Json }): void {
  const top = doc.QueryLanguage ?? 'JSONPath';
  if (top !== 'JSONPath' && top !== 'JSONata') throw new AslDefinitionError(workflow, WORKFLOW_LEVEL, 'QueryLanguage', `must be JSONPath or JSONata, got ${JSON.stringify(top)}`);
  forEachState(doc, (name, state) => {
    if (state.QueryLanguage === undefined) (state as { QueryLanguage?: Json }).QueryLanguage = top;
    else if (top === 'JSONata' && state.QueryLanguage === 'JSONPath') {
      throw new AslDefinitionError(workflow, name, 'QueryLanguage', 'a JSONPath state cannot be in a JSONata document (Step Functions refuses it too): make the document JSONPath and this state JSONata, or rewrite the state');
    }
  });
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
