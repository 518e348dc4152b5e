/**
 * A task's effects tables (issue 17, part 5): the construct grants the task's
 * function exactly the tables it declares, and no other function any of them.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as iam from 'aws-cdk-lib/aws-iam';
import { Definition, Task } from '../../lib/definition';
import { UnumWorkflow, UnumWorkflowError } from '../../lib/construct';
import { HANDLERS } from './fixtures/workflows';

function synth(effects: (orders: dynamodb.ITable) => object | undefined) {
  const app = new App();
  const stack = new Stack(app, 'Test');
  const orders = new dynamodb.Table(stack, 'Orders', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
  const audit = new dynamodb.Table(stack, 'Audit', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
  const order = new Task('Order', { entry: HANDLERS, handler: 'first', effects: effects(orders) as never });
  const workflow = new UnumWorkflow(stack, 'Flow', { definition: Definition.from(order.next(new Task('Ship', { entry: HANDLERS, handler: 'second' }))) });
  return { stack, workflow, orders, audit, template: Template.fromStack(stack) };
}

/** The table logical ids that the policies of `node`'s role name. */
function tablesGrantedTo(s: ReturnType<typeof synth>, node: string): string[] {
  const role = s.workflow.functions[node].role as iam.Role;
  const roleId = s.stack.getLogicalId(role.node.defaultChild as iam.CfnRole);
  const policies = s.template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  const text = JSON.stringify(Object.values(policies));
  const ids = [s.orders, s.audit, s.workflow.table].map((t) => s.stack.getLogicalId((t as dynamodb.Table).node.defaultChild as dynamodb.CfnTable));
  return ids.filter((id) => text.includes(`"${id}"`));
}

test("a task's effects tables are granted to its function only, beside the workflow table", () => {
  const s = synth((orders) => ({ tables: [orders] }));
  const ids = (t: dynamodb.ITable): string => s.stack.getLogicalId((t as dynamodb.Table).node.defaultChild as dynamodb.CfnTable);
  expect(tablesGrantedTo(s, 'Order').sort()).toEqual([ids(s.orders), ids(s.workflow.table)].sort());
  expect(tablesGrantedTo(s, 'Ship')).toEqual([ids(s.workflow.table)]);
});

test('without effects no function is granted the other tables', () => {
  const s = synth(() => undefined);
  const ids = (t: dynamodb.ITable): string => s.stack.getLogicalId((t as dynamodb.Table).node.defaultChild as dynamodb.CfnTable);
  expect(tablesGrantedTo(s, 'Order')).toEqual([ids(s.workflow.table)]);
});

test('an effects table that is not a DynamoDB table is an error naming the workflow, node and field', () => {
  expect(() => synth(() => ({ tables: ['orders'] }))).toThrow(UnumWorkflowError);
  expect(() => synth(() => ({ tables: ['orders'] }))).toThrow(/Flow.*Order.*effects.*effects\.tables\[0\] is not a DynamoDB table/);
});
