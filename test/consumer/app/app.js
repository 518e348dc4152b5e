// A user's CDK app in plain JavaScript: one workflow, a chain around a map with its fan-in.
const path = require('path');
const { App, Stack } = require('aws-cdk-lib');
const { Definition, Map, Task, UnumWorkflow } = require('unum-cdk');

const app = new App();
const stack = new Stack(app, 'ConsumerApp');
const entry = path.join(__dirname, 'handlers.js');
const definition = Definition.from(
  new Task('Split', { entry, handler: 'split' })
    .next(new Map('EachWord', { itemsPath: '$.words' }).itemProcessor(new Task('Shout', { entry, handler: 'shout' })))
    .next(new Task('Join', { entry, handler: 'join' })),
);
new UnumWorkflow(stack, 'Shouter', { definition });
app.synth();
