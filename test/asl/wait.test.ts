/**
 * ASL Wait: Seconds, Timestamp, SecondsPath and TimestampPath with
 * InputPath/OutputPath import to the same IR as the DSL's Wait; a Wait may
 * start the document.
 */
import { compileWorkflow } from '../../lib/compiler';
import { Definition, Task, Wait, WaitTime } from '../../lib/definition';
import { compileAsl, ENTRY, exportName, machine, task } from './helpers';

const irs = (compiled: ReturnType<typeof compileWorkflow>) => Object.fromEntries(Object.entries(compiled.nodes).map(([n, c]) => [n, c.ir]));

test.each([
  ['Seconds', { Seconds: 30 }, WaitTime.duration(30)],
  ['Seconds 0 (AWS allows it: no wait)', { Seconds: 0 }, WaitTime.duration(0)],
  ['Timestamp', { Timestamp: '2027-01-01T00:00:00Z' }, WaitTime.timestamp('2027-01-01T00:00:00Z')],
  ['SecondsPath', { SecondsPath: '$.s' }, WaitTime.secondsPath('$.s')],
  ['TimestampPath', { TimestampPath: '$.at' }, WaitTime.timestampPath('$.at')],
])('%s imports as the DSL Wait with the same time, InputPath and OutputPath', (_field, time, dsl) => {
  const doc = machine({ A: task({ Next: 'Pause' }), Pause: { Type: 'Wait', ...time, InputPath: '$.in', OutputPath: '$.out', Next: 'B' }, B: task() });
  const fn = (id: string): Task => new Task(id, { entry: ENTRY, handler: exportName('Fn') });
  const expected = compileWorkflow('wf', Definition.from(fn('A').next(new Wait('Pause', { time: dsl, inputPath: '$.in', outputPath: '$.out' })).next(fn('B'))));
  expect(irs(compileAsl(doc))).toEqual(irs(expected));
});

test('a Wait that starts the document, and one that ends it', () => {
  const compiled = compileAsl(machine({ 'Wait first': { Type: 'Wait', Seconds: 5, Next: 'A' }, A: task({ Next: 'Wait last' }), 'Wait last': { Type: 'Wait', SecondsPath: '$.s', End: true } }));
  expect(compiled.entry).toBe('Wait_first.Enter');
  expect(compiled.nodes['Wait_first.Enter']?.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Wait_first', wait: { state: 'Wait first', seconds: 5 } } }]);
  expect(compiled.nodes.A?.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Wait_last', wait: { state: 'Wait last', secondsPath: '$.s' } } }]);
  expect(compiled.nodes.Wait_last?.ir.instructions).toEqual([{ op: 'succeed' }]);
});
