/** The typed Condition AST of Choice rules: compiled once, interpreted by runtime/language/condition.ts, never evaluated as code. */
import type { JsonPath } from './json';

export type ComparisonType = 'string' | 'number' | 'boolean' | 'timestamp';
export type ComparisonOperator = 'eq' | 'lt' | 'gt' | 'le' | 'ge';
export type TypeTest = 'present' | 'null' | 'string' | 'number' | 'boolean' | 'timestamp';

/**
 * A typed, serializable boolean expression over the committed output of a node.
 * Interpreted by runtime/language/condition.ts; never compiled to code.
 * As in Step Functions, a path that is absent fails the run with
 * States.Runtime (only the `present` test tests for absence), and a
 * comparison with a value of another type is false.
 */
export type Condition =
  | { readonly kind: 'compare'; readonly type: ComparisonType; readonly op: ComparisonOperator; readonly path: JsonPath; readonly value: string | number | boolean }
  | { readonly kind: 'comparePath'; readonly type: ComparisonType; readonly op: ComparisonOperator; readonly path: JsonPath; readonly otherPath: JsonPath }
  /** ASL StringMatches: `*` matches any run of characters, `\*` and `\\` escape. */
  | { readonly kind: 'matches'; readonly path: JsonPath; readonly pattern: string }
  /** isPresent / isNull / isString / isNumeric / isBoolean / isTimestamp; `expected` false negates. */
  | { readonly kind: 'test'; readonly test: TypeTest; readonly path: JsonPath; readonly expected: boolean }
  | { readonly kind: 'and'; readonly all: readonly Condition[] }
  | { readonly kind: 'or'; readonly any: readonly Condition[] }
  | { readonly kind: 'not'; readonly arg: Condition }
  /**
   * A JSONata Choice rule's `Condition` (`{% <expression> %}`), over
   * `$states.input` (the Choice's input) and `$states.context`; it must give
   * a boolean. Only a whole rule of a JSONata Choice, never inside and/or/not.
   */
  | { readonly kind: 'jsonata'; readonly condition: string };
