/**
 * CDK app of the ASL end-to-end tests: one UnumWorkflow per imported ASL
 * document, synthesized and run on the local engine. Spread over several
 * stacks: 30 workflows exceed CloudFormation's 500 resources per stack.
 */
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { UnumWorkflow } from '../../../lib/construct';
import { aslWorkflows } from './workflows';

const WORKFLOWS_PER_STACK = 6;

const app = new App();
Object.entries(aslWorkflows()).forEach(([name, definition], i) => {
  const stackId = `UnumAsl${Math.floor(i / WORKFLOWS_PER_STACK) + 1}`;
  const stack = (app.node.tryFindChild(stackId) as Stack | undefined) ?? new Stack(app, stackId);
  new UnumWorkflow(stack, name, { definition, removalPolicy: RemovalPolicy.DESTROY });
});
app.synth();
