/**
 * CDK app of the fault tests: the crash-point workflows and the shapes
 * the extended campaign adds (issue 14's, and issue 18's Waits), the run-control targets (issue 18), in one stack,
 * synthesized by the tests and run on the local engine.
 */
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { UnumWorkflow } from '../../../lib/construct';
import * as w from './workflows';

const app = new App();
const stack = new Stack(app, 'UnumFaultTests');
const ledger = new dynamodb.Table(stack, 'Ledger', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING }, removalPolicy: RemovalPolicy.DESTROY });
const workflows = {
  Chain3: w.chain3(), Parallel3: w.parallel3(), Map5: w.map5(), NestedMap: w.nestedMap(), Choice: w.choice(), Loop: w.loop(), Fails: w.fails(),
  MapInParallel: w.mapInParallel(), ParallelLoop: w.parallelLoop(), FoldAfterNestedMap: w.foldAfterNestedMap(), CatchInMap: w.catchInMap(),
  EdgeMaps: w.edgeMaps(), Parallel1: w.parallel1(), EndsInMap: w.endsInMap(), LaunchTree: w.launchTree(), Waits: w.waits(),
  StateRules: w.stateRules(), PlainOrders: w.plainOrders(ledger),
};
/** The smallest launch width, so that a few items need a deep launch tree. */
const settings: Partial<Record<keyof typeof workflows, { mapLaunchWidth: number }>> = { LaunchTree: { mapLaunchWidth: 2 } };
for (const [name, definition] of Object.entries(workflows)) {
  new UnumWorkflow(stack, name, { definition, removalPolicy: RemovalPolicy.DESTROY, ...settings[name as keyof typeof workflows] });
}
// Issue 18's run-control targets, in a stack of their own: one stack holds at most 500 resources.
const runControl = new Stack(app, 'UnumRunControlFaults');
new UnumWorkflow(runControl, 'StopRace', { definition: w.stopRace(), removalPolicy: RemovalPolicy.DESTROY });
new UnumWorkflow(runControl, 'TimesOut', { definition: w.timesOut(), removalPolicy: RemovalPolicy.DESTROY, timeout: Duration.minutes(10) });
new UnumWorkflow(runControl, 'CallbackRace', { definition: w.callbackRace(), removalPolicy: RemovalPolicy.DESTROY });
new UnumWorkflow(runControl, 'CallbackRetry', { definition: w.callbackRetry(), removalPolicy: RemovalPolicy.DESTROY });
new UnumWorkflow(runControl, 'RedriveAfterFailure', { definition: w.redriveAfterFailure(), removalPolicy: RemovalPolicy.DESTROY });
new UnumWorkflow(runControl, 'RedriveStateFailure', { definition: w.redriveStateFailure(), removalPolicy: RemovalPolicy.DESTROY });
app.synth();
