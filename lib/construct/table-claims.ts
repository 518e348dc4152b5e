import { Token } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { IConstruct } from 'constructs';

/** Per app: the workflows by table and name (see `claimTableName`). */
const TABLE_CLAIMS = new WeakMap<IConstruct, Map<string, string>>();

/**
 * Keys carry the workflow name, so workflows sharing a table must have
 * different names: claims `table` for `workflowName` in `workflow`'s app;
 * the construct path of another workflow of the same name on the same table
 * (the same construct, or the same literal table name), which refuses the claim.
 */
export function claimTableName(workflow: IConstruct, table: dynamodb.ITable, workflowName: string): string | undefined {
  const tableId = Token.isUnresolved(table.tableName) ? table.node.path : table.tableName;
  const root = workflow.node.root;
  const claims = TABLE_CLAIMS.get(root) ?? TABLE_CLAIMS.set(root, new Map()).get(root) as Map<string, string>;
  const key = JSON.stringify([tableId, workflowName]);
  const other = claims.get(key);
  if (other === undefined) claims.set(key, workflow.node.path);
  return other;
}
