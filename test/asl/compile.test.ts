/**
 * The importer compiles a document once: `fromAsl` to report every problem
 * in ASL terms, `compileAsl` to return the compiled workflow itself.
 */
import * as compiler from '../../lib/compiler/compile';
import { AslDefinitionError, compileAsl, fromAsl } from '../../lib/asl';
import { DEFAULT_TASK, ENTRY, machine, task } from './helpers';

const doc = machine({ 'Say hi': task({ Next: 'Say bye' }), 'Say bye': task() });

let compiles: jest.SpyInstance;
beforeEach(() => {
  compiles = jest.spyOn(compiler, 'compileWorkflow');
});
afterEach(() => compiles.mockRestore());

test('fromAsl and compileAsl compile the document once each', () => {
  fromAsl(doc, { workflowName: 'wf', defaultTask: DEFAULT_TASK });
  expect(compiles).toHaveBeenCalledTimes(1);
  const compiled = compileAsl(doc, { workflowName: 'wf', defaultTask: DEFAULT_TASK }, { inlineLimitBytes: 1000, retryAttempts: 1 });
  expect(compiles).toHaveBeenCalledTimes(2);
  expect(Object.keys(compiled.nodes)).toEqual(['Say_hi', 'Say_bye']);
  expect(compiled.nodes.Say_hi.ir.settings.inlineLimitBytes).toBe(1000);
  expect(compiled.nodes.Say_bye.async.retryAttempts).toBe(1);
});

test('compileAsl reports what the compiler rejects in ASL terms: the state name and the ASL field', () => {
  const compile = (): unknown => compileAsl(doc, { workflowName: 'wf', defaultTask: { entry: ENTRY, memorySize: 64 } });
  expect(compile).toThrow(AslDefinitionError);
  expect(compile).toThrow("Workflow 'wf', node 'Say hi', field 'tasks.memorySize': 64 MB is not an integer in 128-10240 MB");
});

test('the top-level TimeoutSeconds is the run timeout of every node; the compile options override it', () => {
  const timed = { ...doc, TimeoutSeconds: 600 };
  const compiled = compileAsl(timed, { workflowName: 'wf', defaultTask: DEFAULT_TASK });
  expect(Object.values(compiled.nodes).map((n) => n.ir.settings.runTimeoutSeconds)).toEqual([600, 600]);
  expect(compileAsl(timed, { workflowName: 'wf', defaultTask: DEFAULT_TASK }, { runTimeoutSeconds: 60 }).nodes.Say_hi.ir.settings.runTimeoutSeconds).toBe(60);
  expect(compileAsl(doc, { workflowName: 'wf', defaultTask: DEFAULT_TASK }).nodes.Say_hi.ir.settings.runTimeoutSeconds).toBeUndefined();
});
