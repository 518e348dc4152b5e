import { evaluate, stringMatches } from '../../runtime/language/condition';
import type { Condition } from '../../runtime/contract/ir';

const doc = {
  n: 10,
  s: 'beta',
  b: true,
  nul: null,
  ts: '2026-11-21T10:00:00Z',
  ts2: '2026-11-21T12:00:00+03:00',
  other: 12,
  file: 'log-2026.txt',
  star: 'a*b',
  arr: [1, 2],
};

const cmp = (type: 'string' | 'number' | 'boolean' | 'timestamp', op: 'eq' | 'lt' | 'gt' | 'le' | 'ge', path: string, value: string | number | boolean): Condition => ({ kind: 'compare', type, op, path, value });

test.each<[Condition, boolean]>([
  [cmp('number', 'eq', '$.n', 10), true],
  [cmp('number', 'lt', '$.n', 11), true],
  [cmp('number', 'gt', '$.n', 10), false],
  [cmp('number', 'le', '$.n', 10), true],
  [cmp('number', 'ge', '$.n', 11), false],
  [cmp('string', 'eq', '$.s', 'beta'), true],
  [cmp('string', 'lt', '$.s', 'gamma'), true],
  [cmp('string', 'gt', '$.s', 'alpha'), true],
  [cmp('boolean', 'eq', '$.b', true), true],
  [cmp('boolean', 'lt', '$.b', true), false],
  // Type mismatch: false.
  [cmp('number', 'eq', '$.s', 10), false],
  [cmp('string', 'eq', '$.n', '10'), false],
  [cmp('number', 'eq', '$.arr[1]', 2), true],
  // Timestamps compare as instants, across offsets.
  [cmp('timestamp', 'gt', '$.ts', '2026-11-21T09:59:59Z'), true],
  [cmp('timestamp', 'eq', '$.ts2', '2026-11-21T09:00:00Z'), true],
  [cmp('timestamp', 'lt', '$.ts2', '2026-11-21T10:00:00Z'), true],
  [cmp('timestamp', 'eq', '$.s', '2026-11-21T10:00:00Z'), false],
  [{ kind: 'comparePath', type: 'number', op: 'lt', path: '$.n', otherPath: '$.other' }, true],
  [{ kind: 'comparePath', type: 'timestamp', op: 'gt', path: '$.ts', otherPath: '$.ts2' }, true],
  [{ kind: 'matches', path: '$.file', pattern: 'log-*.txt' }, true],
  [{ kind: 'matches', path: '$.file', pattern: 'log-*.csv' }, false],
  [{ kind: 'matches', path: '$.star', pattern: 'a\\*b' }, true],
  [{ kind: 'matches', path: '$.file', pattern: 'log-\\*.txt' }, false],
  [{ kind: 'matches', path: '$.n', pattern: '*' }, false],
  [{ kind: 'test', test: 'present', path: '$.nul', expected: true }, true],
  [{ kind: 'test', test: 'present', path: '$.missing', expected: false }, true],
  [{ kind: 'test', test: 'null', path: '$.nul', expected: true }, true],
  [{ kind: 'test', test: 'string', path: '$.s', expected: true }, true],
  [{ kind: 'test', test: 'number', path: '$.s', expected: false }, true],
  [{ kind: 'test', test: 'boolean', path: '$.b', expected: true }, true],
  [{ kind: 'test', test: 'timestamp', path: '$.ts', expected: true }, true],
  [{ kind: 'test', test: 'timestamp', path: '$.s', expected: true }, false],
  [{ kind: 'and', all: [cmp('number', 'eq', '$.n', 10), cmp('string', 'eq', '$.s', 'beta')] }, true],
  [{ kind: 'and', all: [cmp('number', 'eq', '$.n', 10), cmp('string', 'eq', '$.s', 'x')] }, false],
  [{ kind: 'or', any: [cmp('number', 'eq', '$.n', 1), cmp('string', 'eq', '$.s', 'beta')] }, true],
  [{ kind: 'not', arg: cmp('number', 'eq', '$.n', 10) }, false],
])('%j -> %s', (c, expected) => {
  expect(evaluate(c, doc)).toBe(expected);
});

test('StringMatches escapes regex characters and handles backslashes', () => {
  expect(stringMatches('a.b', 'a.b')).toBe(true);
  expect(stringMatches('axb', 'a.b')).toBe(false);
  expect(stringMatches('a\\b', 'a\\\\b')).toBe(true);
  expect(stringMatches('', '*')).toBe(true);
  expect(stringMatches('x(y)+z', '*(y)+*')).toBe(true);
});

test.each<Condition>([
  cmp('number', 'eq', '$.missing', 10),
  cmp('string', 'eq', '$.arr[2]', 'x'),
  { kind: 'comparePath', type: 'number', op: 'lt', path: '$.n', otherPath: '$.nope' },
  { kind: 'matches', path: '$.missing', pattern: '*' },
  { kind: 'test', test: 'null', path: '$.missing', expected: false },
  { kind: 'test', test: 'string', path: '$.missing', expected: false },
  { kind: 'not', arg: cmp('number', 'eq', '$.missing', 10) },
])('a missing path is States.Runtime, as in Step Functions: %j', (c) => {
  expect(() => evaluate(c, doc)).toThrow(expect.objectContaining({ name: 'States.Runtime', message: expect.stringMatching(/^Invalid path '\$\.(missing|arr\[2\]|nope)'/) }));
});

test('only a reference path is evaluated (names and indexes)', () => {
  expect(() => evaluate(cmp('number', 'eq', '$.arr[*]', 1), doc)).toThrow(expect.objectContaining({ name: 'States.Runtime', message: expect.stringMatching(/reference path/) }));
});
