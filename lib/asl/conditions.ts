import type { ComparisonOperator, ComparisonType, Condition, Json, TypeTest } from '../../runtime/contract/ir';
import type { Reporter } from './errors';
import { checkKeys } from './fields';

type Rule = { readonly [field: string]: Json };

/** Every comparison operator of ASL's JSONPath mode; each also exists with a `Path` suffix (compare with another path). */
const COMPARISONS: Readonly<Record<string, readonly [ComparisonType, ComparisonOperator]>> = {
  StringEquals: ['string', 'eq'],
  StringLessThan: ['string', 'lt'],
  StringGreaterThan: ['string', 'gt'],
  StringLessThanEquals: ['string', 'le'],
  StringGreaterThanEquals: ['string', 'ge'],
  NumericEquals: ['number', 'eq'],
  NumericLessThan: ['number', 'lt'],
  NumericGreaterThan: ['number', 'gt'],
  NumericLessThanEquals: ['number', 'le'],
  NumericGreaterThanEquals: ['number', 'ge'],
  BooleanEquals: ['boolean', 'eq'],
  TimestampEquals: ['timestamp', 'eq'],
  TimestampLessThan: ['timestamp', 'lt'],
  TimestampGreaterThan: ['timestamp', 'gt'],
  TimestampLessThanEquals: ['timestamp', 'le'],
  TimestampGreaterThanEquals: ['timestamp', 'ge'],
};

/** The type tests; `"IsNull": false` negates (the IR's `expected`). */
const TESTS: Readonly<Record<string, TypeTest>> = {
  IsPresent: 'present',
  IsNull: 'null',
  IsString: 'string',
  IsNumeric: 'number',
  IsBoolean: 'boolean',
  IsTimestamp: 'timestamp',
};

/** Fields of a rule that are not its operator. */
const NOT_OPERATORS = new Set(['Variable', 'Next', 'Comment']);

/**
 * Translates one Choice rule (top-level or nested in And/Or/Not) into the
 * IR's Condition AST. `field` locates the rule for messages, e.g. `Choices[1].And[0]`.
 */
export function conditionOf(report: Reporter, state: string, field: string, rule: Rule): Condition {
  const combinator = ['And', 'Or', 'Not'].find((k) => rule[k] !== undefined);
  if (combinator !== undefined) {
    checkKeys(report, state, field, rule, [combinator, 'Next', 'Comment']);
    if (combinator === 'Not') return { kind: 'not', arg: conditionOf(report, state, `${field}.Not`, rule.Not as Rule) };
    const rules = (rule[combinator] as Rule[]).map((r, i) => conditionOf(report, state, `${field}.${combinator}[${i}]`, r));
    return combinator === 'And' ? { kind: 'and', all: rules } : { kind: 'or', any: rules };
  }
  if (rule.Assign !== undefined) report.fail(state, `${field}.Assign`, 'Assign is not supported: workflow variables are not supported');
  const path = rule.Variable as string;
  const operators = Object.keys(rule).filter((k) => !NOT_OPERATORS.has(k));
  if (operators.length !== 1) report.fail(state, field, `a rule needs exactly one comparison operator, found ${operators.length === 0 ? 'none' : operators.join(', ')}`);
  const op = operators[0];
  const value = rule[op];
  if (op === 'StringMatches') return { kind: 'matches', path, pattern: value as string };
  const test = TESTS[op];
  if (test !== undefined) return { kind: 'test', test, path, expected: value as boolean };
  const compared = COMPARISONS[op];
  if (compared !== undefined) return { kind: 'compare', type: compared[0], op: compared[1], path, value: value as string | number | boolean };
  const againstPath = op.endsWith('Path') ? COMPARISONS[op.slice(0, -4)] : undefined;
  if (againstPath !== undefined) return { kind: 'comparePath', type: againstPath[0], op: againstPath[1], path, otherPath: value as string };
  return report.fail(state, `${field}.${op}`, `${op} is not a JSONPath comparison operator`);
}
