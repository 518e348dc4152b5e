/**
 * The DynamoDB Local that integration tests talk to. `jest` starts one for
 * the whole run (test/global-setup.ts) and passes its endpoint in
 * UNUM_TEST_DYNAMODB_ENDPOINT: a JVM start costs each file about 2 s of CPU,
 * and a long-lived instance runs warm. Tests keep apart by table name (each
 * creates its own, named at random). Without that variable (a runner other
 * than jest's setup) a file starts its own instance.
 */
import { randomUUID } from 'crypto';
import { startDynamoDbLocal } from '../../lib/local/dynamodb-local';
import type { ExistingDynamoDb } from '../../lib/local/engine';

export const SHARED_ENDPOINT_VARIABLE = 'UNUM_TEST_DYNAMODB_ENDPOINT';

export interface TestDynamoDb {
  readonly endpoint: string;
  /** Stops the instance if this file started it; the run's shared one outlives the file. */
  release(): Promise<void>;
}

export async function testDynamoDb(): Promise<TestDynamoDb> {
  const shared = process.env[SHARED_ENDPOINT_VARIABLE];
  if (shared) return { endpoint: shared, release: async () => undefined };
  const local = await startDynamoDbLocal();
  return { endpoint: local.endpoint, release: () => local.stop() };
}

/**
 * Options for a local engine in a test: the run's shared DynamoDB Local, under a table prefix of
 * the engine's own (two files may run the same app at once); without one, the engine starts its own.
 */
export function engineDynamoDb(): { dynamoDb?: ExistingDynamoDb } {
  const shared = process.env[SHARED_ENDPOINT_VARIABLE];
  return shared ? { dynamoDb: { endpoint: shared, tablePrefix: `e${randomUUID().slice(0, 8)}-` } } : {};
}
