/**
 * A workflow with Waits: one schedule group (every workflow has it), a Scheduler role that may invoke
 * only the functions after the Waits, and scheduling rights (CreateSchedule
 * in that group, PassRole of that role to Scheduler only) on exactly the
 * functions before them. cdk-nag and cfn-lint find nothing.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { UnumWorkflow } from '../../lib/construct';
import { Definition, Task, Wait, WaitTime } from '../../lib/definition';
import { ENV } from '../../runtime/contract/ir';
import { HANDLERS } from './fixtures/workflows';
import { cfnLint, deploymentAliasArn, nagFindings, STACK_NAME } from './helpers';

/** A -> Wait 1 day -> B -> Wait until $.at -> C. */
function waiting(): Definition {
  const task = (id: string): Task => new Task(id, { entry: HANDLERS, handler: 'first' });
  return Definition.from(
    task('A')
      .next(new Wait('Day', { time: WaitTime.duration(Duration.days(1)) }))
      .next(task('B'))
      .next(new Wait('Until', { time: WaitTime.timestampPath('$.at') }))
      .next(task('C')),
  );
}

/** The workflow in `app`; point-in-time recovery on, as cdk-nag asks of a table holding run records. */
function build(app: App): Stack {
  const stack = new Stack(app, STACK_NAME);
  new UnumWorkflow(stack, 'Flow', { definition: waiting(), pointInTimeRecovery: true });
  return stack;
}

function synth(outdir?: string): { app: App; template: Template } {
  const app = new App(outdir ? { outdir } : {});
  return { app, template: Template.fromStack(build(app)) };
}

const GROUP = `${STACK_NAME}-Flow-waits`;

/** The statements of the policy attached to the role of a node's function. */
function statementsOf(template: Template, node: string): Array<Record<string, unknown>> {
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.entries(policies)
    .filter(([id]) => id.startsWith(`FlowNodes${node}Role`))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>);
}

describe('a workflow with Waits', () => {
  const { template } = synth();

  test('one schedule group, named for the stack and workflow', () => {
    template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: GROUP });
  });

  test('the Scheduler role: assumable by scheduler.amazonaws.com from this account, may invoke only the nodes after the Waits', () => {
    const roles = template.findResources('AWS::IAM::Role', {
      Properties: { AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })] } },
    });
    expect(Object.keys(roles)).toHaveLength(1);
    const [roleId, role] = Object.entries(roles)[0];
    expect(role.Properties.AssumeRolePolicyDocument.Statement[0].Condition).toEqual({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } });
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]));
    expect(policies.flatMap((p) => p.Properties.PolicyDocument.Statement)).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: [deploymentAliasArn(`${STACK_NAME}-Flow-Day`), deploymentAliasArn(`${STACK_NAME}-Flow-Until`)] },
    ]);
  });

  test('the nodes before a Wait may create schedules in the group and pass the role to Scheduler; no other node may', () => {
    for (const node of ['A', 'B']) {
      const statements = statementsOf(template, node);
      const create = statements.find((s) => s.Action === 'scheduler:CreateSchedule');
      expect(JSON.stringify(create?.Resource)).toContain(`:schedule/${GROUP}/*`);
      const pass = statements.find((s) => s.Action === 'iam:PassRole');
      expect(pass?.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
      expect(pass?.Resource).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^FlowWaitsRole/), 'Arn'] });
    }
    for (const node of ['Day', 'Until', 'C']) {
      expect(statementsOf(template, node).filter((s) => String(s.Action).startsWith('scheduler:') || s.Action === 'iam:PassRole')).toEqual([]);
    }
  });

  test('the nodes before a Wait get the group, the role and the function ARN prefix in their environment', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `${STACK_NAME}-Flow-A`,
      Environment: { Variables: Match.objectLike({ [ENV.scheduleGroup]: GROUP, [ENV.schedulerRoleArn]: Match.anyValue(), [ENV.functionArnPrefix]: Match.anyValue() }) },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `${STACK_NAME}-Flow-C`,
      Environment: { Variables: Match.not(Match.objectLike({ [ENV.scheduleGroup]: Match.anyValue() })) },
    });
  });

  test('a workflow without Waits has the group (a schedule of an older deployment may be in it), no Scheduler role, no scheduling grant', () => {
    const app = new App();
    const stack = new Stack(app, 'Plain');
    new UnumWorkflow(stack, 'Flow', { definition: Definition.from(new Task('A', { entry: HANDLERS, handler: 'first' })) });
    const plain = Template.fromStack(stack);
    plain.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    plain.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'Plain-Flow-waits' });
    expect(plain.findResources('AWS::IAM::Role', { Properties: { AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })] } } })).toEqual({});
    expect(JSON.stringify(plain.findResources('AWS::IAM::Policy'))).not.toMatch(/scheduler:|iam:PassRole/);
  });

  test('cdk-nag AwsSolutionsChecks: no findings', () => {
    expect(nagFindings(build)).toEqual([]);
  });

  test('cfn-lint passes', () => {
    const { app } = synth(fs.mkdtempSync(path.join(os.tmpdir(), 'unum-lint-')));
    expect(() => cfnLint(app)).not.toThrow();
  });
});
