import { plainStepMs, runRecordServiceMs, unumStepSegments } from '../../bench/step-breakdown';
import type { CallRecord } from '../../lib/local/traffic';

/** A call of execution `step` received at `received` and answered `serviceMs` later (proxy clock). */
const call = (step: number, operation: string, label: string, received: number, serviceMs: number): CallRecord => ({
  exec: { executionId: `e${step}`, functionName: `f${step}`, requestId: 'r', attempt: 1, maxAttempts: 3, identity: `S${step}@0[]`, workflowId: 'w', duplicate: false },
  call: { service: operation === 'Invoke' ? 'lambda' : 'dynamodb', operation, label, occurrence: 0, index: 0 },
  request: '{}',
  fault: 'none',
  at: Math.floor(received),
  receivedMs: received,
  answeredMs: received + serviceMs,
  status: 200,
});

/** A 4-step unum chain: the ends write the run record, every step reads, commits and (but the last) invokes. */
const unumChain: CallRecord[] = [
  call(0, 'PutItem', 'PutItem(run)', 0, 2), call(0, 'BatchGetItem', 'BatchGetItem(ckpt,run)', 3, 1), call(0, 'PutItem', 'PutItem(ckpt)', 5, 2), call(0, 'Invoke', 'Invoke(S1@0[])', 8, 0.1),
  call(1, 'BatchGetItem', 'BatchGetItem(ckpt,run)', 11, 1.5), call(1, 'PutItem', 'PutItem(ckpt)', 14, 2.5), call(1, 'Invoke', 'Invoke(S2@0[])', 18, 0.1),
  call(2, 'BatchGetItem', 'BatchGetItem(ckpt,run)', 20, 1), call(2, 'PutItem', 'PutItem(ckpt)', 22, 3), call(2, 'Invoke', 'Invoke(S3@0[])', 26, 0.1),
  call(3, 'BatchGetItem', 'BatchGetItem(ckpt,run)', 29, 1), call(3, 'PutItem', 'PutItem(ckpt)', 31, 2), call(3, 'UpdateItem', 'UpdateItem(run)', 34, 6),
];

test('an inner unum step splits into hand-off, read, sandbox, commit, sandbox; the ends are left out', () => {
  // Shuffled: the proxy's clock orders the calls, not the record order.
  const shuffled = [...unumChain].reverse();
  expect(unumStepSegments(shuffled)).toEqual([
    { handoff: 3, read: 1.5, readToCommit: 1.5, commit: 2.5, commitToInvoke: 1.5 },
    { handoff: 2, read: 1, readToCommit: 1, commit: 3, commitToInvoke: 1 },
  ]);
});

test('a unum step that makes other calls than a read, a commit and an invoke is an error naming them', () => {
  const extra = [...unumChain, call(1, 'UpdateItem', 'UpdateItem(run)', 16, 1)];
  expect(() => unumStepSegments(extra)).toThrow(/chain step 1: 4 calls \(BatchGetItem\(ckpt,run\), PutItem\(ckpt\), UpdateItem\(run\), Invoke\(S2@0\[\]\)\)/);
});

test('a plain step runs from its predecessor\'s invoke to its own; the run record is the ends\' service time', () => {
  const plain = [call(0, 'Invoke', 'Invoke(P1)', 1, 0.1), call(1, 'Invoke', 'Invoke(P2)', 4, 0.1), call(2, 'Invoke', 'Invoke(P3)', 6.5, 0.1)];
  expect(plainStepMs(plain)).toEqual([3, 2.5]);
  expect(runRecordServiceMs(unumChain)).toBe(8);
});
