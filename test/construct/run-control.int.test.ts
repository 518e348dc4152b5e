/**
 * A workflow with a run timeout: the entry alone may create schedules (its
 * deadline) and knows the failure recorder's name, the Scheduler role may
 * invoke the recorder. cdk-nag finds nothing. (The grants of stop and
 * redrive: run-control-function.int.test.ts.)
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { fromAsl } from '../../lib/asl';
import { UnumWorkflow } from '../../lib/construct';
import { Definition, Task } from '../../lib/definition';
import { ENV } from '../../runtime/contract/ir';
import { HANDLERS } from './fixtures/workflows';
import { deploymentAliasArn, nagFindings, STACK_NAME } from './helpers';

const task = (id: string): Task => new Task(id, { entry: HANDLERS, handler: 'first' });

function synth(timeout: Duration | undefined, app = new App()): { stack: Stack; workflow: UnumWorkflow; template: () => Template } {
  const stack = new Stack(app, STACK_NAME);
  // Point-in-time recovery on, as cdk-nag asks of a table holding run records.
  const workflow = new UnumWorkflow(stack, 'Flow', { definition: Definition.from(task('A').next(task('B'))), pointInTimeRecovery: true, ...(timeout ? { timeout } : {}) });
  return { stack, workflow, template: () => Template.fromStack(stack) };
}

/** The statements of the policy attached to the role of a node's function. */
function statementsOf(template: Template, node: string): Array<Record<string, unknown>> {
  return Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([id]) => id.startsWith(`FlowNodes${node}Role`))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>);
}

const RECORDER = `${STACK_NAME}-Flow-unum-failure`;

describe('a workflow with a timeout', () => {
  const template = synth(Duration.hours(2)).template();

  test('every node\'s IR carries it; the entry knows the recorder and may schedule, B may not', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `${STACK_NAME}-Flow-A`,
      Environment: { Variables: Match.objectLike({ [ENV.runTimeoutFunction]: Match.stringLikeRegexp(`^${RECORDER}:d[0-9a-f]{20}$`), [ENV.scheduleGroup]: `${STACK_NAME}-Flow-waits` }) },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: `${STACK_NAME}-Flow-B`,
      Environment: { Variables: Match.not(Match.objectLike({ [ENV.runTimeoutFunction]: Match.anyValue() })) },
    });
    expect(statementsOf(template, 'A').some((s) => s.Action === 'scheduler:CreateSchedule')).toBe(true);
    expect(statementsOf(template, 'B').filter((s) => String(s.Action).startsWith('scheduler:') || s.Action === 'iam:PassRole')).toEqual([]);
  });

  test('the Scheduler role may invoke the failure recorder and nothing else', () => {
    const roles = template.findResources('AWS::IAM::Role', {
      Properties: { AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })] } },
    });
    const [roleId] = Object.keys(roles);
    const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]));
    expect(policies.flatMap((p) => p.Properties.PolicyDocument.Statement)).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: deploymentAliasArn(RECORDER) },
    ]);
  });

  test('cdk-nag AwsSolutionsChecks: no findings', () => {
    expect(nagFindings((app) => synth(Duration.hours(2), app))).toEqual([]);
  });
});

test('ASL TimeoutSeconds gives the workflow its timeout without the prop; out of range is a synth error naming the field', () => {
  const doc = { TimeoutSeconds: 90, StartAt: 'A', States: { A: { Type: 'Task', Resource: 'a', End: true } } };
  const stack = new Stack(new App(), 'Asl');
  const wf = new UnumWorkflow(stack, 'Flow', { definition: fromAsl(doc, { workflowName: 'Flow', defaultTask: { entry: HANDLERS, handler: 'first' } }) });
  expect(wf.compiled.nodes.A.ir.settings.runTimeoutSeconds).toBe(90);
  expect(() => synth(Duration.days(400))).toThrow("Test/Flow: workflow 'Flow': invalid definition (field 'options.runTimeoutSeconds'): 34560000 is not an integer in 1-31536000");
});

test('no timeout: no Scheduler role, no recorder name in the entry', () => {
  const template = synth(undefined).template();
  expect(template.findResources('AWS::IAM::Role', { Properties: { AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })] } } })).toEqual({});
  template.hasResourceProperties('AWS::Lambda::Function', {
    FunctionName: `${STACK_NAME}-Flow-A`,
    Environment: { Variables: Match.not(Match.objectLike({ [ENV.runTimeoutFunction]: Match.anyValue() })) },
  });
});
