/**
 * CDK app of the redeploy fault campaign (issue 34): four shapes of the same
 * four workflows, picked by CDK context (`-c unumShape=N`, N = 1..4; default
 * 1), which the campaign deploys over each other while runs are in flight
 * (lib/testing/redeploy.ts). Between the shapes:
 * - Approval: a callback Task, a Parallel, a Pass. Shape 2 adds a branch and
 *   renames the Pass, shape 3 changes Compute's result, shape 4 removes the
 *   callback Task (a run waiting on it is answered on its own deployment).
 * - Paused: a Wait (20 minutes, scaled by the engine) before a Parallel;
 *   shapes 2 and 3 add a branch (3 is 2 again: the same deployment), shape 4
 *   renames the Wait and keeps only Times1 and Times3.
 * - Batch: a Map. Shape 2 changes its item handler's result, shape 3 puts a
 *   Wait before each item and renames the node after the Map (its result
 *   too), shape 4 is shape 1 again (a revert: the same deployment as 1).
 * - Chain: A -> B -> C; shape 2 renames B, shape 3 removes C, shape 4 is shape 1 again.
 * Its stack and workflow names are its own: no function name is another fault app's.
 */
import * as path from 'path';
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { UnumWorkflow } from '../../../lib/construct';
import { Definition, IntegrationPattern, Map, Parallel, Pass, Task, Wait, WaitTime } from '../../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');
const app = new App();
/** The shapes there are (targets.ts `REDEPLOY_SHAPES`). */
const SHAPES = [1, 2, 3, 4];
const shape = Number(app.node.tryGetContext('unumShape') ?? 1);
if (!SHAPES.includes(shape)) throw new Error(`unumShape must be one of ${SHAPES.join(', ')}, got ${String(app.node.tryGetContext('unumShape'))}`);
const task = (id: string, handler: string): Task => new Task(id, { entry, handler });

function approval(): Definition {
  const both = new Parallel('Both').branch(task('Compute', shape >= 3 ? 'computeV3' : 'computeV1'));
  if (shape >= 2) both.branch(task('Extra', 'extra'));
  const after = both.next(new Pass(shape === 1 ? 'Done' : 'Finished'));
  if (shape === 4) return Definition.from(after);
  // Answered within a second or so; a day (43 s on the campaign's time scale) is far beyond that.
  const ask = new Task('Ask', { entry, handler: 'ask', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, timeout: Duration.days(1), resultPath: '$.approval' });
  return Definition.from(ask.next(after));
}

function paused(): Definition {
  const fan = new Parallel('Fan').branch(task('Times1', 'times1'));
  if (shape !== 4) fan.branch(task('Times2', 'times2'));
  if (shape !== 1) fan.branch(task('Times3', 'times3'));
  const wait = new Wait(shape === 4 ? 'Hold' : 'Pause', { time: WaitTime.duration(20 * 60) });
  return Definition.from(task('Start', 'start').next(wait).next(fan).next(task('Sum', 'sum')));
}

function batch(): Definition {
  const handler = shape === 2 || shape === 3 ? 'incTwice' : 'inc';
  const item = shape === 3 ? new Wait('ItemPause', { time: WaitTime.duration(60) }).next(task('Inc', handler)) : task('Inc', handler);
  const each = new Map('Each', { itemsPath: '$.items' }).itemProcessor(item);
  return Definition.from(task('Items', 'items').next(each).next((shape === 3 ? task('GrandTotal', 'grandTotal') : task('Total', 'total'))));
}

function chain(): Definition {
  const b = task(shape === 2 || shape === 3 ? 'B2' : 'B', shape === 2 || shape === 3 ? 'stepB2' : 'stepB');
  const head = task('A', 'stepA').next(b);
  return Definition.from(shape === 3 ? head : head.next(task('C', 'stepC')));
}

const stack = new Stack(app, 'UnumRedeployFaults');
const workflows: Record<string, Definition> = { Approval: approval(), Paused: paused(), Batch: batch(), Chain: chain() };
for (const [name, definition] of Object.entries(workflows)) new UnumWorkflow(stack, name, { definition, removalPolicy: RemovalPolicy.DESTROY });
app.synth();
