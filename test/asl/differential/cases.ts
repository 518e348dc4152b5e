/**
 * The inputs each corpus document runs on, and the reviewed expectations
 * where unum and the peer interpreter disagree (`pin`).
 */
import type { Json } from '../../../runtime/contract/ir';
import { failed, succeeded, type Outcome } from './outcome';

/**
 * Why the two interpreters disagree on a case: the peer is wrong by the ASL
 * specification; unum differs on purpose (README "Differences from Step
 * Functions" says so); or unum has a known gap that other work closes.
 */
export type PinKind = 'peer wrong' | 'unum deliberate' | 'unum gap';

export interface Pin {
  readonly kind: PinKind;
  /** One line: what the specification says, or which README section or open work covers it. */
  readonly reason: string;
  /** unum's outcome, compared as `comparable` outcomes are. */
  readonly expected: Outcome;
}

export interface Case {
  readonly input: Json;
  readonly pin?: Pin;
}

const runs = (...inputs: Json[]): Case[] => inputs.map((input) => ({ input }));
const pinned = (input: Json, pin: Pin): Case => ({ input, pin });

const peerWrong = (reason: string, expected: Outcome): Pin => ({ kind: 'peer wrong', reason, expected });
const deliberate = (reason: string, expected: Outcome): Pin => ({ kind: 'unum deliberate', reason: `README "Differences from Step Functions": ${reason}`, expected });

/** A handler's error as a run's error: its name, and Lambda's error document (without the trace) as the cause. */
const handlerError = (errorType: string, errorMessage: string): Outcome => failed(errorType, JSON.stringify({ errorType, errorMessage }));

const LAMBDA_RETRIES = 'an error no Retry or Catch handles is retried by Lambda (retryAttempts 2), each time with the Retry rules afresh';
/** A comparison with a value of another type is false (runtime/language/condition.ts); Step Functions does not fail the Choice for it. */
const TYPE_MISMATCH_PATH = 'a String/Boolean/Timestamp...Path operand of another type makes the comparison false; the peer fails the run with States.Runtime';
const COERCION = 'a value of another type makes the comparison false; the peer coerces it as JavaScript does';

const LIMITS = { high: 'x', mid: 'n' };
const RANGE = { from: '2023-01-01T00:00:00Z', to: '2025-01-01T00:00:00Z' };

/** Document name -> its cases. */
export const CASES: Readonly<Record<string, readonly Case[]>> = {
  'task-bare': runs(21, -1.5),
  'task-arn': runs(3),
  'task-placeholder': runs({ x: 1, y: 2 }),
  'task-lambda-invoke': runs({ n: 4 }),
  'task-io-paths': runs({ order: { id: 1, items: ['a'] }, other: true }),
  'task-parameters': runs({ a: 'A', b: [1, 2], 'key with space': 'spaced' }),
  'task-result-selector': runs({ z: 1, a: 2 }, [1, 2]),
  'task-result-path': runs({ n: 4 }),
  'task-result-path-root': [pinned({ n: 5 }, peerWrong('ResultPath "$" replaces the input with the result; the peer adds a key named "$"', succeeded(10)))],
  'task-result-path-failure': [
    ...runs({}, { target: {} }),
    pinned({ target: 'text' }, peerWrong('a ResultPath through a non-object is States.ResultPathMatchFailure (ASL); the peer overwrites the string', failed('States.ResultPathMatchFailure'))),
  ],
  'task-io-order': runs({ payload: { numbers: [1, 2], name: 'p' }, other: 1 }),
  'task-retry': [
    ...runs({ key: 'retry-succeeds', failures: 2 }),
    // 3 Lambda invocations of 3 attempts each.
    pinned({ key: 'retry-exhausted', failures: 99 }, deliberate(LAMBDA_RETRIES, handlerError('Flaky', 'attempt 9 of retry-exhausted fails'))),
    pinned({ key: 'retry-other-error', failures: 1, error: 'Other' }, deliberate(LAMBDA_RETRIES, succeeded({ key: 'retry-other-error', attempts: 2 }))),
  ],
  'task-retry-rules': [
    pinned({ key: 'rules-fatal', failures: 1, error: 'Fatal' }, deliberate(LAMBDA_RETRIES, succeeded({ key: 'rules-fatal', attempts: 2 }))),
    ...runs({ key: 'rules-flaky', failures: 1 }),
    pinned({ key: 'rules-flaky-twice', failures: 2 }, deliberate(LAMBDA_RETRIES, succeeded({ key: 'rules-flaky-twice', attempts: 3 }))),
    ...runs({ key: 'rules-task-failed', failures: 2, error: 'Another' }),
  ],
  'task-catch': runs({ error: 'Known', message: 'first' }, { error: 'Unknown', message: 'second' }),
  'task-catch-result-path': runs({ error: 'Ignored' }, { error: 'Other', message: 'named' }),
  'task-timeout': runs({ ms: 3000 }, { ms: 10 }),
  'task-error-uncaught': runs({ error: 'Custom', message: 'not caught' }),
  'pass-result': runs({ orig: 1 }),
  'pass-falsy': [pinned({ keep: 1 }, peerWrong('a Result of null, 0, false or "" is the result like any other; the peer ignores it', succeeded({ keep: 1, null: null, zero: 0, false: false, empty: '' })))],
  'pass-null-result': [pinned({ dropped: true }, peerWrong('Result null replaces the input; the peer ignores it', succeeded(null)))],
  'pass-paths': runs({ a: { b: 1, c: 2 } }),
  'wait-states': runs({ delay: 2, at: '2021-06-01T12:00:00Z', inner: { keep: { x: 1 }, drop: 2 } }),
  'wait-zero-seconds': runs({ zero: 0, keep: { x: 1 } }),
  'run-timeout': runs(21),
  'pass-parameters': runs({ user: { name: 'Ann', tags: ['x'] } }),
  'choice-string': runs({ s: 'b' }, { s: 'a' }, { s: 'e' }, { s: 'c' }, { s: 'bb' }, { s: 'cc' }, { s: 'B' }, { s: '' }, { s: 5 }),
  'choice-string-path': [
    ...runs(...['m', 'a', 'y', 'n', 'o'].map((v) => ({ s: v, t: 'm', limits: LIMITS }))),
    // 'm' vs 1: rules 1 and 2 are false, 'm' < 'x', 'm' <= 'n'.
    pinned({ s: 'm', t: 1, limits: LIMITS }, peerWrong(TYPE_MISMATCH_PATH, succeeded('Le'))),
  ],
  'choice-numeric': [...runs({ n: 10 }, { n: -1 }, { n: 101 }, { n: 5.5 }, { n: 50 }, { n: 7 }, { n: 1e2 }, { n: '10' }), pinned({ n: true }, peerWrong(COERCION, succeeded('None')))],
  // No Numeric...Path operand of another type: Step Functions is reported to read it as 0, which unum does not.
  'choice-numeric-path': runs(...[3, -1, 10, 2, 4].map((n) => ({ n, m: 3, low: 0, high: 9 }))),
  'choice-boolean': [
    ...runs({ flag: true }, { flag: false, expected: false }, { flag: false, expected: true }, { flag: 1, expected: true }),
    pinned({ flag: 'true', expected: 'true' }, peerWrong(TYPE_MISMATCH_PATH, succeeded('None'))),
  ],
  'choice-timestamp': [
    ...runs(
      { t: '2024-01-01T00:00:00Z' },
      { t: '2024-01-01T01:00:00+01:00' },
      { t: '2019-12-31T23:59:59.999Z' },
      { t: '2031-01-01T00:00:00Z' },
      { t: '2022-06-30T12:00:00Z' },
      { t: '2025-06-01T00:00:00Z' },
      { t: '2023-01-01T00:00:00Z' },
      { t: 'yesterday' },
    ),
    pinned({ t: 20240101 }, peerWrong(COERCION, succeeded('None'))),
  ],
  'choice-timestamp-path': [
    ...runs(
      ...[
        ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z'],
        ['2022-01-01T00:00:00Z', '2024-01-01T00:00:00Z'],
        ['2026-01-01T00:00:00Z', '2024-01-01T00:00:00Z'],
        ['2023-06-01T00:00:00Z', '2024-01-01T00:00:00Z'],
        ['2024-06-01T00:00:00Z', '2024-01-01T00:00:00Z'],
      ].map(([t, ref]) => ({ t, ref, range: RANGE })),
    ),
    pinned({ t: '2024-06-01T00:00:00Z', ref: 'not a time', range: RANGE }, peerWrong(TYPE_MISMATCH_PATH, succeeded('None'))),
  ],
  'choice-string-matches': [
    ...runs({ file: 'log-2024.txt' }, { file: 'log-.txt' }, { file: 'a*star' }, { file: 'astar' }, { file: 'back\\slash' }, { file: 'backslash' }, { file: '' }),
    pinned({ file: 7 }, peerWrong('StringMatches on a non-string is false; the peer fails with a TypeError', succeeded('None'))),
  ],
  'choice-type-tests': [
    pinned({}, peerWrong('IsPresent tests for a missing path (it is the one test that does not fail on it); the peer fails the run', succeeded('Absent'))),
    ...runs({ v: null }, { v: 1.5 }, { v: '2024-01-01T00:00:00Z' }, { v: 'x' }, { v: true }, { v: '1' }),
    pinned({ v: [1] }, peerWrong('IsNull/IsNumeric/IsString/IsBoolean/IsTimestamp false hold for an array; the peer makes them false', succeeded('Structure'))),
    pinned({ v: { a: 1 } }, peerWrong('IsNull/IsNumeric/IsString/IsBoolean/IsTimestamp false hold for an object; the peer makes them false', succeeded('Structure'))),
  ],
  'choice-logic': runs({ n: 5, tag: 'x' }, { n: 500, tag: 'y' }, { n: 5, tag: 'y' }, { n: -5, tag: 'y' }, { n: -5, tag: 'x' }),
  'choice-no-default': runs('yes', 'no'),
  'choice-input-path': runs({ inner: { n: 11 } }, { inner: { n: 1 } }),
  'choice-missing-path': runs({ a: 1 }, { a: 0, b: 2 }, { b: 2 }),
  'choice-loop': runs(3, 100),
  'parallel-basic': runs(5),
  'parallel-io': runs({ in: { value: 7 } }),
  'parallel-result-path': runs({ n: 3 }),
  'parallel-nested': runs({ n: 2, word: 'hey', list: [1, 2, 3] }),
  'parallel-branch-fails': runs({ n: 4 }, { n: -4 }),
  'parallel-choice-branch': runs(6, -6),
  'parallel-retry-catch': runs({ key: 'parallel-retried', failures: 1 }, { key: 'parallel-caught', failures: 5 }),
  'map-iterator': runs([1, 2, 3], []),
  'map-item-processor': runs({ items: ['a', { b: 1 }, null], label: 'L' }),
  'map-parameters': runs({ words: ['x', 'y'] }),
  'map-max-concurrency': runs([1, 2, 3, 4]),
  'map-io': runs({ data: { list: [1, 2, 3], keep: true } }),
  'map-result-path': runs({ items: [1, 'a'] }),
  'map-nested': [
    ...runs([[1, 2], [3]]),
    pinned([[1], []], peerWrong('a wildcard path selects the array of its matches, [] for none (Jayway, as Step Functions); the peer fails the run', succeeded([{ cells: [1], indexes: [0] }, { cells: [], indexes: [] }]))),
  ],
  'map-item-fails': runs([1, 2], [1, -2, 3]),
  'map-retry-catch': runs({ batch: { items: [1, 2] }, tag: 't' }, { batch: { items: [1, -2, -3] }, tag: 'u' }),
  'map-result-selector-null-path': runs({ items: [3, 4] }),
  'map-choice-inside': [
    ...runs({ values: [2, 'hi', true] }),
    pinned({ values: [null, 3] }, peerWrong('an item null is a value at $ (IsNumeric/IsString false); the peer finds no value there', succeeded({ results: ['other', 9] }))),
  ],
  'succeed-paths': runs({ plain: 1 }, { a: { b: [1, 2] } }),
  'fail-states': [
    ...runs('both', 'fine'),
    pinned('error', peerWrong('a Fail state without Cause has none; the peer supplies a text of its own', failed('OnlyError', ''))),
    pinned('cause', deliberate('a Fail state without Error records the ASL state name as the error', failed('Cause only', 'no error name'))),
  ],
  'fail-paths': [
    ...runs({ approved: true }, { approved: false, code: 42, reason: 'r' }),
    pinned({ approved: false, code: 'Card.Declined', reason: 'expired' }, peerWrong('CausePath may be an intrinsic function call (Step Functions); the peer fails the run', failed('Card.Declined', 'declined: expired'))),
    pinned({ approved: false, reason: 'none given' }, peerWrong("$$.State.Name is the state's name in the context object; the peer's context has no State", failed('No decision', 'none given'))),
  ],
  'fail-in-branch': runs(5, 500),
  intrinsics: runs({ name: 'Ann', age: 30, member: true, nickname: null, tags: ['t1'], base: { a: 1, b: { c: 2 } }, override: { b: 3 }, json: '{"k":[1,"v"]}' }),
  'intrinsic-escapes': [
    pinned(
      { x: 'X' },
      peerWrong("\\' \\{ \\} \\\\ in an intrinsic string are the characters ' { } \\; the peer keeps the backslash in States.Array and drops \\\\", succeeded({ quote: "it's X", braces: '{literal} and X', backslash: 'a\\b X', array: ['{}', "'"] })),
    ),
  ],
  'intrinsic-json-merge': [
    pinned(
      { base: { a: 1, b: { c: 2 } }, override: { b: 3 } },
      peerWrong('States.JsonMerge returns a new object; the peer merges into its first argument, changing $.base', succeeded({ merged: { a: 1, b: 3 }, base: { a: 1, b: { c: 2 } } })),
    ),
  ],
  'intrinsic-failure': [
    ...runs({ text: '[1,2]' }),
    pinned({ text: 'not json' }, peerWrong('an intrinsic that fails is States.IntrinsicFailure; the peer fails with the SyntaxError of JSON.parse', failed('States.IntrinsicFailure'))),
  ],
  'jsonpath-forms': runs({ items: [{ n: 1 }, { n: 2 }, { n: 3 }], obj: { a: 1, b: 'two' }, 'key with space': 'k' }, { items: [{ n: 1 }, { n: 2 }], obj: { a: null }, 'key with space': null }),
  'jsonpath-negative-index': [
    pinned({ items: [{ n: 1 }, { n: 2 }, { n: 3 }] }, peerWrong('a negative index counts from the end (Jayway, as Step Functions); the peer finds nothing', succeeded({ last: { n: 3 }, secondLast: 2 }))),
  ],
  'jsonpath-filters': runs({
    items: [
      { n: 1, tag: 'x', flag: true },
      { n: 2, tag: 'y' },
      { n: 3, tag: 'x', flag: false },
    ],
  }),
  'jsonpath-filter-exists': [
    pinned({ items: [{ n: 1, tag: 'x' }, { n: 2 }, { n: 3, tag: null }] }, peerWrong('[?(@.tag)] keeps the items that have tag (Jayway, as Step Functions), null included; the peer tests truthiness', succeeded({ hasTag: [1, 3], nullTag: [3] }))),
  ],
  'jsonpath-recursive': runs({ id: 1, tree: { name: 'root', id: 2, children: [{ name: 'a', id: 3, children: [{ name: 'a1' }] }, { name: 'b', children: [] }] } }),
  'jsonpath-in-paths': [pinned({ items: [{ n: 1 }, { n: 2 }, { n: 3 }] }, peerWrong('$..sum selects an array, [5], even for one match (Jayway, as Step Functions); the peer unwraps it', succeeded([5])))],
  'context-paths': [pinned({ any: 'thing' }, peerWrong("$$.State.Name is the state's name in the context object; the peer's context has no State", succeeded({ state: 'State_name', formatted: 'State_name in context-paths-1' })))],
  'context-state-name': [pinned({}, peerWrong("$$.State.Name is the state's name as the document spells it, spaces included; the peer's context has no State", succeeded({ state: 'Read the state name' })))],
  'top-level': runs('hey'),
  'intrinsic-arrays': [
    ...runs({
      inputArray: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      chunk: 3,
      lookingFor: 5,
      objects: [{ a: 1, b: [1, 2] }, 'x', { b: [1, 2], a: 1 }, null],
      wanted: { b: [1, 2], a: 1 },
      from: 10,
      to: 0,
      step: -3,
      index: 5,
      duplicates: [1, 2, 3, 3, 3, 3, 3, 3, 4],
    }),
    pinned(
      { inputArray: [1], chunk: 1, lookingFor: 1, objects: [], wanted: null, from: 0, to: 5000, step: 1, index: 0, duplicates: [] },
      peerWrong('an intrinsic that fails (States.ArrayRange over 1000 elements) is States.IntrinsicFailure; the peer fails with States.Runtime', failed('States.IntrinsicFailure')),
    ),
  ],
  'intrinsic-encoding': runs({ input: 'Data to encode', Data: 'input data', Algorithm: 'SHA-1' }, { input: 'a', Data: '', Algorithm: 'MD5' }),
  'intrinsic-math-strings': [
    ...runs({ value1: 111, step: -1, inputString: '1,2,3,4,5', splitter: ',', version: '1.2.3' }),
    pinned(
      { value1: 1.2, step: -2.7, inputString: 'a b', splitter: ' ', version: '10.20.30' },
      peerWrong('States.MathAdd rounds a non-integer argument to the nearest integer (Step Functions documentation); the peer adds the fractions', succeeded({ value1: -2, literal: 2, array: ['a', 'b'], count: 2, dotted: '10.20' })),
    ),
    pinned(
      { value1: 0, step: 0, inputString: 'This.is+a,test=string', splitter: '.+,=', version: '1.0' },
      peerWrong("States.StringSplit splits at each character of the delimiter string (the documentation's example); the peer splits at the whole string", succeeded({ value1: 0, literal: 2, array: ['This', 'is', 'a', 'test', 'string'], count: 5, dotted: '1.0' })),
    ),
  ],
  // The document checks the values' shape and range: the two interpreters draw different values.
  'intrinsic-random': runs({ start: 1, end: 999, seed: 7 }, { start: -5, end: -4, seed: 0 }),
};
