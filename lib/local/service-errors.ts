/**
 * The error responses the fault proxy answers a service fault with, as
 * DynamoDB (JSON 1.0 protocol: `__type` and `x-amzn-ErrorType`), Lambda and
 * Scheduler (REST JSON: status code and `x-amzn-ErrorType`) send them, so the SDK in the
 * sandbox classifies them as the real ones: throttling and 500s are retried
 * by its standard retry strategy.
 */
import type { CallInfo, ServiceFault } from './fault-plan';

export interface ServiceReply {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const DYNAMODB_ERRORS = {
  throughput: [400, 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', 'The level of configured provisioned throughput for the table was exceeded.'],
  throttling: [400, 'com.amazon.coral.availability#ThrottlingException', 'Rate of requests exceeds the allowed throughput.'],
  error: [500, 'com.amazonaws.dynamodb.v20120810#InternalServerError', 'Internal server error'],
} as const;

const SCHEDULER_ERRORS = {
  throttling: [429, 'ThrottlingException', 'Rate exceeded.'],
  error: [500, 'InternalServerException', 'Internal server error.'],
} as const;

const LAMBDA_ERRORS = {
  throttling: [429, 'TooManyRequestsException', 'Rate Exceeded.'],
  error: [500, 'ServiceException', 'Lambda encountered an internal error.'],
} as const;

/** What the service answers a call failed by `fault` (`unreachable` gets no answer at all). */
export function serviceErrorReply(fault: Exclude<ServiceFault, 'unreachable'>, service: CallInfo['service']): ServiceReply {
  const kind = fault === 'error-before' || fault === 'error-after' ? 'error' : fault;
  if (service === 'dynamodb') {
    const [statusCode, type, message] = DYNAMODB_ERRORS[kind];
    const name = type.split('#')[1] as string;
    return { statusCode, headers: { 'Content-Type': 'application/x-amz-json-1.0', 'x-amzn-ErrorType': name }, body: JSON.stringify({ __type: type, message }) };
  }
  const [statusCode, type, message] = (service === 'scheduler' ? SCHEDULER_ERRORS : LAMBDA_ERRORS)[kind === 'throughput' ? 'throttling' : kind];
  return { statusCode, headers: { 'Content-Type': 'application/json', 'x-amzn-ErrorType': type }, body: JSON.stringify({ Type: 'Service', message }) };
}
