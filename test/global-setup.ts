/** One DynamoDB Local for the whole jest run, shared by its workers (test/support/test-dynamodb.ts). */
import { startDynamoDbLocal, type DynamoDbLocal } from '../lib/local/dynamodb-local';
import { SHARED_ENDPOINT_VARIABLE } from './support/test-dynamodb';

declare global {
  // Read by test/global-teardown.ts, which runs in this same process.
  var unumTestDynamoDb: DynamoDbLocal | undefined;
}

export default async function globalSetup(): Promise<void> {
  const local = await startDynamoDbLocal();
  globalThis.unumTestDynamoDb = local;
  process.env[SHARED_ENDPOINT_VARIABLE] = local.endpoint;
}
