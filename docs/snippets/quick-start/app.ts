// app.ts: a CDK app with one workflow. Split a text into words, shout every word
// in parallel (a Map: one Lambda invocation per word), then join the results.
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Definition, Map, Task, UnumWorkflow, type InputOf, type OutputOf } from 'unum-cdk';
import type * as handlers from './handlers';

const app = new App();
const stack = new Stack(app, 'ConsumerApp');
const entry = path.join(__dirname, 'handlers.ts');

// Each Task is one Lambda function; its types come from the handler it runs.
const split = new Task<InputOf<typeof handlers.split>, OutputOf<typeof handlers.split>>('Split', { entry, handler: 'split' });
const shout = new Task<InputOf<typeof handlers.shout>, OutputOf<typeof handlers.shout>>('Shout', { entry, handler: 'shout' });
const join = new Task<InputOf<typeof handlers.join>, OutputOf<typeof handlers.join>>('Join', { entry, handler: 'join' });

const shouter = new UnumWorkflow(stack, 'Shouter', {
  definition: Definition.from(
    split
      .next(new Map<{ words: string[] }, string[]>('EachWord', { itemsPath: '$.words' }).itemProcessor(shout))
      .next(join),
  ),
});

// Least privilege: this role may start runs and read their results, nothing else.
const caller = new iam.Role(stack, 'Caller', { assumedBy: new iam.AccountRootPrincipal() });
shouter.grantStart(caller);
shouter.grantRead(caller);

app.synth();
