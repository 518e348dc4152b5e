import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { ENV } from '../../runtime/contract/ir';

/** Environment and grants that let the failure recorder forward records to the user's queue or topic. */
export function forwardFailures(target: IQueue | ITopic, recorder: lambda.Function): void {
  if (isQueue(target)) {
    // SendMessage only (grantSendMessages adds GetQueueAttributes and GetQueueUrl, which the recorder never calls),
    // and, for a queue with a KMS key, what SQS needs of a sender: a data key and decrypting it.
    target.grant(recorder, 'sqs:SendMessage');
    target.encryptionMasterKey?.grant(recorder, 'kms:GenerateDataKey', 'kms:Decrypt');
    recorder.addEnvironment(ENV.failureQueueUrl, target.queueUrl);
  } else {
    target.grantPublish(recorder);
    recorder.addEnvironment(ENV.failureTopicArn, target.topicArn);
  }
}

function isQueue(target: IQueue | ITopic): target is IQueue {
  return 'queueUrl' in target;
}
