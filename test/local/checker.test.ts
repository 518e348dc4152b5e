import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { checkRun, committedValues, runRecordWrites, successorInputViolations } from '../../lib/testing/checker';
import type { CallFault, ExecutionInfo } from '../../lib/local/fault-plan';
import { boundedMaps, mapConcurrencyViolations } from '../../lib/testing/map-concurrency';
import type { TimelineEntry } from '../../lib/local/timeline';
import type { NodeIR } from '../../runtime/contract/ir';
import type { CallRecord } from '../../lib/local/call-records';

const exec = (identity: string, attempt = 1): ExecutionInfo => ({ executionId: `${identity}/${attempt}`, functionName: 'f', requestId: 'r', attempt, maxAttempts: 3, identity, workflowId: 'w', duplicate: false });
let index = 0;
const rec = (identity: string, operation: string, label: string, request: unknown, status: number | undefined, fault: CallFault = 'none', attempt = 1): CallRecord => ({
  exec: exec(identity, attempt),
  call: { service: operation === 'Invoke' ? 'lambda' : operation === 'CreateSchedule' ? 'scheduler' : 'dynamodb', operation, label, occurrence: 0, index: index++ },
  request: JSON.stringify(request),
  fault,
  at: index,
  ...(status === undefined ? {} : { status }),
});

const good: CallRecord[] = [
  rec('A@start', 'PutItem', 'PutItem(run)', { Item: { pk: { S: 'run#W#w' } } }, 200),
  rec('A@start', 'PutItem', 'PutItem(ckpt)', { Item: { pk: { S: 'ckpt#a' }, v: { S: '{"n":0.5}' } } }, 200),
  rec('A@start', 'Invoke', 'Invoke(B@0[])', { unum: { node: 'B', inputs: [{ value: { n: 0.5 } }], lease: 100 }, mac: 'mac-of-lease-100' }, undefined, 'crash-after'),
  rec('A@start', 'PutItem', 'PutItem(ckpt)', { Item: { pk: { S: 'ckpt#a' }, v: { S: '{"n":0.9}' } } }, 400, 'none', 2),
  // The retry holds a later lease: no input of B.
  rec('A@start', 'Invoke', 'Invoke(B@0[])', { unum: { inputs: [{ value: { n: 0.5 } }], node: 'B', lease: 105 }, mac: 'mac-of-lease-105' }, 202, 'none', 2),
  rec('B@0[]', 'UpdateItem', 'UpdateItem(run)', { Key: { pk: { S: 'run#W#w' } }, UpdateExpression: 'SET #s = :v0, finishedAt = :v1' }, 200),
  rec('B@0[]', 'UpdateItem', 'UpdateItem(run)', { Key: { pk: { S: 'run#W#w' } }, UpdateExpression: 'SET #s = :v0, finishedAt = :v1' }, 400, 'none', 2),
  // A park for a redrive and a lease renewal write the record without finishing the run.
  rec('C@0[]', 'UpdateItem', 'UpdateItem(run)', { Key: { pk: { S: 'run#W#w' } }, UpdateExpression: 'ADD rd :i' }, 200),
  rec('C@0[]', 'UpdateItem', 'UpdateItem(run)', { Key: { pk: { S: 'run#W#w' } }, UpdateExpression: 'SET #ttl = :t' }, 200),
];
const record = { workflowId: 'w', status: 'SUCCEEDED' as const, result: { n: 0.5 } };
const items: Array<Record<string, AttributeValue>> = [{ pk: { S: 'run#W#w' }, ttl: { N: '1' } }, { pk: { S: 'ckpt#a' }, v: { S: '{"n":0.5}' }, ttl: { N: '1' } }];

test('a correct run: one creation, one finish, identical successor inputs (key order, lease and MAC ignored), first writer wins', () => {
  expect(runRecordWrites(good)).toEqual({ created: 1, finished: 1 });
  expect(successorInputViolations(good)).toEqual([]);
  expect(committedValues(good).get('A@start')).toEqual({ n: 0.5 });
  expect(checkRun({ record, calls: good, items, untimed: [], expectation: { kind: 'derived', expected: (c) => c.get('A@start') ?? null } })).toEqual([]);
});

test('invariant 2 covers wake-ups: a schedule delivers the same input as a direct invoke of its target, or it is a violation', () => {
  const schedule = (n: number) => ({ Name: 'x', Target: { Input: JSON.stringify({ unum: { node: 'W', inputs: [{ value: { n } }], lease: n } }) } });
  const invoke = rec('A@start', 'Invoke', 'Invoke(W@0[])', { unum: { node: 'W', inputs: [{ value: { n: 1 } }], lease: 7 } }, 202);
  expect(successorInputViolations([rec('A@start', 'CreateSchedule', 'CreateSchedule(W@0[])', schedule(1), 200), invoke])).toEqual([]);
  expect(successorInputViolations([rec('A@start', 'CreateSchedule', 'CreateSchedule(W@0[])', schedule(2), 409), invoke])).toEqual([expect.stringMatching(/^invariant 2: Invoke\(W@0\[\]\) was invoked with 2 different inputs/)]);
});

test('a second result, diverging successor inputs, a wrong result, deletions and untimed leftovers are violations', () => {
  const bad = [
    ...good,
    rec('A@start', 'Invoke', 'Invoke(B@0[])', { unum: { node: 'B', inputs: [{ value: { n: 0.9 } }] } }, 202, 'none', 3),
    rec('B@0[]', 'UpdateItem', 'UpdateItem(run)', { Key: { pk: { S: 'run#W#w' } }, UpdateExpression: 'SET #s = :v0, finishedAt = :v1' }, 200, 'none', 3),
    rec('B@0[]', 'BatchWriteItem', 'BatchWriteItem(ckpt)', { RequestItems: { t: [{ DeleteRequest: { Key: { pk: { S: 'ckpt#a' } } } }] } }, 200),
    rec('B@0[]', 'DeleteItem', 'DeleteItem(fanin)', { Key: { pk: { S: 'fanin#j#0#0' } } }, 200),
    // A user's item in another table (an effect's) is none of the layout's.
    rec('B@0[]', 'DeleteItem', 'DeleteItem(user)', { Key: { pk: { S: 'order-1' } } }, 200),
  ];
  const shard = { pk: { S: 'fanin#j#0#0' } };
  // Found among the run's writes and by the table scan: reported once. An item no call of the run wrote is found by the scan.
  const untimed = [shard, { pk: { S: 'run#other' }, status: { S: 'FAILED' } }];
  const v = checkRun({ record, calls: bad, items: [...items, shard], untimed, expectation: { kind: 'result', result: { n: 0.9 } } });
  expect(v).toEqual([
    'invariant 1: run record given a final status 2 times',
    expect.stringMatching(/^invariant 2: Invoke\(B@0\[\]\) was invoked with 2 different inputs/),
    expect.stringMatching(/^invariant 3: result/),
    'invariant 4: ckpt#a was deleted (garbage collection is by TTL alone)',
    'invariant 4: fanin#j#0#0 was deleted (garbage collection is by TTL alone)',
    'invariant 4: fanin#j#0#0 was left without a TTL',
    'invariant 4: run#other was left without a TTL',
  ]);
});

describe('invariant 6: never more than N items of a bounded Map running', () => {
  // Load fans out over Work -> Check (maxConcurrency 2), joining at Sum; Check is the tail.
  const nodeIr = (node: string, instructions: NodeIR['instructions'], inMap: boolean): NodeIR =>
    ({ node, instructions, ...(inMap ? { enclosingJoin: { node: 'Sum', tails: ['Check'] } } : {}) }) as NodeIR;
  const irs = [
    nodeIr('Load', [{ op: 'invoke', invoke: { kind: 'map', target: 'Work', join: 'Sum', itemsPath: '$', maxConcurrency: 2 } }], false),
    nodeIr('Work', [{ op: 'invoke', invoke: { kind: 'scalar', target: 'Check' } }], true),
    nodeIr('Check', [{ op: 'invoke', invoke: { kind: 'fanIn', target: 'Sum', size: 'frame', tail: 0, launch: { target: 'Work', maxConcurrency: 2 } } }], true),
    nodeIr('Sum', [{ op: 'succeed' }], false),
  ];
  const maps = boundedMaps(irs);
  const entry = (node: string, item: number, start: number): TimelineEntry => ({
    executionId: `${node}${item}`, functionName: `f-${node}`, node, workflowId: 'w', identity: `f-${node}@0[0.${item}]`, requestId: 'r', attempt: 1, duplicate: false, start, end: start + 5,
  });
  /** Item `item`'s tail records its arrival at `at` (and a duplicate of it later, which changes nothing). */
  const arrival = (item: number, at: number): CallRecord[] =>
    [at, at + 50].map((t) => ({
      ...rec(`f-Check@0[0.${item}]`, 'UpdateItem', 'UpdateItem(fanin)', { Key: { pk: { S: 'fanin#j#0#0' } }, UpdateExpression: 'ADD a :x' }, 200),
      exec: { ...exec(`f-Check@0[0.${item}]`), node: 'Check' },
      at: t,
    }));
  /** Items 0-3, each running 10 ms from `starts[i]` (Work, then Check), and arriving at the end. */
  const runOf = (starts: number[]) => ({
    timeline: starts.flatMap((s, i) => [entry('Work', i, s), entry('Check', i, s + 5)]),
    calls: starts.flatMap((s, i) => arrival(i, s + 10)),
  });

  test('the bounded Map, its nodes and how deep inside it they are, from the IR', () => {
    expect(maps).toEqual([{ join: 'Sum', maxConcurrency: 2, members: new Map([['Work', 0], ['Check', 0]]) }]);
  });

  test('items launched as earlier ones arrive are no violation, an item that starts as another arrives included', () => {
    const { timeline, calls } = runOf([0, 0, 10, 20]);
    expect(mapConcurrencyViolations(maps, timeline, calls)).toEqual([]);
    expect(checkRun({ record, calls: [...good, ...calls], items, untimed: [], expectation: { kind: 'result', result: { n: 0.5 } }, timeline, maps })).toEqual([]);
  });

  test('a third item started before either of the first two arrived is a violation', () => {
    const { timeline, calls } = runOf([0, 0, 9, 20]);
    expect(mapConcurrencyViolations(maps, timeline, calls)).toEqual(['invariant 6: 3 items of the Map joined at Sum ran at once (maxConcurrency 2) in ["Sum",[],0]']);
  });

  test('an item that never arrived keeps running: every item started after it counts against the bound', () => {
    const { timeline, calls } = runOf([0, 0, 10, 10]);
    expect(mapConcurrencyViolations(maps, timeline, calls)).toEqual([]);
    const lost = calls.filter((c) => !c.exec.identity.endsWith('[0.0]'));
    expect(mapConcurrencyViolations(maps, timeline, lost)).toEqual([expect.stringMatching(/^invariant 6: 3 items/)]);
  });

  test('items of different runs of the Map (another loop iteration) are counted apart', () => {
    const first = runOf([0, 0]);
    const second = runOf([1, 1]);
    const again = (e: { identity: string }) => e.identity.replace('@0[0.', '@0[1.');
    const timeline = [...first.timeline, ...second.timeline.map((e) => ({ ...e, identity: again(e) }))];
    const calls = [...first.calls, ...second.calls.map((c) => ({ ...c, exec: { ...c.exec, identity: again(c.exec) } }))];
    expect(mapConcurrencyViolations(maps, timeline, calls)).toEqual([]);
  });
});
