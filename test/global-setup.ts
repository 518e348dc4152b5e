/** One DynamoDB Local for the whole jest run, shared by its workers (test/support/test-dynamodb.ts). */
import * as path from 'node:path';
import { startDynamoDbLocal, type DynamoDbLocal } from '../lib/local/dynamodb-local';
import { SHARED_ENDPOINT_VARIABLE } from './support/test-dynamodb';
import { UNIT_LANE_DIR } from './unit-lane-setup';

declare global {
  // Read by test/global-teardown.ts, which runs in this same process.
  var unumTestDynamoDb: DynamoDbLocal | undefined;
}

export default async function globalSetup(): Promise<void> {
  // A run of every project at once (`jest` alone) also ran the unit lane's setup, which hides Java (test/unit-lane-setup.ts).
  process.env.PATH = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => !dir.includes(UNIT_LANE_DIR)).join(path.delimiter);
  const local = await startDynamoDbLocal();
  globalThis.unumTestDynamoDb = local;
  process.env[SHARED_ENDPOINT_VARIABLE] = local.endpoint;
}
