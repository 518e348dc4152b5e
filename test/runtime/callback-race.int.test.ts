/**
 * A callback Task's completions racing its timeout, on DynamoDB Local with
 * the runtime's own handlers: in every round two successes and the timeout
 * arrive at once, exactly one is answered `completed`, and the run's result
 * is that one's (the Catch path for the timeout); a forged token writes nothing.
 */
import { createCallbackHandler } from '../../runtime/callbacks/callback-handler';
import type { TaskResponseAnswer } from '../../runtime/contract/ir';
import { decodeRunRecord } from '../../runtime/contract/table';
import { decodeTaskToken, encodeTaskToken } from '../../runtime/contract/task-token';
import { useTestDb } from '../support/dynamodb';
import { defineWorkflow, Driver, lambdaContext, seq, succeed } from '../support/harness';
import { testEnvelopeKey } from '../support/envelope-key';

jest.setTimeout(120_000);
const db = useTestDb();

const tokens = new Map<string, string>();
const nodes = defineWorkflow('cb', {
  Start: { instructions: [seq('Ask')] },
  Ask: {
    fn: (_input: unknown, _lambda: unknown, unum: { runId: string; taskToken: string }) => {
      tokens.set(unum.runId, unum.taskToken);
      return 'the handler\'s result is not the task\'s';
    },
    callback: { timeoutSeconds: 60 },
    io: { resultPath: '$.answer' },
    catch: [{ errors: ['States.Timeout'], next: 'TimedOut', resultPath: '$.error' }],
    instructions: [seq('Ship')],
  },
  Ship: { instructions: [succeed] },
  TimedOut: { instructions: [succeed] },
});

/** A driver whose Ask function has the callback runtime; timeouts are held for the test to deliver. */
async function waitingRun(store: Awaited<ReturnType<typeof db.table>>['store'], workflowId: string): Promise<{ d: Driver; token: string; timeout: unknown }> {
  const d = new Driver(store, nodes);
  const ask = nodes.Ask;
  d.handlers.set('fn-Ask', createCallbackHandler(ask.module, { envelopeKey: testEnvelopeKey, ir: ask.ir, store, invoker: d.invoker, scheduler: d.scheduler }));
  await d.run({ input: { order: workflowId }, workflowId }, { hold: (x) => 'unumTask' in x.event });
  const timeout = d.held.find((x) => JSON.stringify(x.event).includes('States.Timeout'));
  return { d, token: tokens.get(workflowId) as string, timeout: timeout?.event };
}

test('two successes and the timeout at once, 12 rounds: one completes, the run ends by it', async () => {
  const { name, store } = await db.table();
  const winners: string[] = [];
  for (let round = 0; round < 12; round++) {
    const id = `race-${round}`;
    const { d, token, timeout } = await waitingRun(store, id);
    expect(timeout).toEqual({ unumTask: { token, timeout: 'States.Timeout' } });
    const ask = d.handlers.get('fn-Ask')!;
    const ctx = lambdaContext('fn-Ask');
    const answers = (await Promise.all([
      ask({ unumTask: { token, success: { by: 'a' } } }, ctx),
      ask(timeout, ctx),
      ask({ unumTask: { token, success: { by: 'b' } } }, ctx),
    ])) as TaskResponseAnswer[];
    await d.drain();
    const completed = answers.flatMap((a, i) => (a.task === 'completed' ? [i] : []));
    expect(completed).toHaveLength(1);
    expect(answers.filter((a) => a.task === 'alreadyCompleted')).toHaveLength(2);
    const run = decodeRunRecord((await db.run(name, id))!);
    expect(run.status).toBe('SUCCEEDED');
    const result: unknown = JSON.parse(run.result ?? 'null');
    const winner = completed[0];
    winners.push(['a', 'timeout', 'b'][winner]);
    if (winner === 1) expect(result).toMatchObject({ order: id, error: { Error: 'States.Timeout' } });
    else expect(result).toEqual({ order: id, answer: { by: winner === 0 ? 'a' : 'b' } });
  }
  // Printed, not asserted: which one wins depends on the machine's scheduling.
  process.stderr.write(`callback race winners: ${winners.join(' ')}\n`);
});

test('a forged secret or another run\'s token: answered invalid, nothing written', async () => {
  const { name, store } = await db.table();
  const { d, token } = await waitingRun(store, 'forged');
  const other = await waitingRun(store, 'other');
  const parts = decodeTaskToken(token);
  if (typeof parts === 'string') throw new Error(parts);
  const before = JSON.stringify(await db.scan(name));
  const ask = d.handlers.get('fn-Ask')!;
  const ctx = lambdaContext('fn-Ask');
  for (const bad of [encodeTaskToken({ ...parts, secret: 'x'.repeat(43) }), encodeTaskToken({ ...parts, workflowId: 'other' }), encodeTaskToken({ ...parts, workflow: 'elsewhere' }), encodeTaskToken({ ...parts, deployment: `d${'9'.repeat(20)}` }), 'u1.e30']) {
    expect(await ask({ unumTask: { token: bad, success: 1 } }, ctx)).toMatchObject({ task: 'invalid' });
    expect(await ask({ unumTask: { token: bad, heartbeat: true } }, ctx)).toMatchObject({ task: 'invalid' });
  }
  expect(await ask({ unumTask: { token, success: 1, heartbeat: true } }, ctx)).toEqual({ task: 'invalid', reason: 'a task response has exactly one of success, failure, heartbeat, timeout' });
  expect(JSON.stringify(await db.scan(name))).toBe(before);
  expect(await ask({ unumTask: { token: other.token, success: { ok: 1 } } }, ctx)).toEqual({ task: 'completed' });
});
