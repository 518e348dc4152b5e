import * as fs from 'fs';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { fromAsl } from '../../lib/asl';
import * as compiler from '../../lib/compiler/compile';
import { UnumWorkflow } from '../../lib/construct';

const HANDLERS = path.join(__dirname, 'fixtures', 'handlers.ts');
const wordcount = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'asl', 'fixtures', 'word-lengths.asl.json'), 'utf8'));

test('UnumWorkflow.fromAsl deploys one function per ASL Task, named by the ASL state', () => {
  const stack = new Stack(new App(), 'AslStack');
  const workflow = UnumWorkflow.fromAsl(stack, 'WordCount', wordcount, { defaultTask: { entry: HANDLERS, handler: 'first' } });
  expect(Object.keys(workflow.functions).filter((n) => !workflow.compiled.nodes[n].implicit).sort()).toEqual(['Bucket', 'Measure', 'Report', 'Tally']);
  Template.fromStack(stack).hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'AslStack-WordCount-Measure' });
});

test('UnumWorkflow.fromAsl reports an invalid document with the construct path, the ASL state and the field', () => {
  const stack = new Stack(new App(), 'AslStack');
  const asl = { StartAt: 'Pause', States: { Pause: { Type: 'Wait', Seconds: 40_000_000, End: true } } };
  expect(() => UnumWorkflow.fromAsl(stack, 'Waits', asl, { defaultTask: { entry: HANDLERS } })).toThrow(
    /^AslStack\/Waits: workflow 'Waits', node 'Pause': invalid ASL definition \(field 'Seconds'\): 40000000 is not a whole number of seconds from 0 to/,
  );
});

test('a definition from fromAsl deploys the same workflow as UnumWorkflow.fromAsl', () => {
  const settings = { defaultTask: { entry: HANDLERS, handler: 'first' } };
  const imported = UnumWorkflow.fromAsl(new Stack(new App(), 'AslStack'), 'WordCount', wordcount, settings);
  const definition = fromAsl(wordcount, { workflowName: 'WordCount', ...settings });
  const built = new UnumWorkflow(new Stack(new App(), 'AslStack'), 'WordCount', { definition });
  expect(built.compiled).toEqual(imported.compiled);
  expect(built.compiled.entry).toBe('MeasureWords.Origin');
  expect(built.compiled.nodes.Report.ir.instructions).toEqual([{ op: 'succeed' }]);
});

test('UnumWorkflow.fromAsl compiles the document once; a node the compiler rejects is named as the document names it', () => {
  const compiles = jest.spyOn(compiler, 'compileWorkflow');
  try {
    UnumWorkflow.fromAsl(new Stack(new App(), 'AslStack'), 'WordCount', wordcount, { defaultTask: { entry: HANDLERS, handler: 'first' } });
    expect(compiles).toHaveBeenCalledTimes(1);
  } finally {
    compiles.mockRestore();
  }
  const asl = { StartAt: 'Say hi', States: { 'Say hi': { Type: 'Task', Resource: 'Greeter', End: true } } };
  expect(() => UnumWorkflow.fromAsl(new Stack(new App(), 'AslStack'), 'Greet', asl, { defaultTask: { entry: HANDLERS, memorySize: 64 } })).toThrow(
    "AslStack/Greet: workflow 'Greet', node 'Say hi': invalid ASL definition (field 'tasks.memorySize'): 64 MB is not an integer in 128-10240 MB",
  );
});
