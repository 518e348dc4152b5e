/**
 * A workflow with a callback Task (WAIT_FOR_TASK_TOKEN): a task-response
 * function that may invoke only the callback Tasks' functions and reads no
 * table; `grantTaskResponse` lets a principal invoke that function and
 * nothing else; the callback Task's function may schedule its timeouts, and
 * the Scheduler role may invoke it. cdk-nag and cfn-lint find nothing.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { UnumWorkflow } from '../../lib/construct';
import { Definition, IntegrationPattern, Task } from '../../lib/definition';
import { ENV } from '../../runtime/contract/ir';
import { HANDLERS } from './fixtures/workflows';
import { anyAliasOf, cfnLint, deploymentAliasArn, nagFindings, normaliseHashes, STACK_NAME } from './helpers';

/** A -> Approve (callback, 1 day, heartbeat 1 hour) -> B. */
function approving(): Definition {
  const task = (id: string): Task => new Task(id, { entry: HANDLERS, handler: 'first' });
  const approve = new Task('Approve', { entry: HANDLERS, handler: 'first', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, timeout: Duration.days(1), heartbeat: Duration.hours(1) });
  return Definition.from(task('A').next(approve).next(task('B')));
}

/** The workflow and a partner role allowed to respond, in `app`; point-in-time recovery on, as cdk-nag asks. */
function build(app: App): { stack: Stack; workflow: UnumWorkflow } {
  const stack = new Stack(app, STACK_NAME);
  const workflow = new UnumWorkflow(stack, 'Flow', { definition: approving(), pointInTimeRecovery: true });
  workflow.grantTaskResponse(new iam.Role(stack, 'Partner', { assumedBy: new iam.AccountRootPrincipal() }));
  return { stack, workflow };
}

function synth(outdir?: string): { app: App; template: Template; workflow: UnumWorkflow } {
  const app = new App(outdir ? { outdir } : {});
  const { stack, workflow } = build(app);
  return { app, template: Template.fromStack(stack), workflow };
}

const RESPONDER = `${STACK_NAME}-Flow-unum-task-response`;

/** The statements of the policies attached to roles whose logical id starts with `prefix`. */
function statementsOf(template: Template, prefix: string): Array<Record<string, unknown>> {
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.values(policies)
    .filter((p) => (p.Properties.Roles as Array<{ Ref: string }>).some((r) => r.Ref.startsWith(prefix)))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>);
}

describe('a workflow with a callback Task', () => {
  const { template, workflow } = synth();

  test('template snapshot (asset hashes normalised)', () => {
    expect(normaliseHashes(template.toJSON())).toMatchSnapshot();
  });

  test('the task-response function: invokes the callback Task\'s function only, no table access, knows its workflow and the Task', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: RESPONDER,
      Environment: { Variables: Match.objectLike({ [ENV.workflow]: 'Flow', [ENV.taskFunctions]: JSON.stringify({ Approve: `${STACK_NAME}-Flow-Approve:${workflow.deployment}` }), [ENV.deployment]: workflow.deployment }) },
    });
    const statements = statementsOf(template, 'FlowTaskResponseRole');
    expect(statements.filter((s) => s.Action === 'lambda:InvokeFunction')).toEqual([{ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: deploymentAliasArn(`${STACK_NAME}-Flow-Approve`) }]);
    expect(statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb:'))).toEqual([]);
    expect(workflow.taskResponseFunction?.functionName).toBeDefined();
  });

  test('grantTaskResponse: the principal may invoke the task-response function and nothing else', () => {
    const statements = statementsOf(template, 'Partner');
    expect(statements).toHaveLength(1);
    // The unqualified function (no `:*` of versions), nothing of the workflow's own functions.
    expect(statements[0]).toEqual({ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: anyAliasOf(workflow.taskResponseFunction as lambda.IFunction) });
  });

  test('the callback Task may schedule its timeouts (and delete them once completed), and the Scheduler role may invoke its function only', () => {
    const create = statementsOf(template, 'FlowNodesApproveRole').find((s) => String(s.Action).includes('scheduler:CreateSchedule'));
    expect(create?.Action).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']);
    expect(JSON.stringify(create?.Resource)).toContain(`:schedule/${STACK_NAME}-Flow-waits/*`);
    for (const node of ['A', 'B']) expect(statementsOf(template, `FlowNodes${node}Role`).filter((s) => String(s.Action).startsWith('scheduler:'))).toEqual([]);
    expect(statementsOf(template, 'FlowWaitsRole')).toEqual([{ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: deploymentAliasArn(`${STACK_NAME}-Flow-Approve`) }]);
  });

  test('a stack output names the task-response function', () => {
    template.hasOutput('FlowTaskResponseFunctionName', { Value: { Ref: Match.stringLikeRegexp('^FlowTaskResponseFunction') } });
  });

  test('grantTaskResponse on a workflow without callback Tasks is an error naming the workflow', () => {
    const app = new App();
    const stack = new Stack(app, 'Plain');
    const plain = new UnumWorkflow(stack, 'Flow', { definition: Definition.from(new Task('A', { entry: HANDLERS, handler: 'first' })) });
    expect(() => plain.grantTaskResponse(new iam.Role(stack, 'R', { assumedBy: new iam.AccountRootPrincipal() }))).toThrow(/Flow.*grantTaskResponse: the workflow has no Task with integrationPattern WAIT_FOR_TASK_TOKEN/);
    expect(plain.taskResponseFunction).toBeUndefined();
    expect(Template.fromStack(stack).findResources('AWS::IAM::Role', { Properties: { AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })] } } })).toEqual({});
  });

  test('cdk-nag AwsSolutionsChecks: no findings', () => {
    expect(nagFindings(build)).toEqual([]);
  });

  test('cfn-lint passes', () => {
    const { app } = synth(fs.mkdtempSync(path.join(os.tmpdir(), 'unum-lint-')));
    expect(() => cfnLint(app)).not.toThrow();
  });
});

test('a callback Task with Retry rules may invoke its own function (its next attempt); without rules it may not', () => {
  const invokes = (retry: boolean): unknown[] => {
    const stack = new Stack(new App(), 'Retrying');
    const approve = new Task('Approve', { entry: HANDLERS, handler: 'first', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, timeout: Duration.days(1) });
    new UnumWorkflow(stack, 'Flow', { definition: Definition.from(retry ? approve.addRetry({ errors: ['Busy'] }) : approve) });
    return statementsOf(Template.fromStack(stack), 'FlowNodesApproveRole')
      .filter((s) => s.Action === 'lambda:InvokeFunction')
      .flatMap((s) => [s.Resource].flat());
  };
  expect(invokes(true)).toContainEqual(deploymentAliasArn('Retrying-Flow-Approve'));
  expect(invokes(false)).not.toContainEqual(deploymentAliasArn('Retrying-Flow-Approve'));
});
