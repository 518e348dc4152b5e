// A CDK app with one workflow, a failure queue, a client role and alarms.
import * as path from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Definition, Parallel, Task, UnumWorkflow } from 'unum-cdk';

const app = new App();
const stack = new Stack(app, 'Pipelines');
const entry = path.join(__dirname, 'handlers.ts'); // exports normalize, wordStats, sentiment, report

const definition = Definition.from(
  new Task('Normalize', { entry, handler: 'normalize' })
    .next(new Parallel('Analyze').branch(
      new Task('WordStats', { entry, handler: 'wordStats' }),
      new Task('Sentiment', { entry, handler: 'sentiment', memorySize: 512 }),
    ))
    .next(new Task('Report', { entry, handler: 'report' })),
);

const failures = new sqs.Queue(stack, 'Failures', { enforceSSL: true });
const pipeline = new UnumWorkflow(stack, 'TextPipeline', {
  definition,
  maxEventAge: Duration.hours(1),
  onFailure: failures,            // failed runs are also forwarded here
});

// Let another component start runs and read their results.
const client = new iam.Role(stack, 'Client', { assumedBy: new iam.AccountRootPrincipal() });
pipeline.grantStart(client);
pipeline.grantRead(client);

// Alarm on runs that fail.
pipeline.metricFailures().createAlarm(stack, 'PipelineFailures', { threshold: 1, evaluationPeriods: 1 });

// #region dead-letters
// A dead letter is a failure that could not be recorded (an outage): alarm on it, and let operators replay it.
const operators = new iam.Role(stack, 'Operators', { assumedBy: new iam.AccountRootPrincipal() });
pipeline.metricDeadLetters().createAlarm(stack, 'PipelineDeadLetters', {
  threshold: 1,
  evaluationPeriods: 1,
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
});
pipeline.grantRecover(operators); // receive/delete dead letters, read run records, invoke the workflow's functions
// #endregion

// #region timeout
// A run still RUNNING two hours after its start ends TIMED_OUT.
new UnumWorkflow(stack, 'Orders', { definition: Definition.from(new Task('Order', { entry, handler: 'order' })), timeout: Duration.hours(2) });
// #endregion

app.synth();
