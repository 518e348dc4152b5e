import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { TABLE } from '../../runtime/contract/table';

export interface WorkflowTableOptions {
  readonly removalPolicy?: RemovalPolicy;
  readonly encryptionKey?: IKey;
  readonly pointInTimeRecovery?: boolean;
}

/**
 * The workflow's table: checkpoints, fan-in shards and run records under one
 * string key `pk` (layout in docs/architecture.md). On-demand billing because
 * workflow traffic is bursty (a map fans out thousands of writes at once).
 *
 * Its index `runs` lists a workflow's runs newest first. Only run records
 * carry its keys, so it holds nothing else. It projects keys only: a run's
 * start writes its entry, and its final write (status, result) then changes
 * nothing the index holds, so it writes no index entry. A listing reads the
 * statuses from the run records (one BatchGetItem per page).
 */
export function createWorkflowTable(scope: Construct, id: string, options: WorkflowTableOptions): dynamodb.Table {
  const table = new dynamodb.Table(scope, id, {
    partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: TABLE.ttlAttribute,
    encryption: options.encryptionKey ? dynamodb.TableEncryption.CUSTOMER_MANAGED : dynamodb.TableEncryption.DEFAULT,
    encryptionKey: options.encryptionKey,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: options.pointInTimeRecovery ?? false },
    removalPolicy: options.removalPolicy ?? RemovalPolicy.RETAIN,
  });
  const index = TABLE.runsIndex;
  table.addGlobalSecondaryIndex({
    indexName: index.name,
    partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
    sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
    projectionType: dynamodb.ProjectionType.KEYS_ONLY,
  });
  return table;
}

/**
 * The table's items without its indexes, for grants: the runtime reads and
 * writes items by key, so its roles get no `<table>/index/*` access (a grant
 * on a table with an index includes it); the sweeper's one Query of the runs
 * index, on its workflow's partition only, is granted apart
 * (permissions.ts `allowRunsQuery`).
 */
export function tableItems(scope: Construct, id: string, table: dynamodb.ITable): dynamodb.ITable {
  return dynamodb.Table.fromTableAttributes(scope, id, { tableArn: table.tableArn, encryptionKey: table.encryptionKey });
}
