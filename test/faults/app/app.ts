/**
 * CDK app of the fault tests: the crash-point workflows and the shapes
 * the extended campaign adds, in one stack,
 * synthesized by the tests and run on the local engine.
 */
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { UnumWorkflow } from '../../../lib/construct';
import * as w from './workflows';

const app = new App();
const stack = new Stack(app, 'UnumFaultTests');
const workflows = {
  Chain3: w.chain3(), Parallel3: w.parallel3(), Map5: w.map5(), NestedMap: w.nestedMap(), Choice: w.choice(), Loop: w.loop(), Fails: w.fails(),
  MapInParallel: w.mapInParallel(), ParallelLoop: w.parallelLoop(), FoldAfterNestedMap: w.foldAfterNestedMap(), CatchInMap: w.catchInMap(),
  EdgeMaps: w.edgeMaps(), Parallel1: w.parallel1(), EndsInMap: w.endsInMap(), StateRules: w.stateRules(),
};
for (const [name, definition] of Object.entries(workflows)) {
  new UnumWorkflow(stack, name, { definition, removalPolicy: RemovalPolicy.DESTROY });
}
app.synth();
