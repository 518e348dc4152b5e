/**
 * CDK app of the tests of runs waiting on a callback Task
 * (test/client/waiting-callbacks.int.test.ts): an approval with a day to
 * answer, and one with a heartbeat. The handler gives its token to no one:
 * only the client's and the CLI's reports can tell it.
 */
import * as path from 'path';
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { UnumWorkflow } from '../../../../lib/construct';
import { Definition, IntegrationPattern, Task, type TaskProps } from '../../../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');
const ask = (props: Omit<TaskProps, 'entry'>): Task =>
  new Task('Ask', { entry, handler: 'request', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, resultPath: '$.approval', timeout: Duration.days(1), ...props });

const workflows: Record<string, Definition> = {
  Approval: Definition.from(ask({}).next(new Task('Ship', { entry, handler: 'ship' }))),
  Heartbeat: Definition.from(ask({ heartbeat: Duration.hours(1) }).next(new Task('Ship', { entry, handler: 'ship' }))),
};

const app = new App();
const stack = new Stack(app, 'UnumWaiting');
for (const [name, definition] of Object.entries(workflows)) new UnumWorkflow(stack, name, { definition, removalPolicy: RemovalPolicy.DESTROY });
app.synth();
