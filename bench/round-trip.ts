/**
 * The DynamoDB round trips a figure's times are measured in: the median time
 * of one small call, taken in the same run as the figure, so a per-step
 * overhead can be stated in round trips rather than in this machine's
 * milliseconds. Two kinds, because DynamoDB Local answers a write more slowly
 * than a read: the GetItem of a run record (what a chain step reads beside its
 * work, eventually consistent) and the conditional PutItem of a new
 * checkpoint (what a step commits). Each is timed
 * from this process's main thread and, for the local engine, from a worker
 * thread as a function sandbox is (its answers cross threads).
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { DynamoDBClient, GetItemCommand, type GetItemCommandInput, PutItemCommand, type PutItemCommandInput } from '@aws-sdk/client-dynamodb';
import { ttlIn } from '../runtime/records/payload';
import { checkpointKey, checkpointPut, keyItem, runKey } from '../runtime/contract/table';
import { median } from './stats';

const WARM_UP = 5;

const readInput = (table: string): GetItemCommandInput => ({
  TableName: table, Key: keyItem(runKey({ workflow: 'RoundTrip', workflowId: 'probe' })), ConsistentRead: false,
});

/** `count` commits of new checkpoints holding `json` (a conditional put succeeds once per key). */
const commitInputs = (table: string, count: number, json: string): PutItemCommandInput[] =>
  Array.from({ length: count }, () => ({ TableName: table, ...checkpointPut(checkpointKey(`round-trip-probe-${randomUUID()}`), json, undefined, ttlIn(3600)) }));

async function medianCallMs(call: (i: number) => Promise<unknown>, samples: number): Promise<number> {
  for (let i = 0; i < WARM_UP; i++) await call(i);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await call(WARM_UP + i);
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Median GetItem (eventually consistent, as a chain step's read) of a run record key. */
export function medianRoundTripMs(client: DynamoDBClient, table: string, samples: number): Promise<number> {
  return medianCallMs(() => client.send(new GetItemCommand(readInput(table))), samples);
}

/** Median conditional PutItem of a new checkpoint holding `json`: the request a step's commit makes. */
export function medianCommitRoundTripMs(client: DynamoDBClient, table: string, samples: number, json: string): Promise<number> {
  const puts = commitInputs(table, WARM_UP + samples, json);
  return medianCallMs((i) => client.send(new PutItemCommand(puts[i])), samples);
}

/** Times each request in order with a default client (configured by the worker's environment); posts the times. */
const WORKER_PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DynamoDBClient, GetItemCommand, PutItemCommand } = require('@aws-sdk/client-dynamodb');
const client = new DynamoDBClient({});
const time = async (inputs, Command) => {
  const ms = [];
  for (const input of inputs) {
    const t0 = performance.now();
    await client.send(new Command(input));
    ms.push(performance.now() - t0);
  }
  return ms;
};
(async () => {
  const reads = await time(workerData.reads, GetItemCommand);
  const commits = await time(workerData.commits, PutItemCommand);
  client.destroy();
  parentPort.postMessage({ reads, commits });
})().catch((e) => parentPort.postMessage({ error: String(e) }));
`;

/**
 * The same two medians from a worker thread whose environment is `env` (the
 * engine's endpoints and credentials): a call as a function sandbox makes it.
 */
export async function workerRoundTripsMs(env: Readonly<Record<string, string>>, table: string, samples: number, json: string): Promise<{ read: number; commit: number }> {
  const workerData = { reads: Array.from({ length: WARM_UP + samples }, () => readInput(table)), commits: commitInputs(table, WARM_UP + samples, json) };
  const worker = new Worker(WORKER_PROBE, { eval: true, workerData, env: { ...process.env, ...env } });
  try {
    const out = await new Promise<{ reads: number[]; commits: number[]; error?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (out.error) throw new Error(`round-trip probe in a worker thread: ${out.error}`);
    return { read: median(out.reads.slice(WARM_UP)), commit: median(out.commits.slice(WARM_UP)) };
  } finally {
    await worker.terminate();
  }
}
