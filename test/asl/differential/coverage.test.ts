/**
 * The differential corpus covers everything the README says the ASL importer
 * supports: every field of the "Supported states and fields" table, every
 * intrinsic function and context path of the payload templates, and every
 * JSONPath form, so coverage cannot drop silently when either changes.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Json } from '../../../runtime/contract/ir';
import { parsePath, type Step } from '../../../runtime/language/paths';
import { documentFiles, DOCUMENTS } from './corpus';
import { corpusPaths, corpusStrings, covers, readmeRequirements, rowRequirements, templateNames, TOP_LEVEL } from './coverage';

/**
 * Supported fields that aws-local-stepfunctions does not implement, so the
 * differential corpus cannot hold them, and where they are tested instead.
 */
const NOT_IN_PEER: Readonly<Record<string, string>> = {
  'Task: HeartbeatSeconds': 'task tokens (callback Tasks): test/local/callbacks.int.test.ts, test/asl/task.test.ts',
  ...Object.fromEntries(
    ['(top level): QueryLanguage = JSONata', 'Task: Arguments', 'Task: Output', 'Task: Output.{% %}', 'Task: Output.$states.input', 'Task: Output.$states.result', 'Task: Output.$states.context', 'Pass: Output'].map((field) => [
      field,
      'JSONata mode: test/asl/jsonata.test.ts (import), test/runtime/jsonata.test.ts (against the jsonata package), test/asl/e2e.int.test.ts (jsonata-orders, on the local engine)',
    ]),
  ),
  ...Object.fromEntries(
    ['Choice: Choices.Condition', 'Wait: Output', 'Succeed: Output', 'Parallel: Arguments', 'Parallel: Output', 'Map: Items', 'Map: Output'].map((field) => [
      field,
      'JSONata mode: test/asl/jsonata-states.test.ts (import, and Choice decisions against the jsonata package), test/asl/e2e.int.test.ts (jsonata-routes and jsonata-fan-out, on the local engine)',
    ]),
  ),
};

// The supported states and fields are documented in docs/migrating-from-step-functions.md.
const README = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'migrating-from-step-functions.md'), 'utf8');
const docs = documentFiles().map((f) => JSON.parse(fs.readFileSync(path.join(DOCUMENTS, f), 'utf8')) as { [k: string]: Json });

describe('reading the README table', () => {
  test('fields in parentheses belong to the field before them; values follow a field; families expand to the ASL operators', () => {
    expect(rowRequirements('Task', '`Catch` (`ErrorEquals`, `Next`), `Retry` (all fields, `JitterStrategy` FULL/NONE), `Next`/`End`')).toEqual([
      { state: 'Task', field: 'Catch' },
      { state: 'Task', parent: 'Catch', field: 'ErrorEquals' },
      { state: 'Task', parent: 'Catch', field: 'Next' },
      { state: 'Task', field: 'Retry' },
      { state: 'Task', parent: 'Retry', field: 'JitterStrategy', values: ['FULL', 'NONE'] },
      { state: 'Task', field: 'Next' },
      { state: 'Task', field: 'End' },
      ...['ErrorEquals', 'IntervalSeconds', 'MaxAttempts', 'BackoffRate', 'MaxDelaySeconds', 'JitterStrategy'].map((field) => ({ state: 'Task', parent: 'Retry', field })),
    ]);
    expect(rowRequirements('Choice', '`Boolean*`, `Numeric*` (`Equals`, `LessThan`, each also as `...Path`), `IsNull`').map((r) => r.field).sort()).toEqual(
      ['BooleanEquals', 'BooleanEqualsPath', 'IsNull', 'NumericEquals', 'NumericEqualsPath', 'NumericLessThan', 'NumericLessThanPath'].sort(),
    );
    expect(rowRequirements(TOP_LEVEL, '`StartAt`, `QueryLanguage: JSONPath`')).toEqual([
      { state: TOP_LEVEL, field: 'StartAt' },
      { state: TOP_LEVEL, field: 'QueryLanguage', values: ['JSONPath'] },
    ]);
  });

  test('a requirement is covered only by a state of its type that uses it', () => {
    const doc = { StartAt: 'T', States: { T: { Type: 'Task', Resource: 'f', Retry: [{ ErrorEquals: ['States.ALL'], JitterStrategy: 'FULL' }], End: true } } };
    expect(covers([doc], { state: 'Task', parent: 'Retry', field: 'ErrorEquals' })).toBe(true);
    expect(covers([doc], { state: 'Task', parent: 'Catch', field: 'ErrorEquals' })).toBe(false);
    expect(covers([doc], { state: 'Task', parent: 'Retry', field: 'JitterStrategy', values: ['FULL', 'NONE'] })).toBe(false);
    expect(covers([doc], { state: 'Pass', field: 'Resource' })).toBe(false);
  });
});

describe('the corpus covers the README', () => {
  const required = readmeRequirements(README);

  test('the table has a row for every supported state type and the top level', () => {
    expect(new Set(required.map((r) => r.state))).toEqual(new Set(['Task', 'Pass', 'Choice', 'Parallel', 'Map', 'Succeed', 'Fail', 'Wait', TOP_LEVEL]));
    expect(required.length).toBeGreaterThan(80);
  });

  test('every supported field of the table, but those the peer interpreter cannot run (tested elsewhere, named here)', () => {
    const missing = required.filter((r) => !covers(docs, r)).map((r) => `${r.state}: ${r.parent ? `${r.parent}.` : ''}${r.field}${r.values ? ` = ${r.values.join(', ')}` : ''}`);
    expect(missing).toEqual(Object.keys(NOT_IN_PEER));
  });

  test('every intrinsic function and context path of the payload templates', () => {
    const names = templateNames(README);
    expect(names).toEqual(expect.arrayContaining(['States.Format', 'States.JsonMerge', '$$.Execution.Id', '$$.Map.Item.Index']));
    const strings = corpusStrings(docs);
    expect(names.filter((name) => !strings.some((s) => s.includes(name)))).toEqual([]);
  });

  test('every JSONPath form in payload templates, and paths selecting several values in InputPath / OutputPath', () => {
    const { template, io } = corpusPaths(docs);
    const kinds = (paths: string[]): Set<string> => {
      const out = new Set<string>();
      const add = (s: Step): void => {
        if ('scan' in s) {
          out.add('recursive descent');
          add(s.scan);
        } else if ('index' in s) out.add(s.index < 0 ? 'negative index' : 'index');
        else if ('filter' in s) out.add('exists' in s.filter ? 'existence filter' : `filter ${'op' in s.filter ? s.filter.op : ''}`);
        else out.add('name' in s ? 'name' : 'wild' in s ? 'wildcard' : 'slice');
      };
      for (const p of paths) parsePath(p).steps.forEach(add);
      return out;
    };
    // The filter operators asl-validator admits (README, "Differences from Step Functions").
    expect([...kinds(template)].sort()).toEqual(
      ['existence filter', 'filter <', 'filter <=', 'filter ==', 'filter >', 'index', 'name', 'negative index', 'recursive descent', 'slice', 'wildcard'].sort(),
    );
    expect(io.some((p) => !parsePath(p).definite)).toBe(true);
  });
});
