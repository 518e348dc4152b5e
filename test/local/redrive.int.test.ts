/**
 * Redrive on the local engine (issue 18 parts 4 and 7), with the fault-test
 * app's Chain3 (A draws a random nonce, B, C): B crashes on every attempt
 * until Lambda gives up, the failure recorder records the run FAILED and
 * parks B's event; once B is fixed, `redrive` (client and CLI) resumes the
 * run from B, under duplicate delivery of every event, and the result
 * carries A's committed nonce: A's step was reused, not run again.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { UnumClient } from '../../lib/client';
import { TableReader } from '../../lib/runs/table-reader';
import type { LocalEngine } from '../../lib/local/engine';
import type { CallFault, EventFault, ExecutionInfo } from '../../lib/local/fault-plan';
import { invocationName } from '../../runtime/contract/naming';
import { checkpointKey, decodeCheckpoint } from '../../runtime/contract/table';
import { useFaultEngine } from '../faults/fault-engine';
import { runClientCommandOnEngine } from '../support/cli';
import { ENGINE_TEST_TIMEOUT_MS, RUN_WAIT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const faultEngine = useFaultEngine();
let engine: LocalEngine;
let sdk: { lambda: LambdaClient; dynamodb: DynamoDBClient };

beforeAll(() => {
  engine = faultEngine();
  const options = { endpoint: engine.lambdaEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  sdk = { lambda: new LambdaClient(options), dynamodb: new DynamoDBClient({ ...options, endpoint: engine.dynamoEndpoint }) };
});

afterAll(() => {
  for (const c of Object.values(sdk ?? {})) c.destroy();
});

/** B crashes on every attempt while `failing`; with `duplicates`, every event is delivered twice at once and every success runs once more. */
class BrokenB {
  failing = true;

  constructor(private readonly duplicates: boolean) {}

  callFault(exec: ExecutionInfo): CallFault {
    return this.failing && exec.node === 'B' ? 'crash-before' : 'none';
  }

  eventFault(): EventFault {
    return { delayMs: 0, duplicate: this.duplicates ? 'concurrent' : 'none' };
  }

  rerunSucceeded(exec: ExecutionInfo): boolean {
    return this.duplicates && !exec.duplicate;
  }
}

/** A's committed output in run `workflowId`. */
async function committedA(workflowId: string): Promise<unknown> {
  const table = new TableReader(engine.dynamo, engine.workflow('Chain3').tableName);
  const key = checkpointKey(invocationName({ workflow: 'Chain3', workflowId }, 'A', 0, []));
  return JSON.parse(decodeCheckpoint(await table.get(key))?.json ?? 'null');
}

async function failedRun(workflowId: string, duplicates: boolean): Promise<{ plan: BrokenB; nonce: unknown }> {
  const plan = new BrokenB(duplicates);
  engine.setFaultPlan(workflowId, plan);
  engine.startRun('Chain3', { x: 1 }, { workflowId });
  expect(await engine.waitForRun('Chain3', workflowId, { timeoutMs: RUN_WAIT_MS })).toMatchObject({ status: 'FAILED', error: { node: 'B' } });
  await engine.idle(workflowId);
  const a = (await committedA(workflowId)) as { x: number; nonce: number };
  expect(a.x).toBe(2);
  plan.failing = false;
  return { plan, nonce: a.nonce };
}

test('the client redrives a run Lambda gave up on, under duplicates: A is reused, the run succeeds once, a second redrive is refused', async () => {
  const { nonce } = await failedRun('redrive-client', true);
  const wf = engine.workflow('Chain3');
  const client = UnumClient.forWorkflow({ entryFunction: wf.entryFunction, table: wf.tableName, workflow: 'Chain3', ...(wf.runControlFunction ? { runControlFunction: wf.runControlFunction } : {}), ...sdk });
  const r = await client.redrive('redrive-client');
  expect(r.redriveCount).toBe(1);
  expect(r.resumed).toBeGreaterThanOrEqual(1);
  expect(await client.wait('redrive-client', { timeoutMs: RUN_WAIT_MS })).toMatchObject({ status: 'SUCCEEDED', redriveCount: 1 });
  const result = (await client.result('redrive-client')) as { x: number; nonce: number };
  expect(result).toMatchObject({ x: 7, nonce });
  await engine.idle('redrive-client');
  expect(await committedA('redrive-client')).toEqual({ x: 2, nonce });
  await expect(client.redrive('redrive-client')).rejects.toThrow(/SUCCEEDED/);
});

test('`unum redrive` resumes a FAILED run and refuses one that is not', async () => {
  const { nonce } = await failedRun('redrive-cli', false);
  const unum = (...argv: string[]) => runClientCommandOnEngine(engine, ['redrive', 'redrive-cli', '--app', engine.app.dir, '--workflow', 'Chain3', ...argv]);
  const redriven = await unum('--json');
  expect(redriven.code).toBe(0);
  expect(JSON.parse(redriven.out)).toEqual({ workflowId: 'redrive-cli', redriveCount: 1, resumed: 1, deployment: engine.workflow('Chain3').deployment });
  expect(await engine.waitForRun('Chain3', 'redrive-cli', { timeoutMs: RUN_WAIT_MS })).toMatchObject({ status: 'SUCCEEDED', result: { x: 7, nonce } });
  const again = await unum();
  expect(again.code).toBe(1);
  expect(again.err).toMatch(/run redrive-cli \(SUCCEEDED\) cannot be redriven/);
});
