/**
 * Errors of any size end a run with its terminal record (issue 14, finding 2),
 * on DynamoDB Local, whose item limit (400 KB) is the one that bites: a
 * 450 KB error message through the failure recorder and through the runtime's
 * own writes (run record, history, caught `{Error, Cause}`). And every record
 * the recorder writes expires (finding 5).
 */
import { createFailureRecorder } from '../../runtime/entry/failure-recorder';
import type { FailureRecord } from '../../runtime/contract/failure-record';
import { boundedError, ERROR_BOUNDS, truncated } from '../../runtime/contract/errors';
import { decodeHistoryEntry, decodeRunRecord, type Item, keyOf, parseKey, ttlOf } from '../../runtime/contract/table';
import { useTestDb } from '../support/dynamodb';
import { Driver, defineWorkflow, succeed } from '../support/harness';
import { sealed, testEnvelopeKey } from '../support/envelope-key';
import type { Envelope } from '../../runtime/contract/ir';

const db = useTestDb();
const HUGE = 'x'.repeat(450 * 1024);
const RETENTION = 86400;
const start = (input: unknown, workflowId: string): unknown => ({ workflowId, input });

function failureRecord(workflowId: string, node: string, errorMessage: string): FailureRecord {
  return {
    version: '1.0',
    requestContext: { requestId: 'req-1', functionArn: `arn:aws:lambda:us-east-1:1:function:fn-${node}:$LATEST`, condition: 'RetriesExhausted', approximateInvokeCount: 3 },
    // Sent by a function of the workflow (an envelope of format 1, from before envelopes named their workflow): sealed.
    requestPayload: sealed({ unum: { v: 1, workflowId, node, iteration: 0, fanOut: [], inputs: [{ value: 1 }] } } as unknown as Envelope),
    responsePayload: { errorType: 'Error', errorMessage },
  };
}

/** The run's history entries as stored. */
async function historyOf(table: string, workflowId: string): Promise<Item[]> {
  return (await db.scan(table)).filter((item) => {
    const key = parseKey(keyOf(item) ?? '');
    return key?.kind === 'history' && key.workflowId === workflowId && key.seq !== undefined;
  });
}

describe('truncated', () => {
  test('keeps text within the bound and says how long it was', () => {
    expect(truncated('short', 10)).toBe('short');
    const cut = truncated(HUGE, ERROR_BOUNDS.cause);
    expect(cut).toHaveLength(ERROR_BOUNDS.cause);
    expect(cut.startsWith('xxxx')).toBe(true);
    expect(cut.endsWith(`[truncated from ${HUGE.length} characters]`)).toBe(true);
    expect(truncated(cut, ERROR_BOUNDS.cause)).toBe(cut);
  });

  test('never splits a surrogate pair', () => {
    const emoji = '\u{1F600}'.repeat(40_000);
    const cut = truncated(emoji, ERROR_BOUNDS.cause);
    expect(cut.length).toBeLessThanOrEqual(ERROR_BOUNDS.cause);
    expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  test('bounds name, cause and node of an error', () => {
    const e = boundedError({ node: 'n'.repeat(300), error: 'E'.repeat(300), cause: HUGE });
    expect([e.node.length, e.error.length, e.cause.length]).toEqual([ERROR_BOUNDS.name, ERROR_BOUNDS.name, ERROR_BOUNDS.cause]);
    expect(boundedError({ error: 'E' })).toEqual({ error: 'E' });
  });
});

describe('the failure recorder', () => {
  test('records FAILED, with a bounded history entry, for a 450 KB error message', async () => {
    const { name, store } = await db.table();
    await store.startRun({ workflow: 'W', workflowId: 'big' }, new Date().toISOString(), 1);
    await createFailureRecorder(store, 'W', { runRetentionSeconds: RETENTION, history: true }, { envelopeKey: testEnvelopeKey })(failureRecord('big', 'B', HUGE));
    const item = (await db.run(name, 'big')) as Item;
    const run = decodeRunRecord(item);
    expect(run).toMatchObject({ status: 'FAILED', error: { node: 'B', error: 'Error' } });
    expect(run.error?.cause).toHaveLength(ERROR_BOUNDS.cause);
    const [entry] = await historyOf(name, 'big');
    expect(decodeHistoryEntry(1, entry as Item)?.error?.cause).toHaveLength(ERROR_BOUNDS.cause);
  });

  test('records FAILED whatever the error fields hold', async () => {
    const { name, store } = await db.table();
    const record = failureRecord('odd', 'B', '');
    const odd = { ...record, responsePayload: { errorType: 42, errorMessage: { nested: true } } } as unknown as FailureRecord;
    await createFailureRecorder(store, 'W', { runRetentionSeconds: RETENTION, history: true }, { envelopeKey: testEnvelopeKey })(odd);
    expect(decodeRunRecord((await db.run(name, 'odd')) as Item)).toMatchObject({ status: 'FAILED', error: { node: 'B', error: '42', cause: JSON.stringify({ errorType: 42, errorMessage: { nested: true } }) } });
  });

  test('every record it writes has a TTL, also a run record the entry never wrote', async () => {
    const { name, store } = await db.table();
    const before = Math.floor(Date.now() / 1000);
    await createFailureRecorder(store, 'W', { runRetentionSeconds: RETENTION, history: true }, { envelopeKey: testEnvelopeKey })(failureRecord('never-started', 'Entry', 'boom'));
    const items = await db.scan(name);
    expect(items.map((i) => parseKey(keyOf(i) ?? '')?.kind).sort()).toEqual(['history', 'history', 'run']);
    for (const item of items) expect(ttlOf(item)).toBeGreaterThanOrEqual(before + RETENTION);
    expect(decodeRunRecord((await db.run(name, 'never-started')) as Item).status).toBe('FAILED');
  });
});

describe('the runtime', () => {
  const huge = (name: string): Error => Object.assign(new Error(HUGE), { name });

  test('a terminal error with a 450 KB message ends the run FAILED in one execution', async () => {
    const { name, store } = await db.table();
    const nodes = defineWorkflow('bounds', {
      A: { fn: () => { throw huge('States.Runtime'); }, instructions: [succeed] },
    }, { history: true });
    const driver = new Driver(store, nodes);
    await driver.run(start(1, 'terminal'));
    expect(driver.executions).toBe(1);
    expect(driver.failures).toEqual([]);
    const run = decodeRunRecord((await db.run(name, 'terminal')) as Item);
    expect(run).toMatchObject({ status: 'FAILED', error: { node: 'A', error: 'States.Runtime' } });
    expect(run.error?.cause).toHaveLength(ERROR_BOUNDS.cause);
    const entries = (await historyOf(name, 'terminal')).map((item, i) => decodeHistoryEntry(i + 1, item));
    expect(entries.find((e) => e?.outcome === 'failed')?.error?.cause).toHaveLength(ERROR_BOUNDS.cause);
  });

  test('an Error with a non-string name still gets its FAILED record (through the recorder: not terminal)', async () => {
    const { name, store } = await db.table();
    const weird = Object.assign(new Error('m'), { name: 404 });
    const nodes = defineWorkflow('bounds', { A: { fn: () => { throw weird; }, instructions: [succeed] } });
    const driver = new Driver(store, nodes);
    await driver.run(start(1, 'weird'));
    expect(decodeRunRecord((await db.run(name, 'weird')) as Item)).toMatchObject({ status: 'FAILED', error: { error: '404', cause: expect.stringMatching(/^\{"errorType":404,"errorMessage":"m",/) } });
  });

  test('a caught error with a 450 KB message and a 1,000-character name goes to its catch handler', async () => {
    const { name, store } = await db.table();
    const nodes = defineWorkflow('bounds', {
      A: { fn: () => { throw huge('E'.repeat(1000)); }, instructions: [succeed], catch: [{ errors: ['States.ALL'], next: 'Handler', resultPath: '$.err' }] },
      Handler: { fn: (x: { err: { Error: string; Cause: string } }) => ({ error: x.err.Error.length, cause: x.err.Cause.length }), instructions: [succeed] },
    }, { history: true });
    const driver = new Driver(store, nodes);
    await driver.run(start({}, 'caught'));
    expect(driver.failures).toEqual([]);
    const run = decodeRunRecord((await db.run(name, 'caught')) as Item);
    expect(run).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify({ error: ERROR_BOUNDS.name, cause: ERROR_BOUNDS.cause }) });
  });
});
