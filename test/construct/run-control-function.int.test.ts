/**
 * The run-control function (issue 35): a member of every deployment, its
 * version aliased `stop` and `redrive` by the deployment's custom resource.
 * `grantStop` and `grantRedrive` are invokes of exactly one of those aliases
 * and reads of run records: no grantee writes the table, so none can set a
 * run's status or result of its choosing. Its own role makes exactly the
 * reads and conditional writes a stop and a redrive need.
 */
import { App, type CfnElement, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { IConstruct } from 'constructs';
import { UnumWorkflow, WORKFLOW_METADATA_TYPE, type UnumWorkflowProps, type WorkflowMetadata } from '../../lib/construct';
import { physicalFunctionName } from '../../lib/construct/function-names';
import { Definition, IntegrationPattern, Task } from '../../lib/definition';
import { ENV } from '../../runtime/contract/ir';
import { RUN_CONTROL_NAME } from '../../runtime/contract/run-control';
import { chain, HANDLERS } from './fixtures/workflows';
import { anyAliasOf, nagFindings, roleStatements, STACK_NAME } from './helpers';

const CONTROL = physicalFunctionName(STACK_NAME, 'Flow', RUN_CONTROL_NAME);

/** The logical id of a construct's CloudFormation resource. */
const logicalId = (c: IConstruct): string => Stack.of(c).resolve((c.node.defaultChild as CfnElement).logicalId) as string;

function synth(props: Partial<UnumWorkflowProps> = {}, app = new App()) {
  const stack = new Stack(app, STACK_NAME);
  const workflow = new UnumWorkflow(stack, 'Flow', { definition: chain(), ...props });
  const operator = (id: string): iam.Role => new iam.Role(stack, id, { assumedBy: new iam.AccountRootPrincipal() });
  const tableArn = (): unknown => stack.resolve((workflow.table as dynamodb.ITable).tableArn);
  return { stack, workflow, operator, tableArn };
}

/** The statements of the run-control function's role. */
function controlStatements(template: Template, workflow: UnumWorkflow): Array<Record<string, unknown>> {
  const role = workflow.runControlFunction.role as iam.Role;
  return roleStatements(template, Stack.of(workflow).resolve((role.node.defaultChild as iam.CfnRole).logicalId) as string);
}

const actionsOf = (statements: Array<Record<string, unknown>>): string[] => [...new Set(statements.flatMap((s) => ([] as string[]).concat(s.Action as string | string[])))].sort();

describe.each([['stop', 'grantStop'], ['redrive', 'grantRedrive']] as const)('%s', (alias, grant) => {
  const s = synth();
  const role = s.operator('Operator');
  s.workflow[grant](role);
  const statements = roleStatements(Template.fromStack(s.stack), Match.stringLikeRegexp('^Operator'));

  test(`invoke exactly the run-control function's ${alias} alias, GetItem of the run records; nothing else`, () => {
    expect(statements).toEqual([
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: { 'Fn::Join': ['', [s.stack.resolve(s.workflow.runControlFunction.functionArn), `:${alias}`]] } },
      { Action: 'dynamodb:GetItem', Effect: 'Allow', Resource: s.tableArn(), Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['run#Flow#*'] } } },
    ]);
  });

  test('no DynamoDB action but a read, no invoke of a node\'s function', () => {
    const dynamodbActions = actionsOf(statements).filter((a) => a.startsWith('dynamodb:'));
    expect(dynamodbActions.filter((a) => !['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'].includes(a))).toEqual([]);
    const invoked = JSON.stringify(statements.filter((st) => st.Action === 'lambda:InvokeFunction'));
    for (const fn of Object.values(s.workflow.functions)) expect(invoked).not.toContain(logicalId(fn));
  });

  test('with a customer-managed table key: decrypt, never encrypt', () => {
    const stack = new Stack(new App(), STACK_NAME);
    const encrypted = new UnumWorkflow(stack, 'Flow', { definition: chain(), encryptionKey: new kms.Key(stack, 'Key', { enableKeyRotation: true }) });
    encrypted[grant](new iam.Role(stack, 'Operator', { assumedBy: new iam.AccountRootPrincipal() }));
    const kmsActions = actionsOf(roleStatements(Template.fromStack(stack), Match.stringLikeRegexp('^Operator'))).filter((a) => a.startsWith('kms:'));
    expect(kmsActions).toEqual(['kms:Decrypt']);
  });
});

describe('the function and its role', () => {
  const s = synth({ definition: Definition.from(new Task('A', { entry: HANDLERS, handler: 'first' }).next(new Task('Approve', { entry: HANDLERS, handler: 'first', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN }))) });
  const template = Template.fromStack(s.stack);
  const d = s.workflow.deployment;

  test('its role: run records and parked invocations read and updated, deployment records read, any alias of the nodes\' functions invoked, its logs; nothing else', () => {
    const statements = controlStatements(template, s.workflow).filter((st) => !([] as string[]).concat(st.Action as string).some((a) => a.startsWith('logs:')));
    expect(statements).toEqual([
      { Action: ['dynamodb:BatchGetItem', 'dynamodb:GetItem'], Effect: 'Allow', Resource: s.tableArn(), Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['dep#Flow', 'dep#Flow#*'] } } },
      { Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: Object.values(s.workflow.functions).map(anyAliasOf) },
      { Action: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'], Effect: 'Allow', Resource: s.tableArn(), Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['run#Flow#*', 'park#Flow#*#*'] } } },
    ]);
    expect(actionsOf(controlStatements(template, s.workflow)).filter((a) => a.startsWith('logs:'))).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
  });

  test('not the failure recorder, not the task-response function', () => {
    const invoked = JSON.stringify(controlStatements(template, s.workflow).filter((st) => st.Action === 'lambda:InvokeFunction'));
    for (const fn of [s.workflow.failureRecorder, s.workflow.taskResponseFunction]) {
      expect(invoked).not.toContain(logicalId(fn as IConstruct));
    }
  });

  test('a member of the deployment: its name, a version and a role of the deployment, no async settings (invoked synchronously)', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: CONTROL,
      Timeout: 120,
      Environment: { Variables: Match.objectLike({ [ENV.workflow]: 'Flow', [ENV.deployment]: d, [ENV.table]: Match.anyValue() }) },
    });
    const [record] = Object.values(template.findResources('Custom::UnumDeployment'));
    const member = (record.Properties.Functions as Array<Record<string, unknown>>).find((f) => f.Node === RUN_CONTROL_NAME);
    expect(member).toEqual({ Node: RUN_CONTROL_NAME, FunctionName: CONTROL, Version: expect.anything(), RoleName: expect.anything() });
    expect(logicalId(s.workflow.runControlFunction.role as iam.Role)).toContain(`Role${d}`);
  });

  test('named in the stack outputs and the metadata', () => {
    const outputs = template.findOutputs('FlowRunControlFunctionName');
    expect(outputs.FlowRunControlFunctionName.Value).toEqual({ Ref: logicalId(s.workflow.runControlFunction) });
    const metadata = s.workflow.node.metadata.find((m) => m.type === WORKFLOW_METADATA_TYPE)?.data as WorkflowMetadata;
    expect(s.stack.resolve(metadata.runControl)).toEqual({ functionName: CONTROL, logicalId: logicalId(s.workflow.runControlFunction) });
  });

  test('a workflow without callback Tasks has one too', () => {
    Template.fromStack(synth().stack).hasResourceProperties('AWS::Lambda::Function', { FunctionName: CONTROL });
  });

  test('a workflow with a timeout: it also schedules a redriven run\'s timeout, to the failure recorder\'s alias, in the workflow\'s schedule group only', () => {
    const timed = synth({ timeout: Duration.hours(1) });
    const t = Template.fromStack(timed.stack);
    const scheduling = controlStatements(t, timed.workflow).filter((st) => ([] as string[]).concat(st.Action as string).some((a) => a.startsWith('scheduler:') || a === 'iam:PassRole'));
    expect(scheduling.map((st) => st.Action)).toEqual(['scheduler:CreateSchedule', 'iam:PassRole']);
    expect(JSON.stringify(scheduling[0].Resource)).toContain(`:schedule/${physicalFunctionName(STACK_NAME, 'Flow', 'waits')}/*`);
    const recorder = `${physicalFunctionName(STACK_NAME, 'Flow', 'unum-failure')}:${timed.workflow.deployment}`;
    t.hasResourceProperties('AWS::Lambda::Function', { FunctionName: CONTROL, Environment: { Variables: Match.objectLike({ [ENV.runTimeoutFunction]: recorder, [ENV.scheduleGroup]: Match.anyValue() }) } });
    // Without a timeout: no scheduling at all.
    expect(actionsOf(controlStatements(template, s.workflow)).filter((a) => a.startsWith('scheduler:'))).toEqual([]);
  });
});

test('cdk-nag AwsSolutionsChecks: no findings, with every grant applied', () => {
  expect(nagFindings((app) => {
    const s = synth({ pointInTimeRecovery: true, timeout: Duration.hours(1) }, app);
    s.workflow.grantStop(s.operator('Stopper'));
    s.workflow.grantRedrive(s.operator('Redriver'));
  })).toEqual([]);
});
