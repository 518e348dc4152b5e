/**
 * The envelope key of workflows the tests run without a deployment resource
 * (which creates the real one: runtime/deployments/envelope-key.ts): one
 * fixed key, handed to handlers and recorders (`HandlerOptions.envelopeKey`)
 * or written to the table for a bundled function that reads it there, and
 * `sealed` to seal the envelopes a test writes by hand as a function would.
 */
import { type DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { sealEnvelope } from '../../runtime/contract/envelope-mac';
import { envelopeKeyPut } from '../../runtime/contract/table';
import type { Envelope } from '../../runtime/contract/ir';
import type { EnvelopeKeySource } from '../../runtime/entry/envelope-auth';

export const TEST_ENVELOPE_KEY = new Uint8Array(32).fill(7);

export const testEnvelopeKey: EnvelopeKeySource = async () => TEST_ENVELOPE_KEY;

/** `envelope` with its MAC under the test key. */
export const sealed = (envelope: Envelope): Envelope => sealEnvelope(TEST_ENVELOPE_KEY, envelope);

/** Writes the test key as `workflow`'s envelope key item in `table`, as the deployment resource would: for a function that reads it from its table. */
export async function writeTestEnvelopeKey(client: DynamoDBClient, table: string, workflow: string): Promise<void> {
  await client.send(new PutItemCommand({ TableName: table, ...envelopeKeyPut(workflow, TEST_ENVELOPE_KEY) }));
}
