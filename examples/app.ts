#!/usr/bin/env node
/**
 * The example app (`cdk synth` / `cdk deploy`): every example workflow in one
 * stack, `UnumExamples`. Environment-agnostic, so it synthesizes offline with
 * no credentials. The stack class is exported for the tests.
 */
import { App, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { UnumWorkflow } from '../lib/construct';
import { collatz } from './collatz/workflow';
import { textPipeline } from './text-pipeline/workflow';
import { wordCount } from './wordcount/workflow';

/** The example workflows: a text pipeline, a MapReduce word count and a Collatz loop. */
export class ExamplesStack extends Stack {
  readonly workflows: readonly UnumWorkflow[];

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    // Example data only: `cdk destroy` removes the tables and logs (the construct's default retains them).
    // Point-in-time recovery on, as a production table holding run records would have it.
    const common = { removalPolicy: RemovalPolicy.DESTROY, pointInTimeRecovery: true };
    this.workflows = [
      new UnumWorkflow(this, 'TextPipeline', { ...common, definition: textPipeline() }),
      new UnumWorkflow(this, 'WordCount', { ...common, definition: wordCount() }),
      new UnumWorkflow(this, 'Collatz', { ...common, definition: collatz() }),
    ];
  }
}

if (require.main === module) {
  const app = new App();
  new ExamplesStack(app, 'UnumExamples', {
    description: 'unum-cdk examples: text pipeline, MapReduce word count, Collatz loop',
  });
  app.synth();
}
