import type { Json } from '../../runtime/contract/ir';

type JsonObject = { readonly [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `{ StartAt, States }` objects a state opens: each Parallel branch, the Map item processor (`ItemProcessor` or the older `Iterator`). */
export function childScopes(state: unknown): JsonObject[] {
  if (!isObject(state)) return [];
  if (state.Type === 'Parallel' && Array.isArray(state.Branches)) return state.Branches.filter(isObject);
  if (state.Type === 'Map') return [state.ItemProcessor, state.Iterator].filter(isObject);
  return [];
}

/**
 * Visits every state of the document, nested ones included, scope by scope
 * (breadth-first, each scope in document order). Tolerates malformed input (it runs before schema validation, to find
 * JSONata states), and is iterative so deep nesting cannot overflow the stack.
 */
export function forEachState(root: unknown, visit: (name: string, state: JsonObject) => void): void {
  const scopes: unknown[] = [root];
  while (scopes.length > 0) {
    const scope = scopes.shift();
    if (!isObject(scope) || !isObject(scope.States)) continue;
    for (const [name, state] of Object.entries(scope.States)) {
      if (!isObject(state)) continue;
      visit(name, state);
      scopes.push(...childScopes(state));
    }
  }
}
