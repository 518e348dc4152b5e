/**
 * A callback Task's handler errors are failures of the Task, as in Step
 * Functions (issue 18): one Retry rule counts them together with the token's
 * sent failures, a retry is the next attempt with a new token, an exhausted
 * rule's last error goes to the Catch rules, and an error no rule handles
 * goes back to Lambda's retries. On DynamoDB Local with the runtime's handlers.
 */
import { createCallbackHandler } from '../../runtime/callbacks/callback-handler';
import type { TaskResponseAnswer } from '../../runtime/contract/ir';
import { decodeRunRecord } from '../../runtime/contract/table';
import { useTestDb } from '../support/dynamodb';
import { defineWorkflow, Driver, lambdaContext, seq, succeed } from '../support/harness';
import { testEnvelopeKey } from '../support/envelope-key';

jest.setTimeout(120_000);
const db = useTestDb();

/** Tokens the handler was given, per run, in order; `throwing[run]` handler calls throw `Flaky` first. */
const tokens = new Map<string, string[]>();
const throwing = new Map<string, number>();

const rule = { errors: ['Flaky'], maxAttempts: 1, intervalSeconds: 1, backoffRate: 1, jitter: 'NONE' as const };
function nodes(catchFlaky: boolean) {
  return defineWorkflow('cb-errors', {
    Start: { instructions: [seq('Ask')] },
    Ask: {
      fn: (_input: unknown, _lambda: unknown, unum: { runId: string; taskToken: string }) => {
        tokens.set(unum.runId, [...(tokens.get(unum.runId) ?? []), unum.taskToken]);
        const left = throwing.get(unum.runId) ?? 0;
        throwing.set(unum.runId, left - 1);
        if (left > 0) throw Object.assign(new Error('the inbox was down'), { name: 'Flaky' });
        return null;
      },
      callback: { timeoutSeconds: 3600 },
      io: { resultPath: '$.answer' },
      retry: [rule],
      ...(catchFlaky ? { catch: [{ errors: ['Flaky'], next: 'Caught', resultPath: '$.error' }] } : {}),
      instructions: [seq('Ship')],
    },
    Ship: { instructions: [succeed] },
    Caught: { instructions: [succeed] },
  });
}

async function driver(catchFlaky: boolean) {
  const { name, store } = await db.table();
  const defined = nodes(catchFlaky);
  const d = new Driver(store, defined);
  const ask = defined.Ask;
  d.handlers.set('fn-Ask', createCallbackHandler(ask.module, { envelopeKey: testEnvelopeKey, ir: ask.ir, store, invoker: d.invoker, scheduler: d.scheduler }));
  const record = async (id: string) => decodeRunRecord((await db.run(name, id))!);
  return { d, record };
}

// Timeouts (an hour) are held: only the responses below complete tokens.
const holdTimeouts = { hold: (x: { event: unknown }) => JSON.stringify(x.event).includes('States.Timeout') };

/** A run whose handler throws `Flaky` in its first `times` calls, run until it waits or ends; the tokens it was given. */
async function runThrowing(id: string, times: number, catchFlaky: boolean) {
  const { d, record } = await driver(catchFlaky);
  throwing.set(id, times);
  await d.run({ workflowId: id, input: { order: id } }, holdTimeouts);
  return { d, record, handed: tokens.get(id)! };
}

const respond = (d: Driver, event: unknown): Promise<TaskResponseAnswer> => d.handlers.get('fn-Ask')!(event, lambdaContext('fn-Ask')) as Promise<TaskResponseAnswer>;

test('a handler error retried by the rule spends its one attempt: the next token\'s sent failure is caught, not retried again', async () => {
  const { d, record, handed } = await runThrowing('shared', 1, true);
  // The first attempt threw: its retry is the next attempt, with a token of its own.
  expect(handed).toHaveLength(2);
  expect(new Set(handed).size).toBe(2);
  expect(await respond(d, { unumTask: { token: handed[1], failure: { error: 'Flaky', cause: 'declined by the inbox' } } })).toEqual({ task: 'completed' });
  await d.drain(holdTimeouts);
  expect(tokens.get('shared')).toHaveLength(2);
  const run = await record('shared');
  expect(run.status).toBe('SUCCEEDED');
  expect(JSON.parse(run.result ?? 'null')).toMatchObject({ order: 'shared', error: { Error: 'Flaky', Cause: 'declined by the inbox' } });
  // The first token was completed by its attempt's retry decision.
  expect(await respond(d, { unumTask: { token: handed[0], success: {} } })).toMatchObject({ task: 'alreadyCompleted' });
});

test('handler errors past the rule go to the Catch rule; the run goes on from it', async () => {
  const { record, handed } = await runThrowing('exhausted', 2, true);
  expect(handed).toHaveLength(2);
  const run = await record('exhausted');
  expect(run.status).toBe('SUCCEEDED');
  expect(JSON.parse(run.result ?? 'null')).toMatchObject({ order: 'exhausted', error: { Error: 'Flaky', Cause: expect.stringContaining('the inbox was down') } });
});

test('an error no rule handles goes back to Lambda: its retries run the handler again with the same token', async () => {
  // Past the rule's one retry (2 attempts) and Lambda's 2 retries of the second attempt's invocation: the recorder fails the run.
  const { d, record, handed } = await runThrowing('uncaught', 4, false);
  expect(handed).toHaveLength(4);
  expect(new Set(handed).size).toBe(2);
  expect(d.failures).toHaveLength(1);
  expect(await record('uncaught')).toMatchObject({ status: 'FAILED', error: { node: 'Ask', error: 'Flaky' } });
});
