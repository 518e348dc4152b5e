/**
 * Compiling Waits: the node before a Wait invokes the Wait's node with the
 * wait on the edge (IR `ScalarInvoke.wait`); the Wait's node applies its
 * InputPath/OutputPath and goes on; a Wait where no node precedes it (the
 * start, a branch start) gets an implicit `.Enter` node; bad times are
 * definition errors naming the workflow, node and field.
 */
import { compileWorkflow } from '../../lib/compiler';
import { Choice, Condition, Definition, Parallel, Pass, Task, Wait, WaitTime, type IChainable } from '../../lib/definition';
import type { Instruction } from '../../runtime/contract/ir';
import { validateIr } from '../support/ir-schema';

const ENTRY = '/project/h.ts';
const task = (id: string): Task => new Task(id, { entry: ENTRY });
const compile = (c: IChainable) => compileWorkflow('wf', Definition.from(c));
const instructions = (c: IChainable): Record<string, readonly Instruction[]> =>
  Object.fromEntries(Object.entries(compile(c).nodes).map(([name, n]) => [name, n.ir.instructions]));

test('A -> Wait -> B: the edge into the Wait carries it; the Wait node applies its paths; a Pass after it folds into it', () => {
  const compiled = compile(
    task('A')
      .next(new Wait('W', { time: WaitTime.secondsPath('$.s'), inputPath: '$.in', outputPath: '$.out' }))
      .next(new Pass('P', { resultPath: '$.p', result: 1 }))
      .next(task('B')),
  );
  expect(compiled.nodes.A.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'W', wait: { state: 'W', inputPath: '$.in', secondsPath: '$.s' } } }]);
  expect(compiled.nodes.W.ir).toMatchObject({ handler: { kind: 'pass' }, io: { inputPath: '$.in', outputPath: '$.out' } });
  expect(compiled.nodes.W.ir.instructions).toEqual([{ op: 'pass', result: 1, io: { resultPath: '$.p' } }, { op: 'invoke', invoke: { kind: 'scalar', target: 'B' } }]);
  expect(compiled.nodes.A.waitTargets).toEqual(['W']);
  expect(compiled.nodes.W.waitTargets).toEqual([]);
  for (const node of Object.values(compiled.nodes)) expect(validateIr(node.ir)).toEqual({ errors: [], valid: true });
});

test('a Duration (anything with toSeconds) or a number of seconds; a timestamp; a Wait at the end succeeds after it', () => {
  const ins = instructions(task('A').next(new Wait('Day', { time: WaitTime.duration({ toSeconds: () => 86_400 }) })).next(new Wait('Then', { time: WaitTime.timestamp('2027-01-01T00:00:00Z') })));
  expect(ins).toEqual({
    A: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'Day', wait: { state: 'Day', seconds: 86_400 } } }],
    Day: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'Then', wait: { state: 'Then', timestamp: '2027-01-01T00:00:00Z' } } }],
    Then: [{ op: 'succeed' }],
  });
});

test('0 seconds, as in Step Functions, is a Wait whose due time has passed when it starts (a Duration of 0 too); one year is the longest', () => {
  const ins = instructions(task('A').next(new Wait('Now', { time: WaitTime.duration(0) })).next(new Wait('Also', { time: WaitTime.duration({ toSeconds: () => 0 }) })).next(new Wait('Year', { time: WaitTime.duration(31_536_000) })));
  expect(ins.A).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Now', wait: { state: 'Now', seconds: 0 } } }]);
  expect(ins.Now).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Also', wait: { state: 'Also', seconds: 0 } } }]);
  expect(ins.Also).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Year', wait: { state: 'Year', seconds: 31_536_000 } } }]);
});

test('a Wait that starts the workflow or a branch, or follows a Choice', () => {
  const start = compile(new Wait('First', { time: WaitTime.duration(5) }).next(task('A')));
  expect(start.entry).toBe('First.Enter');
  expect(start.nodes['First.Enter'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'First', wait: { state: 'First', seconds: 5 } } }]);
  const branch = instructions(task('A').next(new Parallel('P').branch(new Wait('BW', { time: WaitTime.timestampPath('$.t') }).next(task('X')))));
  expect(branch.A).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['BW.Enter'], join: 'P.Join' } }]);
  expect(branch['BW.Enter']).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'BW', wait: { state: 'BW', timestampPath: '$.t' } } }]);
  const choice = instructions(task('A').next(new Choice('C').when(Condition.isPresent('$.later'), new Wait('Later', { time: WaitTime.duration(60) }).next(task('B'))).otherwise(task('Now'))));
  expect(choice.A).toEqual([
    {
      op: 'choice',
      state: 'C',
      rules: [{ when: expect.anything(), then: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'Later', wait: { state: 'Later', seconds: 60 } } }] }],
      otherwise: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'Now' } }],
    },
  ]);
});

test.each([
  ['less than 0 seconds', WaitTime.duration(-1), 'time.seconds', '-1 is not a whole number of seconds from 0 to 31536000 (one year)'],
  ['more than a year', WaitTime.duration(366 * 86400), 'time.seconds', '31622400 is not a whole number of seconds from 0 to 31536000 (one year)'],
  ['a fraction', WaitTime.duration(1.5), 'time.seconds', '1.5 is not a whole number of seconds from 0 to 31536000 (one year)'],
  ['not a timestamp', WaitTime.timestamp('2027-01-01'), 'time.timestamp', '"2027-01-01" is not an RFC 3339 timestamp (e.g. 2026-01-01T09:00:00Z)'],
  ['a bad path', WaitTime.secondsPath('s'), 'time.secondsPath', expect.stringContaining('s')],
  ['a context path', WaitTime.timestampPath('$$.Execution.StartTime'), 'time.timestampPath', 'a context path cannot give the time: the state before the Wait reads it from the input'],
  ['no time', undefined, 'time', 'a Wait needs exactly one of WaitTime.duration, timestamp, secondsPath or timestampPath (a JSONata Wait: seconds or timestamp)'],
])('%s is a definition error naming the workflow, the Wait and the field', (_what, time, field, detail) => {
  const wait = new Wait('W', { time: time as WaitTime });
  expect(() => compile(task('A').next(wait))).toThrow(expect.objectContaining({ workflow: 'wf', node: 'W', field, detail }));
});
