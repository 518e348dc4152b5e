/**
 * CDK app of the run-control tests on the local engine: runs to stop while
 * they wait (a 1-day Wait, an approval callback), and runs that outlive their
 * timeout (the construct's `timeout`, ASL top-level TimeoutSeconds).
 */
import * as path from 'path';
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { fromAsl } from '../../../lib/asl';
import { UnumWorkflow } from '../../../lib/construct';
import { Definition, IntegrationPattern, Task, Wait, WaitTime } from '../../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');
const task = (name: string, handler: string): Task => new Task(name, { entry, handler });
const dayWait = (): Definition => Definition.from(task('Prepare', 'prepare').next(new Wait('OneDay', { time: WaitTime.duration(Duration.days(1)) })).next(task('Ship', 'ship')));

const asl = {
  TimeoutSeconds: 600,
  StartAt: 'Prepare',
  States: {
    Prepare: { Type: 'Task', Resource: 'prepare', Next: 'An hour' },
    'An hour': { Type: 'Wait', Seconds: 3600, Next: 'Ship' },
    Ship: { Type: 'Task', Resource: 'ship', End: true },
  },
};

const app = new App();
const stack = new Stack(app, 'UnumRunControl');
const common = { removalPolicy: RemovalPolicy.DESTROY };
new UnumWorkflow(stack, 'Waiting', { ...common, definition: dayWait() });
new UnumWorkflow(stack, 'Approval', {
  ...common,
  definition: Definition.from(
    new Task('Ask', { entry, handler: 'request', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, parameters: { 'token.$': '$$.Task.Token' }, timeout: Duration.days(1) }).next(task('Ship', 'ship')),
  ),
});
new UnumWorkflow(stack, 'Deadline', { ...common, definition: dayWait(), timeout: Duration.hours(1) });
new UnumWorkflow(stack, 'AslDeadline', { ...common, definition: fromAsl(asl, { workflowName: 'AslDeadline', defaultTask: (t) => ({ entry, handler: t.functionName }) }) });
app.synth();
