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
  runRedrive,
  runRedriveDone,
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

test('a park adds to a FAILED run\'s set unless it cannot be redriven; a redrive is conditional on the count it read', () => {
  expect(runPark(RUN, NAME)).toMatchObject({ UpdateExpression: 'ADD rd :i', ConditionExpression: '#s = :failed AND attribute_not_exists(nr)' });
  const first = runRedrive(RUN, 0, 2, '2026-11-26T00:00:00.000Z');
  expect(first.UpdateExpression).toBe('SET #s = :running, rc = :next, rda = :at, rdg = rd REMOVE rd, finishedAt, #e');
  expect(first.ConditionExpression).toBe('#s = :failed AND attribute_not_exists(rc) AND size(rd) = :k AND attribute_not_exists(nr)');
  expect(first.ExpressionAttributeValues[':next']).toEqual({ N: '1' });
  expect(first.ExpressionAttributeValues[':k']).toEqual({ N: '2' });
  const third = runRedrive(RUN, 2, 1, '2026-11-26T00:00:00.000Z');
  expect(third.ConditionExpression).toContain('rc = :rc');
  expect(third.ExpressionAttributeValues[':rc']).toEqual({ N: '2' });
  expect(runRedriveDone(RUN, 3)).toMatchObject({ UpdateExpression: 'REMOVE rdg', ConditionExpression: 'rc = :rc' });
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
