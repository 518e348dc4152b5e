// The stack of the effects example: the task's function may write exactly these tables (and the workflow's own).
import * as path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Definition, Task, UnumWorkflow } from 'unum-cdk';

export function ordersWorkflow(stack: Stack): UnumWorkflow {
  const entry = path.join(__dirname, 'place-order.ts');
  const ordersTable = new dynamodb.TableV2(stack, 'Orders', { partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING } });
  const stockTable = new dynamodb.TableV2(stack, 'Stock', { partitionKey: { name: 'sku', type: dynamodb.AttributeType.STRING } });
  // #region effects-task
  const placeOrder = new Task('PlaceOrder', {
    entry,
    handler: 'placeOrder',
    environment: { ORDERS_TABLE: ordersTable.tableName, STOCK_TABLE: stockTable.tableName },
    effects: { tables: [ordersTable, stockTable] },
  });
  // #endregion
  // #region effects-read
  const workflow = new UnumWorkflow(stack, 'PlaceOrders', { definition: Definition.from(placeOrder) });
  // effects.tables grants the effects' writes only: a handler that also reads a table needs the grant.
  stockTable.grantReadData(workflow.functions.PlaceOrder);
  // #endregion
  return workflow;
}
