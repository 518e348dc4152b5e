import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { TABLE } from '../../runtime/table';

export interface WorkflowTableOptions {
  readonly removalPolicy?: RemovalPolicy;
  readonly encryptionKey?: IKey;
  readonly pointInTimeRecovery?: boolean;
}

/**
 * The workflow's table: checkpoints, fan-in shards and run records under one
 * string key `pk` (layout in docs/architecture.md). On-demand billing because
 * workflow traffic is bursty (a map fans out thousands of writes at once).
 */
export function createWorkflowTable(scope: Construct, id: string, options: WorkflowTableOptions): dynamodb.Table {
  return new dynamodb.Table(scope, id, {
    partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: TABLE.ttlAttribute,
    encryption: options.encryptionKey ? dynamodb.TableEncryption.CUSTOMER_MANAGED : dynamodb.TableEncryption.DEFAULT,
    encryptionKey: options.encryptionKey,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: options.pointInTimeRecovery ?? false },
    removalPolicy: options.removalPolicy ?? RemovalPolicy.RETAIN,
  });
}
