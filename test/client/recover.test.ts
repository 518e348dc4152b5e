/**
 * What `recover` replays for each kind of dead letter (the recorder's
 * destination record around the failed invocation's), without AWS: the
 * event, the function, and why a message is kept instead. The whole path on
 * the local engine is test/local/outage.test.ts.
 */
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { recoverDeadLetters, replayOf } from '../../lib/client/recover';
import type { RunStatus } from '../../lib/client';

const FN = 'arn:aws:lambda:us-east-1:123456789012:function:stack-wf-B';
/** The deployment the failed invocations ran on: Lambda names its alias in the record's function ARN. */
const D = 'd0123456789abcdef0123';

/** A dead letter: Lambda's record of the failed recorder invocation, whose event was the record of the failed node invocation. */
function deadLetter(requestPayload: unknown, options: { functionArn?: string; requestId?: string } = {}): string {
  const failed = {
    version: '1.0',
    requestContext: { requestId: options.requestId ?? 'req-7', functionArn: options.functionArn ?? `${FN}:${D}`, condition: 'RetriesExhausted', approximateInvokeCount: 3 },
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

const envelope = { unum: { v: 3, workflow: 'W', deployment: D, workflowId: 'run-1', node: 'B', iteration: 0, fanOut: [], inputs: [{ value: 1 }] } };

test('an envelope is replayed as it was, on the alias of the deployment it ran on', () => {
  expect(replayOf(deadLetter(envelope), 'W')).toEqual({
    workflowId: 'run-1',
    node: 'B',
    functionArn: FN,
    qualifier: D,
    event: envelope,
    why: 'TimeoutError after 3 attempts; the recorder failed with ProvisionedThroughputExceededException',
  });
});

test('never on $LATEST: an envelope invoked there names its deployment; one that names none (an older unum-cdk) is kept', () => {
  expect(replayOf(deadLetter(envelope, { functionArn: `${FN}:$LATEST` }), 'W')).toMatchObject({ functionArn: FN, qualifier: D });
  const older = { unum: { v: 2, workflow: 'W', workflowId: 'run-1', node: 'B', iteration: 0, fanOut: [], inputs: [{ value: 1 }] } };
  expect(replayOf(deadLetter(older, { functionArn: `${FN}:$LATEST` }), 'W')).toMatch(/names no deployment \(an unum-cdk before deployment pinning\): not replayed on \$LATEST/);
  expect(replayOf(deadLetter(older, { functionArn: FN }), 'W')).toMatch(/names no deployment/);
});

test('a failed start on the live alias is replayed there', () => {
  expect(replayOf(deadLetter({ workflowId: 'run-2', input: 1 }, { functionArn: `${FN}:live` }), 'W')).toMatchObject({ functionArn: FN, qualifier: 'live' });
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

describe('recoverDeadLetters', () => {
  /** A queue of the given bodies behind a stub SQS client; `failDelete` makes DeleteMessage throw. */
  function queue(bodies: string[], failDelete = false): { sqs: SQSClient; deleted: string[] } {
    const messages = bodies.map((Body, i) => ({ MessageId: `m${i}`, ReceiptHandle: `h${i}`, Body }));
    const deleted: string[] = [];
    let received = false;
    const send = async (command: { constructor: { name: string }; input: { ReceiptHandle?: string } }): Promise<unknown> => {
      if (command.constructor.name === 'ReceiveMessageCommand') {
        const out = received ? {} : { Messages: messages };
        received = true;
        return out;
      }
      if (failDelete) throw new Error('SQS unreachable');
      deleted.push(command.input.ReceiptHandle ?? '');
      return {};
    };
    return { sqs: { send } as unknown as SQSClient, deleted };
  }
  const lambda = (fail?: string): { client: LambdaClient; events: unknown[]; targets: string[] } => {
    const events: unknown[] = [];
    const targets: string[] = [];
    const send = async (command: { input: { Payload: Uint8Array; FunctionName: string; Qualifier?: string } }): Promise<unknown> => {
      if (fail) throw new Error(fail);
      events.push(JSON.parse(Buffer.from(command.input.Payload).toString('utf8')));
      targets.push(`${command.input.FunctionName}:${command.input.Qualifier}`);
      return { StatusCode: 202 };
    };
    return { client: { send } as unknown as LambdaClient, events, targets };
  };
  const status = (s: RunStatus['status'] | Error, deployment?: string) => async (workflowId: string): Promise<RunStatus> => {
    if (s instanceof Error) throw s;
    return { workflowId, status: s, ...(deployment ? { deployment } : {}) };
  };
  const deps = (sqs: SQSClient, l: LambdaClient, s: ReturnType<typeof status>) => ({ sqs, lambda: l, queueUrl: 'q', workflow: 'W', status: s, visibilityTimeoutSeconds: 300 });

  test('replays, then deletes; a finished run is deleted without a replay; junk is kept', async () => {
    const q = queue([deadLetter(envelope), 'junk']);
    const l = lambda();
    const report = await recoverDeadLetters(deps(q.sqs, l.client, status('RUNNING')));
    expect([report.replayed, report.finished, report.kept]).toEqual([1, 0, 1]);
    expect(l.events).toEqual([envelope]);
    expect(l.targets).toEqual([`${FN}:${D}`]);
    expect(report.deadLetters[0]).toMatchObject({ outcome: 'replayed', functionArn: `${FN}:${D}` });
    expect(q.deleted).toEqual(['h0']);
    const done = queue([deadLetter(envelope)]);
    const none = lambda();
    expect((await recoverDeadLetters(deps(done.sqs, none.client, status('FAILED')))).deadLetters).toEqual([expect.objectContaining({ outcome: 'finished', workflowId: 'run-1' })]);
    expect([none.events, done.deleted]).toEqual([[], ['h0']]);
  });

  test('a run record that cannot be read or a replay Lambda refuses keeps the message; a lost delete is reported', async () => {
    for (const [l, s] of [[lambda('TooManyRequestsException'), status('RUNNING')], [lambda(), status(new Error('DynamoDB down'))]] as const) {
      const q = queue([deadLetter(envelope)]);
      const report = await recoverDeadLetters(deps(q.sqs, l.client, s));
      expect(report.deadLetters).toEqual([expect.objectContaining({ outcome: 'kept', detail: expect.stringMatching(/^not replayed: (TooManyRequestsException|DynamoDB down)$/) })]);
      expect(q.deleted).toEqual([]);
    }
    const q = queue([deadLetter(envelope)], true);
    const report = await recoverDeadLetters(deps(q.sqs, lambda().client, status('NOT_FOUND')));
    expect(report.deadLetters).toEqual([expect.objectContaining({ outcome: 'replayed', detail: expect.stringMatching(/the message was not deleted \(SQS unreachable\)$/) })]);
  });

  test('a failed start on the live alias goes to the deployment its run started on; a run that never started, to live', async () => {
    const start = deadLetter({ workflowId: 'run-2', input: 1 }, { functionArn: `${FN}:live` });
    const started = lambda();
    const report = await recoverDeadLetters(deps(queue([start]).sqs, started.client, status('RUNNING', D)));
    expect([started.targets, report.deadLetters[0].functionArn]).toEqual([[`${FN}:${D}`], `${FN}:${D}`]);
    const fresh = lambda();
    await recoverDeadLetters(deps(queue([start]).sqs, fresh.client, status('NOT_FOUND')));
    expect(fresh.targets).toEqual([`${FN}:live`]);
  });
});
