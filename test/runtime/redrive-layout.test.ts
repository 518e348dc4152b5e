/**
 * Redrive's part of the table layout (runtime/contract/table/) and of the runtime
 * (runtime/records/redrive-park.ts): the requests as DynamoDB gets them, and a parked event
 * that parses back into the invocation that parked it.
 */
import fc from 'fast-check';
import { parseEvent } from '../../runtime/entry/envelope';
import type { FanOutFrame } from '../../runtime/contract/ir';
import { parkedOf, redriveUntil } from '../../runtime/records/redrive-park';
import { resentEvent } from '../../runtime/contract/table';
import {
  decodeParked,
  decodeRedriveState,
  decodeRunRecord,
  type Item,
  parkedUpdate,
  parkKey,
  parkResent,
  parseKey,
  runFinish,
  runPark,
  redrivenDeadline,
  runInterruption,
  runRedrive,
  runRedriveDone,
  timedOutInstead,
} from '../../runtime/contract/table';
import type { Exec, Invocation } from '../../runtime/ports/execution';
import { defineWorkflow, seq } from '../support/harness';

const RUN = { workflow: 'W', workflowId: 'w-1' };
const NAME = 'a'.repeat(43);
const error = { node: 'B', state: 'B', error: 'States.Runtime', cause: 'bad' };
/** Every final write's condition ends with this: past its deadline a run can only time out. */
const BEFORE_DEADLINE = '(attribute_not_exists(dl) OR dl > :now)';

test('a parked item\'s key parses back; the item decodes to what was put', () => {
  fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9_.:-]{1,128}$/), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), (workflowId, invocation) => {
    expect(parseKey(parkKey({ workflow: 'W', workflowId }, invocation))).toEqual({ kind: 'park', workflow: 'W', workflowId, invocation });
  }));
  const parked = { functionName: 'fn-B', event: '{"unum":{}}', until: 1234 };
  const put = parkedUpdate(RUN, NAME, parked, 99);
  expect(put.ConditionExpression).toBeUndefined();
  // An update that leaves the generation that re-sent it (rb) as it is.
  expect(put.UpdateExpression).not.toContain('rb');
  const v = put.ExpressionAttributeValues;
  expect(decodeParked({ ...put.Key, fn: v[':fn']!, ev: v[':ev']!, ru: v[':ru']! })).toEqual(parked);
  expect(decodeParked({ ...put.Key, fn: v[':fn']!, ev: v[':ev']!, ru: v[':ru']!, rb: { N: '2' } })).toEqual({ ...parked, resentBy: 2 });
  expect(decodeParked(undefined)).toBeUndefined();
});

test('a redrive marks a parked item with its generation: only an existing item, never lowering it', () => {
  expect(parkResent(RUN, NAME, 3)).toMatchObject({
    Key: { pk: { S: parkKey(RUN, NAME) } },
    UpdateExpression: 'SET rb = :g',
    ConditionExpression: 'attribute_exists(#pk) AND (attribute_not_exists(rb) OR rb < :g)',
    ExpressionAttributeValues: { ':g': { N: '3' } },
  });
});

test('a re-sent event carries the generation, an envelope in its header, a start request beside its input', () => {
  expect(JSON.parse(resentEvent('{"unum":{"node":"B","redrive":1}}', 2))).toEqual({ unum: { node: 'B', redrive: 2 } });
  expect(JSON.parse(resentEvent('{"workflowId":"w-1","input":null}', 1))).toEqual({ workflowId: 'w-1', input: null, redrive: 1 });
});

test('a FAILED write parks the failing invocation in the same update, or marks the run not redrivable', () => {
  const parked = runFinish(RUN, { status: 'FAILED', error, redrive: { redo: NAME } }, '2026-11-26T00:00:00.000Z', 99);
  expect(parked.UpdateExpression).toMatch(/ ADD rd :redo$/);
  expect(parked.ExpressionAttributeValues[':redo']).toEqual({ SS: [NAME] });
  expect(parked.ConditionExpression).toBe(`attribute_not_exists(#pk) OR (#s = :running AND ${BEFORE_DEADLINE})`);
  const never = runFinish(RUN, { status: 'FAILED', error, redrive: { never: 'Fail state F' } }, '2026-11-26T00:00:00.000Z', 99);
  expect(never.UpdateExpression).not.toContain('ADD');
  expect(Object.values(never.ExpressionAttributeValues)).toContainEqual({ S: 'Fail state F' });
  expect(runFinish(RUN, { status: 'FAILED', error }, '2026-11-26T00:00:00.000Z', 99).UpdateExpression).not.toMatch(/ADD|nr/);
});

test('a failure checked not stale at a redrive count is written only while the record has that count', () => {
  const unredriven = runFinish(RUN, { status: 'FAILED', error, redrive: { redo: NAME, redrives: 0 } }, '2026-11-26T00:00:00.000Z', 99);
  expect(unredriven.ConditionExpression).toBe(`attribute_not_exists(#pk) OR ((#s = :running AND attribute_not_exists(rc)) AND ${BEFORE_DEADLINE})`);
  expect(unredriven.ExpressionAttributeValues).not.toHaveProperty(':rc');
  const redriven = runFinish(RUN, { status: 'FAILED', error, redrive: { redo: NAME, redrives: 2 } }, '2026-11-26T00:00:00.000Z', 99);
  expect(redriven.ConditionExpression).toBe(`attribute_not_exists(#pk) OR ((#s = :running AND rc = :rc) AND ${BEFORE_DEADLINE})`);
  expect(redriven.ExpressionAttributeValues[':rc']).toEqual({ N: '2' });
});

test('a park adds to a FAILED, ABORTED or TIMED_OUT run\'s set unless it cannot be redriven; a redrive is conditional on the status and count it read', () => {
  const park = runPark(RUN, NAME);
  expect(park).toMatchObject({ UpdateExpression: 'ADD rd :i', ConditionExpression: '#s IN (:rs0, :rs1, :rs2) AND attribute_not_exists(nr)' });
  expect([':rs0', ':rs1', ':rs2'].map((v) => park.ExpressionAttributeValues[v]?.S)).toEqual(['FAILED', 'ABORTED', 'TIMED_OUT']);
  const first = runRedrive(RUN, { status: 'FAILED', redrives: 0, parked: 2, at: '2026-11-26T00:00:00.000Z' });
  expect(first.UpdateExpression).toBe('SET #s = :running, rc = :next, rda = :at, rdg = rd REMOVE rd, finishedAt, #e');
  expect(first.ConditionExpression).toBe('#s = :status AND attribute_not_exists(rc) AND size(rd) = :k AND attribute_not_exists(nr)');
  expect(first.ExpressionAttributeValues).toMatchObject({ ':status': { S: 'FAILED' }, ':next': { N: '1' }, ':k': { N: '2' } });
  const third = runRedrive(RUN, { status: 'ABORTED', redrives: 2, parked: 1, at: '2026-11-26T00:00:00.000Z' });
  expect(third.ConditionExpression).toContain('rc = :rc');
  expect(third.ExpressionAttributeValues).toMatchObject({ ':status': { S: 'ABORTED' }, ':rc': { N: '2' } });
  expect(runRedriveDone(RUN, 3)).toMatchObject({ UpdateExpression: 'REMOVE rdg', ConditionExpression: 'rc = :rc' });
});

test('a redrive gives a run with a timeout a new deadline, its timeout counting from the redrive (Step Functions resets it)', () => {
  const at = '2026-11-26T00:00:00.000Z';
  const started = { status: 'TIMED_OUT' as const, startedAt: '2026-11-25T00:00:00.000Z', deadline: Date.parse('2026-11-25T01:00:00.000Z') };
  expect(redrivenDeadline(started, at)).toBe(Date.parse('2026-11-26T01:00:00.000Z'));
  // Redriven before: the timeout counts from that redrive, not from the start.
  expect(redrivenDeadline({ ...started, redrivenAt: '2026-11-25T12:00:00.000Z', deadline: Date.parse('2026-11-25T13:00:00.000Z') }, at)).toBe(Date.parse('2026-11-26T01:00:00.000Z'));
  expect(redrivenDeadline({ status: 'ABORTED' }, at)).toBeUndefined();
  const write = runRedrive(RUN, { status: 'TIMED_OUT', redrives: 0, parked: 1, at, deadline: Date.parse('2026-11-26T01:00:00.000Z') });
  expect(write.UpdateExpression).toBe('SET #s = :running, rc = :next, rda = :at, rdg = rd, dl = :dl REMOVE rd, finishedAt, #e');
  expect(write.ExpressionAttributeValues[':dl']).toEqual({ N: String(Date.parse('2026-11-26T01:00:00.000Z')) });
});

test('a stop ends any RUNNING run; a deadline ends one only while the record has that deadline (a redrive may have replaced the one the old schedule fires for)', () => {
  const end = { node: '', error: 'States.Timeout', cause: 'late' };
  expect(runInterruption(RUN, { status: 'ABORTED', error: end }, '2026-11-26T00:00:00.000Z').ConditionExpression).toBe('#s = :running');
  const timedOut = runInterruption(RUN, { status: 'TIMED_OUT', error: end, deadline: 1234 }, '2026-11-26T00:00:00.000Z');
  expect(timedOut.ConditionExpression).toBe('#s = :running AND dl = :dl');
  expect(timedOut.ExpressionAttributeValues[':dl']).toEqual({ N: '1234' });
});

test('a run past a deadline a redrive gave it times out with its own timeout, counted from that redrive', () => {
  const item: Item = { pk: { S: 'run#W#w-1' }, status: { S: 'RUNNING' }, startedAt: { S: '2026-11-25T00:00:00.000Z' }, rda: { S: '2026-11-25T12:00:00.000Z' }, dl: { N: String(Date.parse('2026-11-25T13:00:00.000Z')) } };
  expect(timedOutInstead(item)?.error.cause).toBe('the run did not finish within its timeout of 3600 s');
});

test('a run record decodes its redrive count and time, and what a redrive reads', () => {
  const item: Item = {
    pk: { S: 'run#W#w-1' }, status: { S: 'RUNNING' }, rc: { N: '2' }, rda: { S: '2026-11-26T00:00:00.000Z' }, rdg: { SS: [NAME] },
  };
  expect(decodeRunRecord(item)).toMatchObject({ status: 'RUNNING', redriveCount: 2, redrivenAt: '2026-11-26T00:00:00.000Z' });
  expect(decodeRedriveState(item)).toEqual({ redo: [], redoing: [NAME], redrives: 2 });
  expect(decodeRedriveState({ status: { S: 'FAILED' }, nr: { S: 'why' } })).toEqual({ redo: [], redoing: [], redrives: 0, never: 'why' });
});

describe('a parked event is the invocation that parked', () => {
  const nodes = defineWorkflow('W', { A: { fn: (x: number) => x, instructions: [seq('B')] }, B: { fn: (x: number) => x, instructions: [] } });
  const exec = (node: 'A' | 'B', invocation: Invocation): Exec =>
    ({ rt: { ir: nodes[node].ir }, invocation, ctx: { awsRequestId: 'req', functionName: `fn-${node}` }, run: { workflow: 'W', workflowId: invocation.workflowId } }) as unknown as Exec;
  const ctx = { awsRequestId: 'another-request' };

  test('an envelope, with its frames, parent, lease and redrive generation', () => {
    const frame: FanOutFrame = { index: 1, size: 3, kind: 'map', iteration: 0, origin: `ckpt#${NAME}` };
    const invocation: Invocation = { workflowId: 'w-1', iteration: 2, frames: [frame], input: { ref: `ckpt#${NAME}` }, parent: `ckpt#${NAME}`, lease: 5000, redrive: 2, start: false };
    const p = parkedOf(exec('B', invocation));
    expect(p.functionName).toBe('fn-B');
    expect(parseEvent(JSON.parse(p.event), nodes.B.ir, ctx)).toEqual(invocation);
    expect(p.until).toBe(redriveUntil(5000, nodes.B.ir.settings));
  });

  test('a start, as a start request naming its run (a raw start ran under a request id a new invoke would not keep)', () => {
    const invocation: Invocation = { workflowId: 'req', iteration: 0, frames: [], input: { value: { n: 1 } }, start: true };
    expect(parseEvent(JSON.parse(parkedOf(exec('A', invocation)).event), nodes.A.ir, ctx)).toEqual(invocation);
    const resent: Invocation = { ...invocation, redrive: 1 };
    expect(parseEvent(JSON.parse(parkedOf(exec('A', resent)).event), nodes.A.ir, ctx)).toEqual(resent);
  });
});
