import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** How long a dead letter waits for `unum recover`: SQS's longest retention. */
export const DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * The workflow's dead-letter queue: the on-failure destination of the failure
 * recorder. A failure the recorder could not record (DynamoDB unreachable for
 * longer than the recorder's own retries) lands here instead of being dropped,
 * and `unum recover` replays it (docs/architecture.md, "Failure handling").
 * Encrypted with SQS-managed keys, TLS only; what may send to and read from it
 * is granted to the recorder and to `grantRecover` alone.
 */
export function createDeadLetterQueue(scope: Construct, id: string, removalPolicy?: RemovalPolicy): sqs.Queue {
  const queue = new sqs.Queue(scope, id, {
    retentionPeriod: DEAD_LETTER_RETENTION,
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    removalPolicy: removalPolicy ?? RemovalPolicy.RETAIN,
  });
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions::AwsSolutions-SQS3',
    reason: 'This queue is itself a dead-letter queue: the on-failure destination of the failure recorder (a Lambda destination, which the rule does not recognise). A queue behind it would only move the dead letters.',
  });
  return queue;
}
