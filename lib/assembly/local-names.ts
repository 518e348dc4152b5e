/**
 * The names a synthesized app's resources have on unum's local engine, where
 * nothing is deployed: a resource CloudFormation would name at deploy gets
 * `<stack>-<logicalId>`. The engine creates them by these names, and the
 * client and the CLI find them by the same rule.
 */

/**
 * Set in an engine's `environment` when its table names carry a prefix (an engine given a DynamoDB
 * it shares with others): the prefix, put before every table's local name.
 */
export const LOCAL_TABLE_PREFIX_VARIABLE = 'UNUM_LOCAL_TABLE_PREFIX';

/** The account of the engine's ARNs and queue URLs. */
export const LOCAL_ACCOUNT = '000000000000';

/** The local name of a function, table or queue: its literal name, else `<stack>-<logicalId>`. */
export function localName(stack: string, logicalId: string, literal?: unknown): string {
  return typeof literal === 'string' ? literal : `${stack}-${logicalId}`;
}

/** The URL of a local queue at the engine's SQS endpoint. */
export const localQueueUrl = (sqsEndpoint: string, queueName: string): string => `${sqsEndpoint}/${LOCAL_ACCOUNT}/${queueName}`;
