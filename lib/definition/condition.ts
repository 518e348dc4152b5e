import type { ComparisonOperator, ComparisonType, Condition as ConditionIr, JsonPath, TypeTest } from '../../runtime/contract/ir';

/**
 * A typed, serializable boolean expression over a JSON value, used by
 * `Choice.when`. It is data (the IR's `Condition` AST) interpreted by the
 * runtime, never code. Paths use the Step Functions subset: `$.a.b`, `$.a[0]`.
 */
export class Condition {
  /** Wraps an IR condition (used by the ASL importer). */
  static fromIr(ir: ConditionIr): Condition {
    return new Condition(ir);
  }

  static stringEquals(path: JsonPath, value: string): Condition { return compare('string', 'eq', path, value); }
  static stringLessThan(path: JsonPath, value: string): Condition { return compare('string', 'lt', path, value); }
  static stringLessThanEquals(path: JsonPath, value: string): Condition { return compare('string', 'le', path, value); }
  static stringGreaterThan(path: JsonPath, value: string): Condition { return compare('string', 'gt', path, value); }
  static stringGreaterThanEquals(path: JsonPath, value: string): Condition { return compare('string', 'ge', path, value); }
  /** `*` matches any run of characters; `\*` and `\\` escape. */
  static stringMatches(path: JsonPath, pattern: string): Condition { return new Condition({ kind: 'matches', path, pattern }); }

  static numberEquals(path: JsonPath, value: number): Condition { return compare('number', 'eq', path, value); }
  static numberLessThan(path: JsonPath, value: number): Condition { return compare('number', 'lt', path, value); }
  static numberLessThanEquals(path: JsonPath, value: number): Condition { return compare('number', 'le', path, value); }
  static numberGreaterThan(path: JsonPath, value: number): Condition { return compare('number', 'gt', path, value); }
  static numberGreaterThanEquals(path: JsonPath, value: number): Condition { return compare('number', 'ge', path, value); }

  static booleanEquals(path: JsonPath, value: boolean): Condition { return compare('boolean', 'eq', path, value); }

  /** Timestamps are RFC 3339 strings. */
  static timestampEquals(path: JsonPath, value: string): Condition { return compare('timestamp', 'eq', path, value); }
  static timestampLessThan(path: JsonPath, value: string): Condition { return compare('timestamp', 'lt', path, value); }
  static timestampLessThanEquals(path: JsonPath, value: string): Condition { return compare('timestamp', 'le', path, value); }
  static timestampGreaterThan(path: JsonPath, value: string): Condition { return compare('timestamp', 'gt', path, value); }
  static timestampGreaterThanEquals(path: JsonPath, value: string): Condition { return compare('timestamp', 'ge', path, value); }

  /** Compares the values at two paths of the same document. */
  static comparePaths(type: ComparisonType, op: ComparisonOperator, path: JsonPath, otherPath: JsonPath): Condition {
    return new Condition({ kind: 'comparePath', type, op, path, otherPath });
  }

  static isPresent(path: JsonPath): Condition { return test('present', path, true); }
  static isNotPresent(path: JsonPath): Condition { return test('present', path, false); }
  static isNull(path: JsonPath): Condition { return test('null', path, true); }
  static isNotNull(path: JsonPath): Condition { return test('null', path, false); }
  static isString(path: JsonPath): Condition { return test('string', path, true); }
  static isNumeric(path: JsonPath): Condition { return test('number', path, true); }
  static isBoolean(path: JsonPath): Condition { return test('boolean', path, true); }
  static isTimestamp(path: JsonPath): Condition { return test('timestamp', path, true); }

  static and(...conditions: Condition[]): Condition { return new Condition({ kind: 'and', all: conditions.map((c) => c.ir) }); }
  static or(...conditions: Condition[]): Condition { return new Condition({ kind: 'or', any: conditions.map((c) => c.ir) }); }
  static not(condition: Condition): Condition { return new Condition({ kind: 'not', arg: condition.ir }); }

  /**
   * A JSONata condition (aws-cdk-lib's `Condition.jsonata`), the whole rule
   * of a `Choice.jsonata`: `{% <expression> %}` over `$states.input` and
   * `$states.context`, giving a boolean. Combine inside the expression
   * (`and`, `or`, `$not()`), not with `Condition.and`.
   */
  static jsonata(condition: string): Condition { return new Condition({ kind: 'jsonata', condition }); }

  private constructor(
    /** The serializable expression, as stored in the IR. */
    readonly ir: ConditionIr,
  ) {}
}

function compare(type: ComparisonType, op: ComparisonOperator, path: JsonPath, value: string | number | boolean): Condition {
  return Condition.fromIr({ kind: 'compare', type, op, path, value });
}

function test(kind: TypeTest, path: JsonPath, expected: boolean): Condition {
  return Condition.fromIr({ kind: 'test', test: kind, path, expected });
}
