// A Step Functions state machine (ASL, JSONPath mode) as a unum workflow.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { fromAsl, UnumWorkflow } from 'unum-cdk';

export function ordersFromAsl(stack: Stack): UnumWorkflow {
  // #region from-asl
  const definition = fromAsl(fs.readFileSync('order.asl.json', 'utf8'), {
    workflowName: 'Orders',
    tasks: {
      'Charge card': { entry: path.join(__dirname, 'handlers.ts'), handler: 'charge', memorySize: 512 },
      shipArn: { entry: path.join(__dirname, 'handlers.ts'), handler: 'ship' }, // Resource "${shipArn}"
    },
    // Optional: settings for every Task that `tasks` does not name (an object, or a function of the Task).
    defaultTask: ({ functionName }) => ({ entry: path.join(__dirname, 'handlers.ts'), handler: functionName }),
  });
  const orders = new UnumWorkflow(stack, 'Orders', { definition });
  // #endregion
  return orders;
}

export function ordersFromAslInOneCall(stack: Stack): UnumWorkflow {
  // #region construct-from-asl
  // The same in one call: errors then name the construct path, the ASL state and the field.
  const orders = UnumWorkflow.fromAsl(stack, 'Orders', fs.readFileSync('order.asl.json', 'utf8'), {
    tasks: { 'Charge card': { entry: path.join(__dirname, 'handlers.ts'), handler: 'charge' } },
    defaultTask: ({ functionName }) => ({ entry: path.join(__dirname, 'handlers.ts'), handler: functionName }),
  });
  // #endregion
  return orders;
}
