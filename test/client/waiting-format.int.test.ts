/**
 * `waitingTasks` of a run started by an older runtime: table format 3 begins
 * invocation names with the workflow's tag, a run keeps the format it started
 * with (its deployment's runtime runs it to the end), so a callback Task of a
 * run of format 2 still waiting after an upgrade is found under the name that
 * runtime gave it (its run record's `fv`), on DynamoDB Local.
 */
import { PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { waitingTasks } from '../../lib/client/waiting';
import { TableReader } from '../../lib/runs/table-reader';
import { invocationName } from '../../runtime/contract/naming';
import { type PutRequest, runKey, runStart, type RunRef, TABLE_FORMAT, taskWaitKey, taskWaitPut, workflowTag } from '../../runtime/contract/table';
import { decodeTaskToken } from '../../runtime/contract/task-token';
import { createTable, type LocalDynamo, startDynamo, WORKFLOW } from './support/dynamodb';

const DEPLOYMENT = 'd3333333333333333333c';
const hour = (): number => Math.floor(Date.now() / 1000) + 3600;
let dynamo: LocalDynamo;
let table: string;

beforeAll(async () => {
  dynamo = await startDynamo();
});
afterAll(() => dynamo.stop());
beforeEach(async () => {
  table = await createTable(dynamo.client);
});

const put = (request: PutRequest) => dynamo.client.send(new PutItemCommand({ TableName: table, ...request }));

/** A RUNNING run whose callback Task `Ask` waits, written as a runtime of table format `format` writes them. */
async function waitingRun(run: RunRef, format: number): Promise<string> {
  await put(runStart(run, new Date().toISOString(), hour(), undefined, DEPLOYMENT));
  const invocation = invocationName(run, 'Ask', 0, [], undefined, format);
  await put(taskWaitPut(invocation, { secret: 's'.repeat(43), input: '{}', context: '{"iteration":0,"fanOut":[]}', startedAt: Date.now(), beats: 0 }, hour()));
  if (format !== TABLE_FORMAT) {
    for (const key of [runKey(run), taskWaitKey(invocation)]) {
      await dynamo.client.send(new UpdateItemCommand({ TableName: table, Key: { pk: { S: key } }, UpdateExpression: 'SET fv = :f', ExpressionAttributeValues: { ':f': { N: String(format) } } }));
    }
  }
  return invocation;
}

test.each([2, TABLE_FORMAT])('a run of table format %i: its waiting Task is found under the name its runtime gave it', async (format) => {
  const run = { workflow: WORKFLOW, workflowId: `r${format}` };
  const invocation = await waitingRun(run, format);
  const waiting = await waitingTasks(new TableReader(dynamo.client, table), run, ['Ask']);
  expect(waiting.map((w) => [w.node, w.iteration])).toEqual([['Ask', 0]]);
  expect(decodeTaskToken(waiting[0].taskToken)).toMatchObject({ invocation, deployment: DEPLOYMENT });
});

test('the two formats name the same invocation differently: only the tagged name begins with the workflow tag', () => {
  const run = { workflow: WORKFLOW, workflowId: 'r' };
  const [untagged, tagged] = [invocationName(run, 'Ask', 0, [], undefined, 2), invocationName(run, 'Ask', 0, [])];
  expect(untagged).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(tagged.startsWith(workflowTag(WORKFLOW))).toBe(true);
  expect(untagged.startsWith(workflowTag(WORKFLOW))).toBe(false);
});
