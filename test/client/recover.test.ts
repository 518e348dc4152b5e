/**
 * What `recover` replays for each kind of dead letter (the recorder's
 * destination record around the failed invocation's), without AWS: the
 * event, the function, and why a message is kept instead. The whole path on
 * the local engine is test/local/outage.test.ts.
 */
import { replayOf } from '../../lib/client/recover';

const FN = 'arn:aws:lambda:us-east-1:123456789012:function:stack-wf-B';

/** A dead letter: Lambda's record of the failed recorder invocation, whose event was the record of the failed node invocation. */
function deadLetter(requestPayload: unknown, options: { functionArn?: string; requestId?: string } = {}): string {
  const failed = {
    version: '1.0',
    requestContext: { requestId: options.requestId ?? 'req-7', functionArn: options.functionArn ?? `${FN}:$LATEST`, condition: 'RetriesExhausted', approximateInvokeCount: 3 },
    requestPayload,
    responsePayload: { errorType: 'TimeoutError', errorMessage: 'socket hang up' },
  };
  return JSON.stringify({
    version: '1.0',
    requestContext: { requestId: 'rec-1', functionArn: 'arn:aws:lambda:us-east-1:123456789012:function:stack-wf-unum-failure:$LATEST', condition: 'RetriesExhausted', approximateInvokeCount: 3 },
    requestPayload: failed,
    responsePayload: { errorType: 'ProvisionedThroughputExceededException', errorMessage: 'slow down' },
  });
}

const envelope = { unum: { v: 1, workflowId: 'run-1', node: 'B', iteration: 0, fanOut: [], inputs: [{ value: 1 }] } };

test('an envelope is replayed as it was, on the unqualified function', () => {
  expect(replayOf(deadLetter(envelope), 'W')).toEqual({
    workflowId: 'run-1',
    node: 'B',
    functionArn: FN,
    event: envelope,
    why: 'TimeoutError after 3 attempts; the recorder failed with ProvisionedThroughputExceededException',
  });
});

test('a qualifier other than $LATEST is kept', () => {
  expect(replayOf(deadLetter(envelope, { functionArn: `${FN}:live` }), 'W')).toMatchObject({ functionArn: FN, qualifier: 'live' });
});

test('a start keeps its run id: an explicit one as it was, one without an id or a raw input as a start request naming the run', () => {
  expect(replayOf(deadLetter({ workflowId: 'run-2', input: { a: 1 } }), 'W')).toMatchObject({ workflowId: 'run-2', event: { workflowId: 'run-2', input: { a: 1 } } });
  expect(replayOf(deadLetter({ input: { a: 1 } }), 'W')).toMatchObject({ workflowId: 'req-7', event: { input: { a: 1 }, workflowId: 'req-7' } });
  expect(replayOf(deadLetter({ a: 1 }), 'W')).toMatchObject({ workflowId: 'req-7', event: { workflowId: 'req-7', input: { a: 1 } } });
  expect(replayOf(deadLetter([1, 2]), 'W')).toMatchObject({ workflowId: 'req-7', event: { workflowId: 'req-7', input: [1, 2] } });
  // An object with `input` and other keys is a malformed start request (the entry rejects it): it names no run to replay.
  expect(replayOf(deadLetter({ input: 1, other: 2 }), 'W')).toMatch(/names no valid run id/);
});

test('messages that are no failure record of a workflow function are kept, with the reason', () => {
  expect(replayOf('not json', 'W')).toBe('not JSON');
  expect(replayOf(JSON.stringify({ hello: 1 }), 'W')).toMatch(/not a Lambda destination record/);
  // The recorder's record without the node's record inside.
  expect(replayOf(JSON.stringify({ requestContext: { functionArn: FN }, requestPayload: { a: 1 } }), 'W')).toMatch(/not a Lambda destination record/);
  expect(replayOf(deadLetter({ unum: { workflowId: 'bad id', node: 'B' } }), 'W')).toMatch(/names no valid run id/);
  expect(replayOf(deadLetter({ workflowId: 'a#b', input: 1 }), 'W')).toMatch(/names no valid run id/);
  // An envelope of another workflow names none of this workflow's runs.
  expect(replayOf(deadLetter({ unum: { ...envelope.unum, workflow: 'Other' } }), 'W')).toMatch(/names no valid run id/);
});
