/**
 * CDK app of the bounded-Map tests on the local engine: the same Map (Work ->
 * Check per item, Sum at the join) with maxConcurrency 2, without a bound, and
 * imported from ASL with MaxConcurrency 2.
 */
import * as path from 'path';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { fromAsl } from '../../../lib/asl';
import { UnumWorkflow } from '../../../lib/construct';
import { Definition, Map, Task } from '../../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');
const task = (name: string, handler: string): Task => new Task(name, { entry, handler });

const squares = (maxConcurrency: number): Definition =>
  Definition.from(task('Load', 'check').next(new Map('Each', { maxConcurrency }).itemProcessor(task('Work', 'work').next(task('Check', 'check')))).next(task('Sum', 'sum')));

const asl = {
  StartAt: 'Each',
  States: {
    Each: {
      Type: 'Map',
      MaxConcurrency: 2,
      ItemProcessor: { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: 'work', Next: 'Check' }, Check: { Type: 'Task', Resource: 'check', End: true } } },
      Next: 'Sum',
    },
    Sum: { Type: 'Task', Resource: 'sum', End: true },
  },
};

const app = new App();
const stack = new Stack(app, 'UnumBoundedMap');
const workflows = {
  Bounded: squares(2),
  Unbounded: squares(0),
  BoundedAsl: fromAsl(asl, { workflowName: 'BoundedAsl', defaultTask: (t) => ({ entry, handler: t.functionName }) }),
};
for (const [name, definition] of Object.entries(workflows)) new UnumWorkflow(stack, name, { definition, removalPolicy: RemovalPolicy.DESTROY });
app.synth();
