import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { checkRun, committedValues, leftoverNotes, runRecordWrites, successorInputViolations } from '../../lib/local/checker';
import type { CallFault, ExecutionInfo } from '../../lib/local/fault-plan';
import type { CallRecord } from '../../lib/local/traffic';

const exec = (identity: string, attempt = 1): ExecutionInfo => ({ executionId: `${identity}/${attempt}`, functionName: 'f', requestId: 'r', attempt, maxAttempts: 3, identity, workflowId: 'w', duplicate: false });
let index = 0;
const rec = (identity: string, operation: string, label: string, request: unknown, status: number | undefined, fault: CallFault = 'none', attempt = 1): CallRecord => ({
  exec: exec(identity, attempt),
  call: { service: operation === 'Invoke' ? 'lambda' : 'dynamodb', operation, label, occurrence: 0, index: index++ },
  request: JSON.stringify(request),
  fault,
  at: index,
  ...(status === undefined ? {} : { status }),
});

const good: CallRecord[] = [
  rec('A@start', 'PutItem', 'PutItem(run)', { Item: { pk: { S: 'run#W#w' } } }, 200),
  rec('A@start', 'PutItem', 'PutItem(ckpt)', { Item: { pk: { S: 'ckpt#a' }, v: { S: '{"n":0.5}' } } }, 200),
  rec('A@start', 'Invoke', 'Invoke(B@0[])', { unum: { node: 'B', inputs: [{ value: { n: 0.5 } }], lease: 100 } }, undefined, 'crash-after'),
  rec('A@start', 'PutItem', 'PutItem(ckpt)', { Item: { pk: { S: 'ckpt#a' }, v: { S: '{"n":0.9}' } } }, 400, 'none', 2),
  // The retry holds a later lease: no input of B.
  rec('A@start', 'Invoke', 'Invoke(B@0[])', { unum: { inputs: [{ value: { n: 0.5 } }], node: 'B', lease: 105 } }, 202, 'none', 2),
  rec('B@0[]', 'UpdateItem', 'UpdateItem(run)', { Key: { pk: { S: 'run#W#w' } } }, 200),
  rec('B@0[]', 'UpdateItem', 'UpdateItem(run)', { Key: { pk: { S: 'run#W#w' } } }, 400, 'none', 2),
];
const record = { workflowId: 'w', status: 'SUCCEEDED' as const, result: { n: 0.5 } };
const items: Array<Record<string, AttributeValue>> = [{ pk: { S: 'run#W#w' }, ttl: { N: '1' } }, { pk: { S: 'ckpt#a' }, t: { N: '1' }, ttl: { N: '1' } }];

test('a correct run: one creation, one finish, identical successor inputs (key order and lease ignored), first writer wins', () => {
  expect(runRecordWrites(good)).toEqual({ created: 1, finished: 1 });
  expect(successorInputViolations(good)).toEqual([]);
  expect(committedValues(good).get('A@start')).toEqual({ n: 0.5 });
  expect(checkRun({ record, calls: good, items, untimed: [], expectation: { kind: 'derived', expected: (c) => c.get('A@start') ?? null } })).toEqual([]);
});

test('a second result, diverging successor inputs, a wrong result and untimed leftovers are violations', () => {
  const bad = [
    ...good,
    rec('A@start', 'Invoke', 'Invoke(B@0[])', { unum: { node: 'B', inputs: [{ value: { n: 0.9 } }] } }, 202, 'none', 3),
    rec('B@0[]', 'UpdateItem', 'UpdateItem(run)', { Key: { pk: { S: 'run#W#w' } } }, 200, 'none', 3),
  ];
  const shard = { pk: { S: 'fanin#j#0#0' } };
  // Found among the run's writes and by the table scan: reported once. An item no call of the run wrote is found by the scan.
  const untimed = [shard, { pk: { S: 'run#other' }, status: { S: 'FAILED' } }];
  const v = checkRun({ record, calls: bad, items: [...items, shard], untimed, expectation: { kind: 'result', result: { n: 0.9 } } });
  expect(v).toEqual([
    'invariant 1: run record finished 2 times',
    expect.stringMatching(/^invariant 2: Invoke\(B@0\[\]\) was invoked with 2 different inputs/),
    expect.stringMatching(/^invariant 3: result/),
    'invariant 4: fanin#j#0#0 was left without a TTL',
    'invariant 4: run#other was left without a TTL',
  ]);
});

test('a fan-in shard left to its TTL is a note, naming who recreated it after the join deleted it', () => {
  const calls = [
    rec('J@0[]', 'BatchWriteItem', 'BatchWriteItem(fanin)', { RequestItems: { t: [{ DeleteRequest: { Key: { pk: { S: 'fanin#j#0#0' } } } }] } }, 200),
    rec('O@start', 'UpdateItem', 'UpdateItem(fanin)', { Key: { pk: { S: 'fanin#j#0#0' } }, UpdateExpression: 'SET n = :n' }, 200, 'none', 2),
  ];
  expect(leftoverNotes([{ pk: { S: 'fanin#j#0#0' }, ttl: { N: '9' } }], calls)).toEqual(['fan-in shard fanin#j#0#0 left to its TTL (recreated by O@start attempt 2 after the join deleted it)']);
});
