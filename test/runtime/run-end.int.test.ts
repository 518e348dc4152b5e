/**
 * Issue 16 part 2 against DynamoDB Local: the terminal transition's commit is
 * the run's final write. The run record costs one write beyond the
 * transitions (RUNNING at the start), duplicates of the terminal change
 * nothing, and a result over the inline limit still goes by reference.
 */
import { createHandler } from '../../runtime/entry/handler';
import { ENVELOPE_VERSION, type Envelope } from '../../runtime/contract/ir';
import { endsRun } from '../../runtime/step/run-end';
import { counting } from '../support/counting-store';
import { useTestDb } from '../support/dynamodb';
import { Driver, QueueInvoker, defineWorkflow, lambdaContext, seq, succeed } from '../support/harness';
import { sealed, testEnvelopeKey } from '../support/envelope-key';

const db = useTestDb();

const envelopeFor = (workflow: string, node: string, input: unknown, workflowId: string): Envelope => sealed({
  unum: { v: ENVELOPE_VERSION, workflow, deployment: '', workflowId, node, iteration: 0, fanOut: [], inputs: [{ value: input as never }] },
});

const checkpoints = async (table: string): Promise<number> => (await db.scan(table)).filter((i) => i.pk.S?.startsWith('ckpt#')).length;

test('a chain writes its run record twice and no checkpoint for the terminal: the commit is the final write', async () => {
  const { name, store } = await db.table();
  const c = counting(store);
  const nodes = defineWorkflow('end', {
    A: { fn: (x: number) => x + 1, instructions: [seq('B')] },
    B: { fn: (x: number) => ({ out: x * 10 }), instructions: [succeed] },
  });
  await new Driver(c.store, nodes).run({ workflowId: 'e1', input: 1 });
  expect(await db.run(name, 'e1')).toMatchObject({ status: { S: 'SUCCEEDED' }, result: { S: '{"out":20}' } });
  // Three writes for two transitions: RUNNING, A's checkpoint, B's commit into the record.
  expect(c.commits).toHaveLength(1);
  expect(c.calls.startRun).toBe(1);
  expect(c.calls.finishRun).toBe(1);
  expect(await checkpoints(name)).toBe(1);
});

test('a late duplicate of the terminal: its final write finds the run ended and changes nothing, and it puts no checkpoint', async () => {
  const { name, store } = await db.table();
  let calls = 0;
  const nodes = defineWorkflow('late-end', {
    A: { fn: (x: number) => x, instructions: [seq('B')] },
    B: {
      fn: (x: number) => {
        calls++;
        return x;
      },
      instructions: [succeed],
    },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'e2', input: 3 });
  const toB = d.invoker.sent.find((s) => s.functionName === 'fn-B')!;
  const c = counting(store);
  const invoker = new QueueInvoker();
  await createHandler(nodes.B.module, { envelopeKey: testEnvelopeKey, ir: nodes.B.ir, store: c.store, invoker })(toB.event, lambdaContext('fn-B'));
  // Its value would end the run, so it reads nothing and tries the run's final write, which is conditional on RUNNING.
  expect(calls).toBe(2);
  expect(c.calls.finishRun).toBe(1);
  expect(c.calls.putCheckpoint ?? 0).toBe(0);
  expect(invoker.sent).toHaveLength(0);
  expect(await db.run(name, 'e2')).toMatchObject({ status: { S: 'SUCCEEDED' }, result: { S: '3' } });
});

test('concurrent executions of the terminal: one commit decides the result, the others are duplicates', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('race-end', {
    A: { fn: () => 0, instructions: [seq('B')] },
    B: { fn: () => ({ r: Math.random() }), instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  await d.deliver('fn-A', { workflowId: 'e3', input: 0 });
  const event = envelopeFor('race-end', 'B', 0, 'e3');
  const c = counting(store);
  const h = createHandler(nodes.B.module, { envelopeKey: testEnvelopeKey, ir: nodes.B.ir, store: c.store, invoker: new QueueInvoker() });
  // The first execution starts now; the rest race it (each reads the run RUNNING or ended).
  await Promise.all(Array.from({ length: 20 }, () => h(event, lambdaContext('fn-B'))));
  const record = await db.run(name, 'e3');
  expect(record?.status?.S).toBe('SUCCEEDED');
  const result = JSON.parse(record!.result!.S as string) as { r: number };
  expect(typeof result.r).toBe('number');
  expect(c.calls.finishRun).toBeGreaterThanOrEqual(1);
  expect(await checkpoints(name)).toBe(1);
});

test('a loop commits every iteration but the one that ends the run; a result over the inline limit goes by reference', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow(
    'loop-end',
    {
      // The entry accepts start requests only: the loop starts one node later.
      S: { instructions: [seq('A')] },
      A: {
        fn: (x: { i: number }) => ({ i: x.i + 1, pad: x.i + 1 === 3 ? 'x'.repeat(200) : '' }),
        instructions: [
          {
            op: 'choice',
            state: 'Again',
            rules: [{ when: { kind: 'compare', type: 'number', op: 'lt', path: '$.i', value: 3 }, then: [{ op: 'incrIteration' }, seq('A')] }],
            otherwise: [succeed],
          },
        ],
      },
    },
    { inlineLimitBytes: 100 },
  );
  await new Driver(store, nodes).run({ workflowId: 'e4', input: { i: 0 } });
  const record = await db.run(name, 'e4');
  expect(record?.status?.S).toBe('SUCCEEDED');
  // S, and A's iterations 0 and 1 went on (checkpoints); iteration 2's 200-byte result is over the limit: a checkpoint the record references.
  expect(record?.resultRef?.S).toMatch(/^ckpt#/);
  expect(await checkpoints(name)).toBe(4);
});

test('endsRun follows choices on the value to commit', async () => {
  const choice = {
    op: 'choice' as const,
    state: 'C',
    rules: [{ when: { kind: 'compare' as const, type: 'number' as const, op: 'lt' as const, path: '$', value: 3 }, then: [seq('A')] }],
    otherwise: [succeed],
  };
  const x = { rt: { ir: { node: 'N' } }, invocation: { workflowId: 'e5' } };
  expect(await endsRun(x, [choice], 5)).toBe(true);
  expect(await endsRun(x, [choice], 1)).toBe(false);
  expect(await endsRun(x, [{ op: 'fail', state: 'F', error: 'E' } as never, succeed], 5)).toBe(false);
  expect(await endsRun(x, [], 5)).toBe(false);
});

describe('a final write past the run\'s deadline ends it TIMED_OUT instead (the timeout\'s schedule may fire late or fail, and the deadline an execution read may be stale)', () => {
  const startedAt = (secondsAgo: number): string => new Date(Date.now() - secondsAgo * 1000).toISOString();
  const ends = [
    { status: 'SUCCEEDED', result: '{"x":1}' },
    { status: 'FAILED', error: { node: 'B', state: 'B', error: 'Boom', cause: 'late' }, redrive: { never: 'n' } },
  ] as const;

  test.each(ends)('a $status end past the deadline: false, and the record TIMED_OUT with the record\'s own timeout', async (end) => {
    const { name, store } = await db.table();
    const run = { workflow: 'dl', workflowId: `past-${end.status}` };
    const started = startedAt(61);
    await store.startRun(run, started, Math.floor(Date.now() / 1000) + 3600, Date.parse(started) + 60_000);
    expect(await store.finishRun(run, end, new Date().toISOString(), Math.floor(Date.now() / 1000) + 3600)).toBe(false);
    const record = await db.run(name, run.workflowId);
    expect(record?.status?.S).toBe('TIMED_OUT');
    expect(record?.error?.M?.error?.S).toBe('States.Timeout');
    expect(record?.error?.M?.cause?.S).toBe('the run did not finish within its timeout of 60 s');
    expect(record?.result).toBeUndefined();
  });

  test('before the deadline the end is written; a run with no deadline ends whenever', async () => {
    const { name, store } = await db.table();
    const ttl = Math.floor(Date.now() / 1000) + 3600;
    const early = { workflow: 'dl', workflowId: 'early' };
    const started = startedAt(1);
    await store.startRun(early, started, ttl, Date.parse(started) + 60_000);
    expect(await store.finishRun(early, ends[0], new Date().toISOString(), ttl)).toBe(true);
    const open = { workflow: 'dl', workflowId: 'no-deadline' };
    await store.startRun(open, startedAt(86_400), ttl);
    expect(await store.finishRun(open, ends[0], new Date().toISOString(), ttl)).toBe(true);
    for (const id of ['early', 'no-deadline']) expect((await db.run(name, id))?.status?.S).toBe('SUCCEEDED');
  });
});
