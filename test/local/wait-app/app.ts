/**
 * CDK app of the Wait tests on the local engine: a 1-day wait, path-based
 * waits in a row, waits inside a Map's items, a Wait that starts the
 * workflow, and the same from ASL (Seconds, Timestamp, InputPath/OutputPath).
 */
import * as path from 'path';
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { fromAsl } from '../../../lib/asl';
import { UnumWorkflow } from '../../../lib/construct';
import { Definition, Map, Task, Wait, WaitTime } from '../../../lib/definition';

const entry = path.join(__dirname, 'handlers.ts');
const task = (name: string, handler: string): Task => new Task(name, { entry, handler });

const asl = {
  StartAt: 'Ten seconds',
  States: {
    'Ten seconds': { Type: 'Wait', Seconds: 10, InputPath: '$.payload', Next: 'Before' },
    Before: { Type: 'Task', Resource: 'before', Next: 'Long ago' },
    'Long ago': { Type: 'Wait', Timestamp: '2020-01-01T00:00:00Z', OutputPath: '$.v', Next: 'After' },
    After: { Type: 'Task', Resource: 'double', End: true },
  },
};

const workflows: Record<string, Definition> = {
  DayWait: Definition.from(task('Before', 'before').next(new Wait('OneDay', { time: WaitTime.duration(Duration.days(1)) })).next(task('After', 'after'))),
  PathWaits: Definition.from(
    task('Prepare', 'prepare')
      .next(new Wait('BySeconds', { time: WaitTime.secondsPath('$.s') }))
      .next(new Wait('ByTimestamp', { time: WaitTime.timestampPath('$.at'), outputPath: '$.keep' }))
      .next(task('Done', 'after')),
  ),
  MapWaits: Definition.from(
    new Map('Each', { itemsPath: '$.items' }).itemProcessor(new Wait('Pause', { time: WaitTime.secondsPath('$.s'), outputPath: '$.n' }).next(task('Double', 'double'))),
  ),
  AslWaits: fromAsl(asl, { workflowName: 'AslWaits', defaultTask: (t) => ({ entry, handler: t.functionName }) }),
};

const app = new App();
const stack = new Stack(app, 'UnumWaits');
for (const [name, definition] of Object.entries(workflows)) new UnumWorkflow(stack, name, { definition, removalPolicy: RemovalPolicy.DESTROY });
app.synth();
