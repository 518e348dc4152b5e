/**
 * CDK app of the callback retry tests on the local engine: callback Tasks
 * whose Retry rules take sent failures (DSL, with a short and a scheduled
 * interval, and ASL `lambda:invoke.waitForTaskToken`) and `States.Timeout`;
 * and a callback Task beside a branch that fails the run while it waits.
 */
import * as path from 'path';
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { fromAsl } from '../../../lib/asl';
import { UnumWorkflow } from '../../../lib/construct';
import { Definition, IntegrationPattern, Parallel, Pass, Task, type TaskProps } from '../../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');
const ship = (): Task => new Task('Ship', { entry, handler: 'ship' });
const ask = (props: Omit<TaskProps, 'entry'>): Task =>
  new Task('Ask', { entry, handler: 'request', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, parameters: { 'token.$': '$$.Task.Token' }, ...props });

const asl = {
  StartAt: 'Ask',
  States: {
    Ask: {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
      Parameters: { FunctionName: 'request', Payload: { 'token.$': '$$.Task.Token' } },
      TimeoutSeconds: 86400,
      ResultPath: '$.approval',
      Retry: [{ ErrorEquals: ['Busy'], MaxAttempts: 1, IntervalSeconds: 1 }],
      Next: 'Ship',
    },
    Ship: { Type: 'Task', Resource: 'ship', End: true },
  },
};

const workflows: Record<string, Definition> = {
  // Busy: two retries 1 s and 2 s later (slept by the deciding execution); Later: one retry 2 minutes later (a schedule).
  Retry: Definition.from(
    ask({ resultPath: '$.approval', timeout: Duration.days(1) })
      .addRetry({ errors: ['Busy'], maxAttempts: 2, intervalSeconds: 1 })
      .addRetry({ errors: ['Later'], maxAttempts: 1, intervalSeconds: 120 })
      .addCatch(new Pass('Caught'), { errors: ['States.ALL'], resultPath: '$.error' })
      .next(ship()),
  ),
  AslRetry: fromAsl(asl, { workflowName: 'AslRetry', defaultTask: (t) => ({ entry, handler: t.functionName }) }),
  TimeoutRetry: Definition.from(
    ask({ timeout: Duration.minutes(1) })
      .addRetry({ errors: ['States.Timeout'], maxAttempts: 1, intervalSeconds: 1 })
      .addCatch(new Pass('TimedOut', { result: { timedOut: true } }), { errors: ['States.Timeout'] })
      .next(ship()),
  ),
  FailWhileWaiting: Definition.from(
    new Parallel('Both')
      .branch(ask({ parameters: { 'token.$': '$$.Task.Token', 'order.$': '$.order' }, timeout: Duration.days(1) }))
      .branch(new Task('Boom', { entry, handler: 'boom' })),
  ),
};

const app = new App();
const stack = new Stack(app, 'UnumCallbackRetries');
for (const [name, definition] of Object.entries(workflows)) new UnumWorkflow(stack, name, { definition, removalPolicy: RemovalPolicy.DESTROY });
app.synth();
