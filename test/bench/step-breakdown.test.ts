import { plainStepMs, runRecordServiceMs, unumSteps } from '../../bench/step-breakdown';
import type { CallRecord } from '../../lib/local/call-records';

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

/**
 * A 4-step unum chain: the entry writes the run record and reads nothing, the
 * middle steps read the run record beside their commit and invoke, the last
 * commits into the run record.
 */
const unumChain: CallRecord[] = [
  call(0, 'PutItem', 'PutItem(run)', 0, 2), call(0, 'PutItem', 'PutItem(ckpt)', 5, 2), call(0, 'Invoke', 'Invoke(S1@0[])', 8, 0.1),
  call(1, 'GetItem', 'GetItem(run)', 11, 1.5), call(1, 'PutItem', 'PutItem(ckpt)', 11.5, 2.5), call(1, 'Invoke', 'Invoke(S2@0[])', 15, 0.1),
  // Step 2's put reaches the proxy before its read: the calls are sent together, in either order.
  call(2, 'PutItem', 'PutItem(ckpt)', 17, 2), call(2, 'GetItem', 'GetItem(run)', 17.5, 3.5), call(2, 'Invoke', 'Invoke(S3@0[])', 22, 0.1),
  call(3, 'UpdateItem', 'UpdateItem(run)', 24, 6),
];

test('an inner unum step splits into hand-off, its two calls (first arrival to later answer), sandbox; each call is timed alone too; the ends are left out', () => {
  // Shuffled: the proxy's clock orders the calls, not the record order.
  const shuffled = [...unumChain].reverse();
  expect(unumSteps(shuffled)).toEqual([
    { segments: { handoff: 3, calls: 3, toInvoke: 1 }, commitMs: 2.5, readMs: 1.5 },
    { segments: { handoff: 2, calls: 4, toInvoke: 1 }, commitMs: 2, readMs: 3.5 },
  ]);
});

test('a unum step that makes other calls than a read, a commit and an invoke is an error naming them', () => {
  const extra = [...unumChain, call(1, 'UpdateItem', 'UpdateItem(run)', 13, 1)];
  expect(() => unumSteps(extra)).toThrow(/chain step 1: 4 calls \(GetItem\(run\), PutItem\(ckpt\), UpdateItem\(run\), Invoke\(S2@0\[\]\)\)/);
});

test('a plain step runs from its predecessor\'s invoke to its own; the run record is the ends\' service time', () => {
  const plain = [call(0, 'Invoke', 'Invoke(P1)', 1, 0.1), call(1, 'Invoke', 'Invoke(P2)', 4, 0.1), call(2, 'Invoke', 'Invoke(P3)', 6.5, 0.1)];
  expect(plainStepMs(plain)).toEqual([3, 2.5]);
  expect(runRecordServiceMs(unumChain)).toBe(8);
});
