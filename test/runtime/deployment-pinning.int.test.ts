/**
 * A run stays on the deployment it started on (docs/architecture.md
 * "Deployments"), with the runtime's own handlers on DynamoDB Local: its run
 * record and first history entry name the deployment, every envelope carries
 * it, every invoke and every schedule (a Wait's wake-up, a callback Task's
 * timeout, the run's timeout) targets that deployment's alias, its task
 * token names it, and a redrive's parked event goes back to it.
 */
import { compileWorkflow } from '../../lib/compiler';
import { Definition, IntegrationPattern, Task, Wait, WaitTime } from '../../lib/definition';
import { createCallbackHandler } from '../../runtime/callbacks/callback-handler';
import { ENV, type Envelope, qualifiedName } from '../../runtime/contract/ir';
import { decodeHistoryEntry, decodeParked, decodeRunRecord, keyOf, parseKey } from '../../runtime/contract/table';
import { decodeTaskToken } from '../../runtime/contract/task-token';
import { useTestDb } from '../support/dynamodb';
import { Driver, driverFunction, fromCompiled, lambdaContext, RECORDER_FUNCTION } from '../support/harness';
import { testEnvelopeKey } from '../support/envelope-key';

jest.setTimeout(60_000);
const db = useTestDb();

const DEPLOYMENT = `d${'0123456789'.repeat(2)}`;
const ENTRY = '/project/pinned.ts';
const tokens = new Map<string, string>();
const handlers = {
  step: (x: unknown) => x,
  ask: (_x: unknown, _lambda: unknown, unum: { runId: string; taskToken: string }) => tokens.set(unum.runId, unum.taskToken) && null,
  fail: () => {
    throw new Error('broken');
  },
};
const definition = new Task('A', { entry: ENTRY, handler: 'step' })
  .next(new Wait('W', { time: WaitTime.duration(60) }))
  .next(new Task('Ask', { entry: ENTRY, handler: 'ask', integrationPattern: IntegrationPattern.WAIT_FOR_TASK_TOKEN, timeout: { toSeconds: () => 600 } }))
  .next(new Task('B', { entry: ENTRY, handler: 'step' }));

beforeAll(() => {
  process.env[ENV.runTimeoutFunction] = qualifiedName(RECORDER_FUNCTION, DEPLOYMENT);
});
afterAll(() => {
  delete process.env[ENV.runTimeoutFunction];
});

test('a run records its deployment, and every envelope, invoke, schedule and token of it names that deployment', async () => {
  const { name, store } = await db.table();
  const nodes = fromCompiled(compileWorkflow('pinned', Definition.from(definition), { runTimeoutSeconds: 3600, history: true }), handlers, DEPLOYMENT);
  const d = new Driver(store, nodes);
  const ask = driverFunction('Ask', DEPLOYMENT);
  d.handlers.set(ask, createCallbackHandler(nodes.Ask.module, { envelopeKey: testEnvelopeKey, ir: nodes.Ask.ir, store, invoker: d.invoker, scheduler: d.scheduler }));
  // The schedules' invokes wait: the run's timeout and the callback's are not due.
  await d.run({ workflowId: 'p1', input: { n: 1 } }, { hold: (x) => 'unumTask' in x.event || 'unumRunTimeout' in x.event });

  const record = decodeRunRecord((await db.run(name, 'p1'))!);
  expect(record).toMatchObject({ status: 'RUNNING', deployment: DEPLOYMENT });
  const token = decodeTaskToken(tokens.get('p1'));
  expect(token).toMatchObject({ workflowId: 'p1', node: 'Ask', deployment: DEPLOYMENT });
  const answer = await d.handlers.get(ask)!({ unumTask: { token: tokens.get('p1'), success: { ok: true } } }, lambdaContext('fn-Ask'));
  expect(answer).toEqual({ task: 'completed' });
  await d.drain();
  expect(decodeRunRecord((await db.run(name, 'p1'))!)).toMatchObject({ status: 'SUCCEEDED', deployment: DEPLOYMENT });

  const envelopes = d.invoker.sent.filter((x) => 'unum' in x.event).map((x) => (x.event as Envelope).unum);
  expect(envelopes.map((u) => u.node)).toEqual(expect.arrayContaining(['W', 'Ask', 'B']));
  for (const u of envelopes) expect(u).toMatchObject({ v: 4, deployment: DEPLOYMENT });
  for (const x of d.invoker.sent) expect(x.functionName).toMatch(new RegExp(`^fn-[\\w.-]+:${DEPLOYMENT}$`));
  expect(d.scheduler.schedules.map((s) => s.functionName).sort()).toEqual([driverFunction('Ask', DEPLOYMENT), driverFunction('W', DEPLOYMENT), qualifiedName(RECORDER_FUNCTION, DEPLOYMENT)].sort());

  const items = await db.scan(name);
  const entries = items.flatMap((item) => {
    const key = parseKey(keyOf(item) ?? '');
    return key?.kind === 'history' && key.seq !== undefined ? [decodeHistoryEntry(key.seq, item)!] : [];
  });
  // The entry's entry names the deployment (the run's first); the others need not repeat it.
  expect(entries.find((e) => e.node === 'A')).toMatchObject({ deployment: DEPLOYMENT });
  expect(entries.filter((e) => e.node !== 'A').every((e) => e.deployment === undefined)).toBe(true);
});

test('a failure Lambda gave up on is parked on the failed function\'s alias of the run\'s deployment', async () => {
  const { name, store } = await db.table();
  const failing = new Task('A', { entry: ENTRY, handler: 'step' }).next(new Task('Broken', { entry: ENTRY, handler: 'fail' }));
  const d = new Driver(store, fromCompiled(compileWorkflow('pinned', Definition.from(failing), { runTimeoutSeconds: 3600 }), handlers, DEPLOYMENT));
  await d.run({ workflowId: 'p2', input: 1 }, { hold: (x) => 'unumRunTimeout' in x.event });
  expect(decodeRunRecord((await db.run(name, 'p2'))!)).toMatchObject({ status: 'FAILED', deployment: DEPLOYMENT, error: { node: 'Broken', error: 'Error' } });
  const parked = (await db.scan(name)).flatMap((item) => (parseKey(keyOf(item) ?? '')?.kind === 'park' ? [decodeParked(item)!] : []));
  expect(parked).toHaveLength(1);
  expect(parked[0].functionName).toMatch(new RegExp(`:function:fn-Broken:${DEPLOYMENT}$`));
  expect(JSON.parse(parked[0].event)).toMatchObject({ unum: { v: 4, deployment: DEPLOYMENT, node: 'Broken' }, mac: expect.any(String) });
});
