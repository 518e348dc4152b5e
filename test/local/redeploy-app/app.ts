/**
 * CDK app of the redeploy tests on the local engine, in two versions picked
 * by CDK context (`-c unumVersion=2`; default 1):
 * - Pinned: a callback Task, then a Parallel, then a Pass. Version 2 adds a
 *   Parallel branch, renames the Pass and changes Compute's handler (its result).
 * - Versioned: A then B, each adding its version to `steps`.
 * - Fixable: A then B; B throws in version 1 and is fixed in version 2, with the same graph.
 */
import * as path from 'path';
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { UnumWorkflow } from '../../../lib/construct';
import { Definition, IntegrationPattern, Parallel, Pass, Task } from '../../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');
const app = new App();
const version = app.node.tryGetContext('unumVersion') === '2' ? 2 : 1;
const task = (name: string, handler: string): Task => new Task(name, { entry, handler });

const ask = new Task('Ask', {
  entry,
  handler: 'request',
  integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN,
  parameters: { 'token.$': '$$.Task.Token' },
  resultPath: '$.approval',
  timeout: Duration.days(1),
});
const both = new Parallel('Both').branch(task('Compute', version === 1 ? 'computeV1' : 'computeV2'));
if (version === 2) both.branch(task('Extra', 'extra'));

const workflows: Record<string, Definition> = {
  Pinned: Definition.from(ask.next(both).next(new Pass(version === 1 ? 'Done' : 'Finished'))),
  Versioned: Definition.from(task('A', `stepV${version}`).next(task('B', `stepV${version}`))),
  Fixable: Definition.from(task('A', `stepV${version}`).next(task('B', version === 1 ? 'brokenV1' : 'fixedV2'))),
};

const stack = new Stack(app, 'UnumRedeploy');
for (const [name, definition] of Object.entries(workflows)) new UnumWorkflow(stack, name, { definition, removalPolicy: RemovalPolicy.DESTROY });
app.synth();
