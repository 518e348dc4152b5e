import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { UnumWorkflow } from '../../lib/construct';
import type { UnumWorkflowProps } from '../../lib/construct';

export const STACK_NAME = 'Test';

/** A stack with one workflow; the stack is env-agnostic, as in the example app. */
export function synthWorkflow(props: UnumWorkflowProps, id = 'Flow'): { stack: Stack; workflow: UnumWorkflow; template: Template } {
  const app = new App();
  const stack = new Stack(app, STACK_NAME);
  const workflow = new UnumWorkflow(stack, id, props);
  return { stack, workflow, template: Template.fromStack(stack) };
}

/** Asset hashes depend on the bundled code and esbuild's version: replace them in snapshots. */
export function normaliseHashes<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/[0-9a-f]{64}/g, '<asset-hash>')) as T;
}

/** `lambda:InvokeFunction` ARN of a function, as formatArn renders it. */
export function lambdaArn(functionName: string): unknown {
  return {
    'Fn::Join': [
      '',
      ['arn:', { Ref: 'AWS::Partition' }, ':lambda:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:function:${functionName}`],
    ],
  };
}
