/**
 * CDK app of the callback tests on the local engine: an approval from the
 * DSL and from ASL (`lambda:invoke.waitForTaskToken`) with a Catch for a
 * rejection, a callback with a short timeout caught, one with a heartbeat,
 * a callback in every item of a Map, and one in a Parallel with a Catch rule.
 */
import * as path from 'path';
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { fromAsl } from '../../../lib/asl';
import { UnumWorkflow } from '../../../lib/construct';
import { Definition, IntegrationPattern, Map, Parallel, Pass, Task, type TaskProps } from '../../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');
const ship = (): Task => new Task('Ship', { entry, handler: 'ship' });
const ask = (props: Omit<TaskProps, 'entry'>): Task =>
  new Task('Ask', { entry, handler: 'request', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, parameters: { 'token.$': '$$.Task.Token', 'order.$': '$.order' }, ...props });

const asl = {
  StartAt: 'Ask',
  States: {
    Ask: {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
      Parameters: { FunctionName: 'request', Payload: { 'token.$': '$$.Task.Token', 'order.$': '$.order' } },
      TimeoutSeconds: 86400,
      ResultPath: '$.approval',
      Catch: [{ ErrorEquals: ['Rejected'], ResultPath: '$.error', Next: 'Rejected' }],
      Next: 'Ship',
    },
    Ship: { Type: 'Task', Resource: 'ship', End: true },
    Rejected: { Type: 'Pass', End: true },
  },
};

const rejected = new Pass('Rejected');
const timedOut = new Pass('TimedOut', { result: { timedOut: true } });
const workflows: Record<string, Definition> = {
  Approval: Definition.from(ask({ resultPath: '$.approval', timeout: Duration.days(1) }).addCatch(rejected, { errors: ['Rejected'], resultPath: '$.error' }).next(ship())),
  AslApproval: fromAsl(asl, { workflowName: 'AslApproval', defaultTask: (t) => ({ entry, handler: t.functionName }) }),
  ShortTimeout: Definition.from(ask({ timeout: Duration.minutes(1) }).addCatch(timedOut, { errors: ['States.Timeout'] }).next(ship())),
  MapApproval: Definition.from(
    new Map('Each', { itemsPath: '$.items' }).itemProcessor(
      new Task('AskItem', { entry, handler: 'requestItem', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, parameters: { 'token.$': '$$.Task.Token', 'id.$': '$.id' }, resultPath: '$.answer', timeout: Duration.days(1) }),
    ),
  ),
  ParallelApproval: Definition.from(
    new Parallel('Both')
      .branch(new Task('AskBranch', { entry, handler: 'request', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, parameters: { 'token.$': '$$.Task.Token' }, timeout: Duration.days(1) }))
      .branch(new Pass('Other'))
      .addCatch(new Pass('BothFailed'), { errors: ['Rejected'], resultPath: '$.error' }),
  ),
  Heartbeat: Definition.from(ask({ resultPath: '$.approval', timeout: Duration.days(1), heartbeat: Duration.minutes(10) }).next(ship())),
};

const app = new App();
const stack = new Stack(app, 'UnumCallbacks');
for (const [name, definition] of Object.entries(workflows)) new UnumWorkflow(stack, name, { definition, removalPolicy: RemovalPolicy.DESTROY });
app.synth();
