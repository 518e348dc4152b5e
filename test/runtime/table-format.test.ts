/**
 * The table's format version (runtime/contract/table/encoding.ts `TABLE_FORMAT`):
 * items the previous unum-cdk wrote (format 1, no `fv`) read as before, items
 * the runtime writes carry their format, and an item of a newer format is
 * refused, naming its key and both formats, never misread.
 */
import { UnumFormatError } from '../../runtime/contract/errors';
import {
  TABLE_FORMAT,
  checkpointPut,
  decodeCheckpoint,
  decodeParked,
  decodeRedriveState,
  decodeRunRecord,
  decodeTaskWait,
  formatOf,
  type Item,
  parkedUpdate,
  runFinish,
  runRejection,
  runStart,
  taskWaitPut,
} from '../../runtime/contract/table';

const INV = 'a'.repeat(43);
const DEPLOYMENT = `d${'c'.repeat(20)}`;

/** Items exactly as the runtime before deployment pinning (table format 1) wrote them. */
const FORMAT_1 = {
  running: { pk: { S: 'run#W#w-1' }, ttl: { N: '99' }, runs: { S: 'W' }, runsSk: { S: '2026-11-22T00:00:00.000Z#w-1' }, status: { S: 'RUNNING' }, startedAt: { S: '2026-11-22T00:00:00.000Z' }, dl: { N: '1790000000000' } },
  failed: {
    pk: { S: 'run#W#w-2' },
    ttl: { N: '99' },
    runs: { S: 'W' },
    runsSk: { S: '2026-11-22T00:00:00.000Z#w-2' },
    status: { S: 'FAILED' },
    startedAt: { S: '2026-11-22T00:00:00.000Z' },
    finishedAt: { S: '2026-11-22T00:00:01.000Z' },
    error: { M: { node: { S: 'B' }, state: { S: 'B' }, error: { S: 'TypeError' }, cause: { S: 'bad' } } },
    rd: { SS: [INV] },
    rc: { N: '1' },
    rda: { S: '2026-11-22T00:00:00.500Z' },
  },
  checkpoint: { pk: { S: `ckpt#${INV}` }, ttl: { N: '99' }, v: { S: '{"a":1}' }, c: { N: '0' } },
  parked: { pk: { S: `park#W#w-2#${INV}` }, fn: { S: 'arn:aws:lambda:us-east-1:1:function:stack-wf-B' }, ev: { S: '{"unum":{"v":2}}' }, ru: { N: '1000' }, ttl: { N: '99' }, rb: { N: '1' } },
  taskWait: { pk: { S: `task#${INV}` }, ttl: { N: '99' }, sec: { S: 's'.repeat(43) }, in: { S: '{"x":1}' }, cx: { S: '{"iteration":0,"fanOut":[]}' }, at: { N: '1700000000000' }, hb: { N: '2' } },
} satisfies Record<string, Item>;

test('records the previous runtime wrote (format 1, no format attribute) read as before', () => {
  for (const item of Object.values(FORMAT_1)) expect(formatOf(item)).toBe(1);
  expect(decodeRunRecord(FORMAT_1.running)).toEqual({ status: 'RUNNING', startedAt: '2026-11-22T00:00:00.000Z', deadline: 1790000000000 });
  expect(decodeRunRecord(FORMAT_1.failed)).toEqual({
    status: 'FAILED',
    startedAt: '2026-11-22T00:00:00.000Z',
    finishedAt: '2026-11-22T00:00:01.000Z',
    error: { node: 'B', state: 'B', error: 'TypeError', cause: 'bad' },
    redriveCount: 1,
    redrivenAt: '2026-11-22T00:00:00.500Z',
  });
  expect(decodeRedriveState(FORMAT_1.failed)).toEqual({ redo: [INV], redoing: [], redrives: 1 });
  expect(decodeCheckpoint(FORMAT_1.checkpoint)).toEqual({ json: '{"a":1}', catchIndex: 0, ttl: 99 });
  expect(decodeParked(FORMAT_1.parked)).toEqual({ functionName: 'arn:aws:lambda:us-east-1:1:function:stack-wf-B', event: '{"unum":{"v":2}}', until: 1000, resentBy: 1 });
  expect(decodeTaskWait(FORMAT_1.taskWait)).toEqual({ secret: 's'.repeat(43), input: '{"x":1}', context: '{"iteration":0,"fanOut":[]}', startedAt: 1700000000000, beats: 2 });
});

test('items the runtime creates carry its format; the run record its deployment', () => {
  const start = runStart({ workflow: 'W', workflowId: 'w-1' }, '2026-11-22T00:00:00.000Z', 99, undefined, DEPLOYMENT).Item;
  expect(formatOf(start)).toBe(TABLE_FORMAT);
  expect(decodeRunRecord(start)).toEqual({ status: 'RUNNING', startedAt: '2026-11-22T00:00:00.000Z', deployment: DEPLOYMENT });
  // An IR no construct deployed (compiled only) records no deployment.
  expect(decodeRunRecord(runStart({ workflow: 'W', workflowId: 'w-1' }, 't', 99, undefined, '').Item)).not.toHaveProperty('deployment');
  const error = { node: 'A', error: 'UnumEventError', cause: 'c' };
  expect(formatOf(runRejection({ workflow: 'W', workflowId: 'w-1' }, error, 't', 99).Item)).toBe(TABLE_FORMAT);
  expect(formatOf(checkpointPut(`ckpt#${INV}`, '1', undefined, 99).Item)).toBe(TABLE_FORMAT);
  expect(formatOf(taskWaitPut(INV, { secret: 's', input: '1', context: '{}', startedAt: 1, beats: 0 }, 99).Item)).toBe(TABLE_FORMAT);
  const park = parkedUpdate({ workflow: 'W', workflowId: 'w-1' }, INV, { functionName: 'f', event: '{}', until: 1 }, 99);
  expect(park.UpdateExpression).toContain('#fv = :fv');
  expect(park.ExpressionAttributeValues[':fv']).toEqual({ N: String(TABLE_FORMAT) });
  // A final write that creates the record gives it this format; one on an older record keeps that record's.
  const finish = runFinish({ workflow: 'W', workflowId: 'w-1' }, { status: 'SUCCEEDED', result: '1' }, 't', 99);
  expect(finish.UpdateExpression).toContain('#fv = if_not_exists(#fv, :fv)');
  expect(finish.ExpressionAttributeNames?.['#fv']).toBe('fv');
});

test.each([
  ['a run record', FORMAT_1.running, decodeRunRecord],
  ['a run record read for a redrive', FORMAT_1.failed, decodeRedriveState],
  ['a checkpoint', FORMAT_1.checkpoint, decodeCheckpoint],
  ['a parked invocation', FORMAT_1.parked, decodeParked],
  ['a callback wait', FORMAT_1.taskWait, decodeTaskWait],
])('%s of a newer format is refused with UnumFormatError naming its key and both formats', (_, item, decode: (item: Item) => unknown) => {
  const newer: Item = { ...item, fv: { N: String(TABLE_FORMAT + 1) } };
  expect(() => decode(newer)).toThrow(UnumFormatError);
  expect(() => decode(newer)).toThrow(`table item ${item.pk.S} is of format ${TABLE_FORMAT + 1}, written by a newer unum-cdk; this runtime reads formats up to ${TABLE_FORMAT}`);
  expect(() => decode({ ...item, fv: { N: String(TABLE_FORMAT) } })).not.toThrow();
});
