import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { UnumClient } from '../../lib/client';
import { createTable, LocalDynamo, RuntimeWriter, startDynamo, WORKFLOW } from './support/dynamodb';

let dynamo: LocalDynamo;
let writer: RuntimeWriter;
let client: UnumClient;

beforeAll(async () => { dynamo = await startDynamo(); });
afterAll(async () => { await dynamo?.stop(); });
beforeEach(async () => {
  const table = await createTable(dynamo.client);
  writer = new RuntimeWriter(dynamo.client, table);
  // inspect never invokes: no Lambda client is needed.
  client = UnumClient.forWorkflow({ entryFunction: 'unused', table, workflow: WORKFLOW, dynamodb: dynamo.client });
});

const S = (s: string): AttributeValue => ({ S: s });
const N = (n: number): AttributeValue => ({ N: String(n) });
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/** A history entry item in the format of docs/deploying-and-operating.md, "Run history: the item format". */
function entry(node: string, inv: string, extra: Record<string, AttributeValue> = {}): Record<string, AttributeValue> {
  return { node: S(node), inv: S(inv), iteration: N(0), indexes: S('[]'), at: S('2026-11-22T00:00:00.000Z'), outcome: S('committed'), ...extra };
}

describe('inspect with a history log', () => {
  test('lists committed invocations in order, fan-in arrivals per shard tree, and failures', async () => {
    await writer.startRun('m');
    await writer.history('m', entry('Split', 'inv-split', { next: S('["Work"]'), fanInJoin: S('J1'), fanInSize: N(300), durationMs: N(12) }));
    await writer.history('m', entry('Work', 'inv-w0', { indexes: S('[0]') }));
    // At-least-once append: a retried execution logged the same commit again.
    await writer.history('m', entry('Work', 'inv-w0', { indexes: S('[0]') }));
    await writer.history('m', entry('Work', 'inv-w7', {
      indexes: S('[7]'), outcome: S('caught'), error: S(JSON.stringify({ error: 'Timeout', cause: 'slow upstream' })),
    }));
    await writer.history('m', entry('Pre', 'inv-pre', { fanInJoin: S('J2'), fanInSize: N(2) }));
    // 300 branches -> level-0 shards 0..2 of width 128: 128 + 50 + 0 arrived.
    await writer.shard('J1', 0, 0, 128, range(0, 128));
    await writer.shard('J1', 0, 1, 128, range(128, 178));
    await writer.shard('J1', 0, 2, 44, []);
    await writer.shard('J1', 1, 0, 3, [0]);
    // J2 finished: its join committed and deleted the shards.
    await writer.checkpoint('J2', [1, 2]);

    const report = await client.inspect('m');
    expect(report.run.status).toBe('RUNNING');
    expect(report.history!.map((e) => [e.seq, e.node, e.outcome, e.indexes])).toEqual([
      [1, 'Split', 'committed', []],
      [2, 'Work', 'committed', [0]],
      [4, 'Work', 'caught', [7]],
      [5, 'Pre', 'committed', []],
    ]);
    expect(report.history![0]).toEqual({
      seq: 1, node: 'Split', state: 'Split', invocation: 'inv-split', iteration: 0, indexes: [], at: '2026-11-22T00:00:00.000Z',
      outcome: 'committed', durationMs: 12, next: ['Work'], fanIn: { join: 'J1', size: 300 },
    });
    expect(report.fanIns).toEqual([
      { join: 'J1', origin: 'Split', arrived: 178, expected: 300, complete: false },
      { join: 'J2', origin: 'Pre', arrived: 2, expected: 2, complete: true },
    ]);
    expect(report.failures).toEqual([{ node: 'Work', state: 'Work', error: 'Timeout', cause: 'slow upstream', caught: true }]);
    // With a history, no scan unless asked.
    expect(report.table).toBeUndefined();
  });

  test('skips sequence gaps (append crashed after the counter update) and reports the run error', async () => {
    await writer.startRun('g');
    await writer.history('g', entry('A', 'a'));
    await writer.put({ pk: S('hist#wf#g'), n: N(3) }); // seq 2 was handed out but never written
    await writer.put({ pk: S('hist#wf#g#3'), ...entry('B', 'b', { outcome: S('committed') }) });
    await writer.fail('g', { node: 'C', error: 'Lambda.Unhandled', cause: 'retries exhausted' });
    const report = await client.inspect('g');
    expect(report.history!.map((e) => e.seq)).toEqual([1, 3]);
    expect(report.failures).toEqual([{ node: 'C', error: 'Lambda.Unhandled', cause: 'retries exhausted', caught: false }]);
  });

  test('a Map -> Fold fan-in of a finished run is complete: the fold\'s first step joined it, though its shards are gone', async () => {
    await writer.startRun('f');
    await writer.history('f', entry('Split', 'inv-split', { next: S('["Count"]'), fanInJoin: S('J-fold'), fanInSize: N(2) }));
    await writer.history('f', entry('Count', 'inv-c0', { indexes: S('[0]') }));
    await writer.history('f', entry('Count', 'inv-c1', { indexes: S('[1]') }));
    // The fold's steps are named with their fold index: no checkpoint has the join's own name.
    await writer.history('f', entry('Sum', 'inv-sum-0', { joined: S('J-fold'), next: S('["Sum"]') }));
    await writer.history('f', entry('Sum', 'inv-sum-1'));
    const report = await client.inspect('f');
    expect(report.fanIns).toEqual([{ join: 'J-fold', origin: 'Split', arrived: 2, expected: 2, complete: true }]);
    expect(report.history?.find((e) => e.invocation === 'inv-sum-0')?.joined).toBe('J-fold');
  });

  test('names the state where the run ended and the handler\'s retried attempts', async () => {
    await writer.startRun('s');
    await writer.history('s', entry('Charge', 'inv-charge', { attempts: N(3), retried: S('["GatewayBusy","GatewayBusy"]') }));
    await writer.history('s', entry('Fulfil.Join', 'inv-join', {
      state: S('Fulfil'), outcome: S('failed'), error: S(JSON.stringify({ state: 'Declined', error: 'Card.Declined', cause: 'expired' })),
    }));
    await writer.fail('s', { node: 'Fulfil.Join', state: 'Declined', error: 'Card.Declined', cause: 'expired' });
    const report = await client.inspect('s');
    expect(report.run.error).toEqual({ node: 'Fulfil.Join', state: 'Declined', error: 'Card.Declined', cause: 'expired' });
    expect(report.history?.map((e) => [e.node, e.state, e.attempts, e.retried])).toEqual([
      ['Charge', 'Charge', 3, ['GatewayBusy', 'GatewayBusy']],
      ['Fulfil.Join', 'Fulfil', undefined, undefined],
    ]);
    // The entry's error names the Fail state; the entry itself the state the node runs.
    expect(report.failures).toEqual([{ node: 'Fulfil.Join', state: 'Declined', error: 'Card.Declined', cause: 'expired', caught: false }]);
  });
});

describe('inspect without history', () => {
  test('scans the table: checkpoints, open fan-ins (a complete one left to its TTL is not), attributable when alone', async () => {
    await writer.startRun('solo');
    await writer.checkpoint('c1', 1);
    await writer.checkpoint('c2', 2);
    await writer.shard('Jx', 0, 0, 128, range(0, 100));
    await writer.shard('Jx', 0, 1, 72, range(128, 130));
    await writer.shard('Jx', 1, 0, 2, []);
    await writer.shard('Jdone', 0, 0, 2, [0, 1]);
    const report = await client.inspect('solo');
    expect(report.history).toBeUndefined();
    expect(report.table).toEqual({
      checkpoints: 2, runs: 1, runsInFlight: ['solo'], attributable: true,
      fanIns: [{ join: 'Jx', arrived: 102, expected: 200, complete: false }],
    });
  });

  test('is not attributable when other runs have records', async () => {
    await writer.startRun('one');
    await writer.startRun('two');
    await writer.succeed('two', 0);
    const report = await client.inspect('one');
    expect(report.table).toMatchObject({ runs: 2, runsInFlight: ['one'], attributable: false });
  });

  test('scan: false reads only the run record', async () => {
    const report = await client.inspect('nobody', { scan: false });
    expect(report).toEqual({ run: { workflowId: 'nobody', status: 'NOT_FOUND' }, fanIns: [], failures: [] });
  });
});
