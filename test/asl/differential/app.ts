/**
 * The differential corpus as one CDK app: a UnumWorkflow per document,
 * spread over stacks (CloudFormation allows 500 resources per stack),
 * synthesized in-process into `outdir`.
 */
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { UnumWorkflow } from '../../../lib/construct';
import type { CorpusDocument } from './corpus';

const WORKFLOWS_PER_STACK = 8;

export function synthesizeCorpus(corpus: readonly CorpusDocument[], outdir: string): void {
  const app = new App({ outdir });
  corpus.forEach((doc, i) => {
    const stackId = `UnumDifferential${Math.floor(i / WORKFLOWS_PER_STACK) + 1}`;
    const stack = (app.node.tryFindChild(stackId) as Stack | undefined) ?? new Stack(app, stackId);
    new UnumWorkflow(stack, doc.name, { definition: doc.definition, removalPolicy: RemovalPolicy.DESTROY });
  });
  app.synth();
}
