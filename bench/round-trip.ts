/**
 * The DynamoDB round trip a figure's times are measured in: the median time
 * of one small GetItem from this process, taken in the same run as the figure,
 * so a per-step overhead can be stated in round trips rather than in this
 * machine's milliseconds.
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { checkpointKey, keyItem } from '../runtime/table';
import { median } from './stats';

const WARM_UP = 5;

export async function medianRoundTripMs(client: DynamoDBClient, table: string, samples: number): Promise<number> {
  const get = (): Promise<unknown> => client.send(new GetItemCommand({ TableName: table, Key: keyItem(checkpointKey('round-trip-probe')) }));
  for (let i = 0; i < WARM_UP; i++) await get();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await get();
    times.push(performance.now() - t0);
  }
  return median(times);
}
