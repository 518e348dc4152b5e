/**
 * CDK app of the fault tests: the crash-point workflows and the shapes
 * the extended campaign adds (issue 14's, and issue 18's Waits), the run-control targets (issue 18), in three stacks,
 * synthesized by the tests and run on the local engine.
 */
import { App, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { UnumWorkflow } from '../../../lib/construct';
import * as w from './workflows';
import { PG_FAULT_WORKFLOWS, pgFaultOrders } from './pg-fault-workflows';

const app = new App();
// One stack holds at most 500 resources, and a workflow is about four per function (function, role,
// policy, version) and eight of its own (table, logs, queue, schedule group, sweeper): three stacks.
const stack = new Stack(app, 'UnumFaultTests');
const shapes = new Stack(app, 'UnumFaultShapes');
const ledger = new dynamodb.Table(shapes, 'Ledger', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING }, removalPolicy: RemovalPolicy.DESTROY });
const workflows = {
  Chain3: w.chain3(), Parallel3: w.parallel3(), Map5: w.map5(), NestedMap: w.nestedMap(), Choice: w.choice(), Loop: w.loop(), Fails: w.fails(),
};
const shapeWorkflows = {
  MapInParallel: w.mapInParallel(), ParallelLoop: w.parallelLoop(), FoldAfterNestedMap: w.foldAfterNestedMap(), CatchInMap: w.catchInMap(),
  EdgeMaps: w.edgeMaps(), Parallel1: w.parallel1(), EndsInMap: w.endsInMap(), LaunchTree: w.launchTree(), Waits: w.waits(),
  StateRules: w.stateRules(), PlainOrders: w.plainOrders(ledger),
};
/** The smallest launch width, so that a few items need a deep launch tree. */
const settings: Partial<Record<string, { mapLaunchWidth: number }>> = { LaunchTree: { mapLaunchWidth: 2 } };
for (const [scope, set] of [[stack, workflows], [shapes, shapeWorkflows]] as const) {
  for (const [name, definition] of Object.entries(set)) {
    new UnumWorkflow(scope, name, { definition, removalPolicy: RemovalPolicy.DESTROY, ...settings[name] });
  }
}
// Issue 18's run-control targets, in a stack of their own: one stack holds at most 500 resources.
const runControl = new Stack(app, 'UnumRunControlFaults');
new UnumWorkflow(runControl, 'StopRace', { definition: w.stopRace(), removalPolicy: RemovalPolicy.DESTROY });
new UnumWorkflow(runControl, 'TimesOut', { definition: w.timesOut(), removalPolicy: RemovalPolicy.DESTROY, timeout: Duration.minutes(10) });
new UnumWorkflow(runControl, 'CallbackRace', { definition: w.callbackRace(), removalPolicy: RemovalPolicy.DESTROY });
new UnumWorkflow(runControl, 'CallbackRetry', { definition: w.callbackRetry(), removalPolicy: RemovalPolicy.DESTROY });
new UnumWorkflow(runControl, 'RedriveAfterFailure', { definition: w.redriveAfterFailure(), removalPolicy: RemovalPolicy.DESTROY });
new UnumWorkflow(runControl, 'RedriveStateFailure', { definition: w.redriveStateFailure(), removalPolicy: RemovalPolicy.DESTROY });
// Issue 35's PostgreSQL server faults: the Orders shape on a pool that meets them, in a stack of its own.
const pgFaults = new Stack(app, 'UnumPgFaults');
const pgLedger = new dynamodb.Table(pgFaults, 'Ledger', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING }, removalPolicy: RemovalPolicy.DESTROY });
for (const [name, handler] of Object.entries(PG_FAULT_WORKFLOWS)) {
  new UnumWorkflow(pgFaults, name, { definition: pgFaultOrders(pgLedger, handler), removalPolicy: RemovalPolicy.DESTROY });
}
app.synth();
