/**
 * Least privilege of the functions' roles: each kind of function may make
 * exactly the calls its code makes (lib/construct/permissions.ts), an extra or
 * a missing action fails here. A second check reads the AWS SDK commands out
 * of each kind's bundle, so a runtime that starts sending a new command
 * (e.g. a DeleteItem) fails until the role is given it.
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { UnumWorkflow } from '../../lib/construct';
import { bundleFailureRecorder, bundleNode, bundleRunControl, bundleSweeper, bundleTaskResponder, resolveBundling } from '../../lib/construct/bundling';
import { Definition, IntegrationPattern, Task, Wait, WaitTime } from '../../lib/definition';
import { HANDLERS } from './fixtures/workflows';
import { STACK_NAME } from './helpers';

type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };

/** Plain -> Sleep (Wait) -> Approve (callback Task) -> Order (effects on `orders`) -> Last; with a run timeout. */
function build(options: { key?: (stack: Stack) => kms.IKey; queue?: (stack: Stack) => sqs.IQueue } = {}) {
  const app = new App();
  const stack = new Stack(app, STACK_NAME);
  const orders = new dynamodb.Table(stack, 'Orders', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
  const task = (id: string, extra: object = {}): Task => new Task(id, { entry: HANDLERS, handler: 'first', ...extra });
  const definition = Definition.from(
    task('Plain')
      .next(new Wait('Sleep', { time: WaitTime.duration(Duration.hours(1)) }))
      .next(task('Approve', { integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, timeout: Duration.hours(1) }))
      .next(task('Order', { effects: { tables: [orders] } }))
      .next(task('Last')),
  );
  const workflow = new UnumWorkflow(stack, 'Flow', { definition, timeout: Duration.days(1), encryptionKey: options.key?.(stack), onFailure: options.queue?.(stack) });
  const template = Template.fromStack(stack);
  const statements = (fn: { role?: iam.IRole }): Statement[] => {
    const roleId = stack.resolve(((fn.role as iam.Role).node.defaultChild as iam.CfnRole).logicalId) as string;
    const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
    return Object.values(policies).flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
  };
  const actions = (fn: { role?: iam.IRole }): string[] => [...new Set(statements(fn).flatMap((s) => ([] as string[]).concat(s.Action)))].sort();
  /** The actions allowed on a resource (matched by the logical id its ARN refers to). */
  const actionsOn = (fn: { role?: iam.IRole }, logicalIdPrefix: string): string[] =>
    [...new Set(statements(fn).filter((s) => JSON.stringify(s.Resource).includes(`"${logicalIdPrefix}`)).flatMap((s) => ([] as string[]).concat(s.Action)))].sort();
  const sweeper = workflow.node.findChild('Sweeper').node.findChild('Function') as lambda.Function;
  return { stack, workflow, template, orders, sweeper, statements, actions, actionsOn };
}

const WORKFLOW_TABLE = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];
const LOGS = ['logs:CreateLogStream', 'logs:PutLogEvents'];

describe('each role may make exactly the calls of its function', () => {
  const s = build();
  const fn = s.workflow.functions;

  test('a plain node: the table items it reads and writes, invoking its successors (and the failure recorder, its destination), its logs', () => {
    expect(s.actions(fn.Last)).toEqual([...WORKFLOW_TABLE, 'lambda:InvokeFunction', ...LOGS].sort());
  });

  test('the entry (a run timeout) and a node before a Wait: also creating schedules and passing the Scheduler role', () => {
    const scheduling = ['iam:PassRole', 'scheduler:CreateSchedule'];
    expect(s.actions(fn.Plain)).toEqual([...WORKFLOW_TABLE, ...scheduling, 'lambda:InvokeFunction', ...LOGS].sort());
  });

  test('a callback Task: also deleting its timeout schedules', () => {
    expect(s.actions(fn.Approve)).toEqual([...WORKFLOW_TABLE, 'iam:PassRole', 'lambda:InvokeFunction', ...LOGS, 'scheduler:CreateSchedule', 'scheduler:DeleteSchedule'].sort());
  });

  test('a node with effects: the writes of a transaction or an update on its effects table, the node calls on the workflow table', () => {
    const ordersId = s.stack.resolve((s.orders.node.defaultChild as dynamodb.CfnTable).logicalId) as string;
    expect(s.actionsOn(fn.Order, ordersId)).toEqual(['dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect(s.actionsOn(fn.Order, 'FlowTable')).toEqual(WORKFLOW_TABLE);
    expect(s.actionsOn(fn.Last, ordersId)).toEqual([]);
  });

  test('the failure recorder: single items of the table, sending to its dead-letter queue, its logs', () => {
    expect(s.actions(s.workflow.failureRecorder)).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', ...LOGS, 'sqs:SendMessage']);
    expect(s.actionsOn(s.workflow.failureRecorder, 'FlowDeadLetters')).toEqual(['sqs:SendMessage']);
  });

  test('the task-response function: invoking the callback Task, its logs; no table', () => {
    expect(s.actions(s.workflow.taskResponseFunction as lambda.Function)).toEqual(['lambda:InvokeFunction', ...LOGS]);
  });

  test('the run-control function: reading and updating run records and parked invocations, reading deployment records, invoking the nodes\' functions, scheduling a redriven run\'s timeout (this workflow has one), its logs', () => {
    const control = s.workflow.runControlFunction;
    expect(s.actions(control)).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'iam:PassRole', 'lambda:InvokeFunction', ...LOGS, 'scheduler:CreateSchedule']);
    expect(s.statements(control).filter((st) => ([] as string[]).concat(st.Action).includes('dynamodb:UpdateItem')).map((st) => st.Condition)).toEqual([
      { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['run#Flow#*', 'park#Flow#*#*'] } },
    ]);
  });

  test('the sweeper: its records and the run records, the runs index, making and deleting aliases and their async configs, deleting versions and functions, deleting roles with their policies, its logs', () => {
    expect(s.actions(s.sweeper)).toEqual([
      'dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem',
      'iam:DeleteRole', 'iam:DeleteRolePolicy', 'iam:DetachRolePolicy', 'iam:ListAttachedRolePolicies', 'iam:ListRolePolicies',
      'lambda:CreateAlias', 'lambda:DeleteAlias', 'lambda:DeleteFunction', 'lambda:DeleteFunctionEventInvokeConfig', 'lambda:GetAlias', 'lambda:PutFunctionEventInvokeConfig', 'lambda:UpdateAlias',
      ...LOGS,
    ]);
  });

  test("every function of the deployment invokes only aliases of its deployment: no function's $LATEST, no other deployment's alias", () => {
    const d = s.workflow.deployment;
    for (const f of [...Object.values(fn), s.workflow.failureRecorder, s.workflow.taskResponseFunction as lambda.Function]) {
      for (const st of s.statements(f).filter((x) => ([] as string[]).concat(x.Action).includes('lambda:InvokeFunction'))) {
        for (const resource of ([] as unknown[]).concat(st.Resource)) {
          const text = JSON.stringify(resource);
          // By ARN from the name, qualified with the deployment.
          expect(text).toMatch(new RegExp(`:function:[^:"]+:${d}"\\]\\]\\}$`));
        }
      }
    }
  });

  test('table calls name the table itself: no index, no stream, no condition-less wildcard', () => {
    for (const f of [...Object.values(fn), s.workflow.failureRecorder, s.workflow.runControlFunction]) {
      for (const st of s.statements(f).filter((x) => ([] as string[]).concat(x.Action).some((a) => a.startsWith('dynamodb:')))) {
        const text = JSON.stringify(st.Resource);
        expect(text).not.toMatch(/index|stream|\*/);
        expect(text).toMatch(/"(FlowTable|Orders)[0-9A-F]+"/);
      }
    }
  });
});

test('a table encrypted with a customer key: nodes, the recorder and the run-control function may use the key for the table, the task-response function may not', () => {
  const s = build({ key: (stack) => new kms.Key(stack, 'Key', { enableKeyRotation: true }) });
  const kmsActions = ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey*', 'kms:ReEncrypt*'];
  for (const f of [s.workflow.functions.Last, s.workflow.failureRecorder, s.workflow.runControlFunction]) expect(s.actions(f).filter((a) => a.startsWith('kms:'))).toEqual(kmsActions);
  expect(s.actions(s.workflow.taskResponseFunction as lambda.Function).filter((a) => a.startsWith('kms:'))).toEqual([]);
});

test("forwarding failures to a KMS-encrypted queue: SendMessage, and the key's data key and decrypt, nothing else", () => {
  const s = build({ queue: (stack) => new sqs.Queue(stack, 'Failures', { encryption: sqs.QueueEncryption.KMS, enforceSSL: true }) });
  expect(s.actions(s.workflow.failureRecorder)).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'kms:Decrypt', 'kms:GenerateDataKey', ...LOGS, 'sqs:SendMessage']);
});

/**
 * The IAM actions of the AWS SDK commands a bundle can send. A command not
 * listed fails the test: decide its grant, then add it here.
 */
const COMMAND_ACTIONS: Record<string, string> = {
  GetItem: 'dynamodb:GetItem',
  BatchGetItem: 'dynamodb:BatchGetItem',
  PutItem: 'dynamodb:PutItem',
  UpdateItem: 'dynamodb:UpdateItem',
  // The effects' marker in the workflow table; the user's items are on the effects tables (checked above).
  TransactWriteItems: 'dynamodb:PutItem',
  Invoke: 'lambda:InvokeFunction',
  CreateSchedule: 'scheduler:CreateSchedule',
  DeleteSchedule: 'scheduler:DeleteSchedule',
  SendMessage: 'sqs:SendMessage',
  Publish: 'sns:Publish',
  Query: 'dynamodb:Query',
  DeleteAlias: 'lambda:DeleteAlias',
  DeleteFunction: 'lambda:DeleteFunction',
  DeleteFunctionEventInvokeConfig: 'lambda:DeleteFunctionEventInvokeConfig',
  ListRolePolicies: 'iam:ListRolePolicies',
  DeleteRolePolicy: 'iam:DeleteRolePolicy',
  ListAttachedRolePolicies: 'iam:ListAttachedRolePolicies',
  DetachRolePolicy: 'iam:DetachRolePolicy',
  DeleteRole: 'iam:DeleteRole',
  CreateAlias: 'lambda:CreateAlias',
  GetAlias: 'lambda:GetAlias',
  UpdateAlias: 'lambda:UpdateAlias',
  PutFunctionEventInvokeConfig: 'lambda:PutFunctionEventInvokeConfig',
};

/** Commands in a bundle, unminified (the names survive as property accesses of the external SDK). */
function commandsOf(files: Readonly<Record<string, string>>): string[] {
  return [...new Set([...files['index.js'].matchAll(/\b([A-Z][A-Za-z]+)Command\b/g)].map((m) => m[1]))].sort();
}

describe("each kind's bundle sends only commands its role allows", () => {
  const s = build();
  const options = { ...resolveBundling({ minify: false }), sourceMap: false };
  const effectsHandler = require.resolve('../../examples/orders/handlers.ts');
  const granted = (f: { role?: iam.IRole }): string[] => s.actions(f);
  /**
   * What a bundle holds but its function never calls: every node bundles the
   * whole Scheduler adapter, and only a callback Task unschedules; the
   * recorder bundles the whole store, and reads single items only; it invokes
   * the join of a Parallel/Map with rules, which this workflow has none of
   * (recorder-spec.int.test.ts checks that grant); it publishes to SNS only
   * when forwarding to a topic; the run-control function schedules a
   * redriven run's timeout, and never unschedules.
   */
  const cases: Array<[string, Readonly<Record<string, string>>, { role?: iam.IRole }, string[]]> = [
    ['plain node', bundleNode(HANDLERS, options).files, s.workflow.functions.Plain, ['DeleteSchedule']],
    ['node with effects', bundleNode(effectsHandler, options).files, s.workflow.functions.Order, ['CreateSchedule', 'DeleteSchedule']],
    ['callback Task', bundleNode(HANDLERS, options, { callback: true }).files, s.workflow.functions.Approve, []],
    ['failure recorder', bundleFailureRecorder(options).files, s.workflow.failureRecorder, ['BatchGetItem', 'Invoke', 'Publish']],
    ['task-response function', bundleTaskResponder(options).files, s.workflow.taskResponseFunction as lambda.Function, []],
    ['run-control function', bundleRunControl(options).files, s.workflow.runControlFunction, ['DeleteSchedule']],
    ['sweeper', bundleSweeper(options).files, s.sweeper, []],
  ];
  test.each(cases)('%s', (_kind, files, fn, unused) => {
    const commands = commandsOf(files);
    expect(commands.filter((c) => !(c in COMMAND_ACTIONS))).toEqual([]);
    const needed = commands.filter((c) => !unused.includes(c)).map((c) => COMMAND_ACTIONS[c]);
    expect(needed.filter((a) => !granted(fn).includes(a))).toEqual([]);
    // The exceptions are real: each is in the bundle.
    for (const c of unused) expect(commands).toContain(c);
  });
});
