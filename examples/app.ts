#!/usr/bin/env node
/**
 * The example app (`cdk synth` / `cdk deploy`): every example workflow in one
 * stack, `UnumExamples`. Environment-agnostic, so it synthesizes offline with
 * no credentials. The stack class is exported for the tests.
 */
import { App, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { UnumWorkflow } from '../lib/construct';
import { approval, ASK_APPROVER } from './approval/workflow';
import { collatz } from './collatz/workflow';
import { orders } from './orders/workflow';
import { textPipeline } from './text-pipeline/workflow';
import { wordCount } from './wordcount/workflow';

/**
 * The example workflows: a text pipeline, a MapReduce word count, a Collatz
 * loop, orders placed with exactly-once effects (its PostgreSQL database
 * is yours: set ORDERS_DATABASE_URL on the PlaceOrder function to deploy it;
 * see examples/orders/database.ts), and an expense approval that waits a day
 * and then for an approver's answer (task token).
 */
export class ExamplesStack extends Stack {
  readonly workflows: readonly UnumWorkflow[];

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    // Example data only: `cdk destroy` removes the tables and logs (the construct's default retains them).
    // Point-in-time recovery on, as a production table holding run records would have it.
    const common = { removalPolicy: RemovalPolicy.DESTROY, pointInTimeRecovery: true };
    // The ledger of the Orders example: charges and stock reservations, written by its effects.
    const ledger = new dynamodb.Table(this, 'Ledger', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      removalPolicy: RemovalPolicy.DESTROY,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    });
    const others = [
      new UnumWorkflow(this, 'TextPipeline', { ...common, definition: textPipeline() }),
      new UnumWorkflow(this, 'WordCount', { ...common, definition: wordCount() }),
      new UnumWorkflow(this, 'Collatz', { ...common, definition: collatz() }),
      new UnumWorkflow(this, 'Orders', { ...common, definition: orders(ledger) }),
    ];
    // The approvals inbox of the Approval example: the callback Task puts each claim's task token here for the approver.
    const inbox = new dynamodb.Table(this, 'ApprovalInbox', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      removalPolicy: RemovalPolicy.DESTROY,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    });
    const approvals = new UnumWorkflow(this, 'Approval', { ...common, definition: approval(inbox) });
    inbox.grantWriteData(approvals.functions[ASK_APPROVER]);
    this.workflows = [...others, approvals];
  }
}

if (require.main === module) {
  const app = new App();
  new ExamplesStack(app, 'UnumExamples', {
    description: 'unum-cdk examples: text pipeline, MapReduce word count, Collatz loop, orders with exactly-once effects, expense approval with a wait and a task token',
  });
  app.synth();
}
