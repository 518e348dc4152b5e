/**
 * Two workflows sharing one table, one's name the beginning of the other's
 * (`Photos`, `PhotosV2`): every DynamoDB statement of every role of each
 * workflow (nodes, failure recorder, sweeper; the task-response function has
 * none) is conditioned on `dynamodb:LeadingKeys` patterns of its own
 * workflow only. Together with test/runtime/workflow-key-patterns.test.ts
 * (those patterns match every key of their workflow and none of another's),
 * this is the proof of the separation: DynamoDB Local does not enforce IAM.
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { UnumWorkflow } from '../../lib/construct';
import { Definition, IntegrationPattern, Parallel, Task, Wait, WaitTime } from '../../lib/definition';
import { type ItemKind, RUN_ITEM_KINDS, runsIndexKeyPatterns, workflowKeyPatterns } from '../../runtime/contract/table';
import { HANDLERS } from './fixtures/workflows';
import { STACK_NAME } from './helpers';

type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> };

const WORKFLOWS = ['Photos', 'PhotosV2'];
const EVERY_KIND: ItemKind[] = [...RUN_ITEM_KINDS, 'deployment', 'envelopeKey'];

/** Every kind of function: a plain node, a Wait, a callback Task, effects, a Parallel's join, a run timeout. */
function definition(stack: Stack, name: string): Definition {
  const orders = new dynamodb.Table(stack, `${name}Orders`, { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
  const task = (id: string, extra: object = {}): Task => new Task(id, { entry: HANDLERS, handler: 'first', ...extra });
  return Definition.from(
    task('Plain')
      .next(new Wait('Sleep', { time: WaitTime.duration(Duration.hours(1)) }))
      .next(task('Approve', { integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, timeout: Duration.hours(1) }))
      .next(new Parallel('Both').branch(task('Left')).branch(task('Right')))
      .next(task('Order', { effects: { tables: [orders] } })),
  );
}

const app = new App();
const stack = new Stack(app, STACK_NAME);
const shared = new dynamodb.Table(stack, 'Shared', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING }, timeToLiveAttribute: 'ttl' });
const workflows = WORKFLOWS.map((name) => new UnumWorkflow(stack, name, { definition: definition(stack, name), table: shared, timeout: Duration.days(1) }));
const template = Template.fromStack(stack);
const sharedId = stack.resolve((shared.node.defaultChild as dynamodb.CfnTable).logicalId) as string;

/** The DynamoDB statements on the shared table (its items or its index) of the roles under `scope`. */
function tableStatements(scope: UnumWorkflow): { role: string; statement: Statement }[] {
  const roles = scope.node.findAll().filter((c): c is iam.Role => c instanceof iam.Role);
  return roles.flatMap((role) => {
    const roleId = stack.resolve((role.node.defaultChild as iam.CfnRole).logicalId) as string;
    const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
    return Object.values(policies)
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
      .filter((s) => ([] as string[]).concat(s.Action).some((a) => a.startsWith('dynamodb:')) && JSON.stringify(s.Resource).includes(`"${sharedId}`))
      .map((statement) => ({ role: role.node.path, statement }));
  });
}

const leadingKeys = (s: Statement): unknown => s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];

describe.each(workflows.map((w, i) => [w.workflowName, w, WORKFLOWS[1 - i]] as const))('%s', (name, workflow, other) => {
  const statements = tableStatements(workflow);

  test('its nodes, failure recorder, run-control function and sweeper reach the shared table, the task-response function does not', () => {
    const roles = new Set(statements.map((s) => s.role));
    for (const fn of [...Object.values(workflow.functions), workflow.failureRecorder, workflow.runControlFunction]) expect(roles).toContain(fn.role?.node.path);
    expect([...roles].some((r) => r.includes('/Sweeper/'))).toBe(true);
    expect([...roles].some((r) => r.includes('/TaskResponse/'))).toBe(false);
  });

  test("every DynamoDB statement is conditioned on its own workflow's keys, none of the other's", () => {
    const own = new Set([...workflowKeyPatterns(name, EVERY_KIND), ...runsIndexKeyPatterns(name)]);
    const others = new Set([...workflowKeyPatterns(other, EVERY_KIND), ...runsIndexKeyPatterns(other)]);
    for (const { role, statement } of statements) {
      const patterns = leadingKeys(statement);
      expect({ role, patterns: Array.isArray(patterns) && patterns.length > 0 }).toEqual({ role, patterns: true });
      for (const pattern of patterns as string[]) {
        expect({ role, pattern, own: own.has(pattern), other: others.has(pattern) }).toEqual({ role, pattern, own: true, other: false });
      }
      expect(Object.keys(statement.Condition ?? {})).toEqual(['ForAllValues:StringLike']);
    }
  });

  test('a node may reach the items of its runs and the envelope key; the sweeper its deployments, run records, parked invocations, the envelope key and its runs in the index; the run-control function its run records, parked invocations and deployments', () => {
    const of = (part: string) => statements.filter((s) => s.role.includes(part)).flatMap((s) => leadingKeys(s.statement) as string[]);
    expect(new Set(of(workflow.functions.Plain.role?.node.path as string))).toEqual(new Set(workflowKeyPatterns(name, [...RUN_ITEM_KINDS, 'envelopeKey'])));
    expect(new Set(of(`/${name}/Sweeper/`))).toEqual(new Set([...workflowKeyPatterns(name, ['deployment', 'run', 'park', 'envelopeKey']), ...runsIndexKeyPatterns(name)]));
    expect(new Set(of(`/${name}/RunControl/`))).toEqual(new Set(workflowKeyPatterns(name, ['run', 'park', 'deployment'])));
  });
});

describe("a client's grant on one workflow reaches that workflow's items and its runs in the index only, never its envelope key", () => {
  const GRANTS = ['grantStart', 'grantTaskResponse', 'grantStop', 'grantRead', 'grantListRuns', 'grantRecover', 'grantRedrive'] as const;
  const clientApp = new App();
  const clientStack = new Stack(clientApp, STACK_NAME);
  const table = new dynamodb.Table(clientStack, 'Shared', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
  const [photos] = WORKFLOWS.map((name) => new UnumWorkflow(clientStack, name, { definition: definition(clientStack, name), table }));
  const clients = GRANTS.map((grant) => {
    const role = new iam.Role(clientStack, grant, { assumedBy: new iam.AccountRootPrincipal() });
    photos[grant](role);
    return role;
  });
  const clientTemplate = Template.fromStack(clientStack);
  const tableId = clientStack.resolve((table.node.defaultChild as dynamodb.CfnTable).logicalId) as string;
  const allowed = new Set([...workflowKeyPatterns('Photos', EVERY_KIND.filter((k) => k !== 'envelopeKey')), ...runsIndexKeyPatterns('Photos')]);

  test.each(GRANTS.map((grant, i) => [grant, clients[i]] as const))('%s', (_grant, client) => {
    const clientId = clientStack.resolve((client.node.defaultChild as iam.CfnRole).logicalId) as string;
    const policies = clientTemplate.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: clientId }] } });
    const statements = Object.values(policies)
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
      .filter((st) => ([] as string[]).concat(st.Action).some((a) => a.startsWith('dynamodb:')) && JSON.stringify(st.Resource).includes(`"${tableId}`));
    for (const statement of statements) {
      const patterns = leadingKeys(statement);
      expect({ actions: statement.Action, conditioned: Array.isArray(patterns) && patterns.length > 0 }).toEqual({ actions: statement.Action, conditioned: true });
      for (const pattern of patterns as string[]) expect({ pattern, allowed: allowed.has(pattern) }).toEqual({ pattern, allowed: true });
    }
  });
});
