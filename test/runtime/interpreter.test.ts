/** IR interpretation on an in-memory store and a recording invoker: what each instruction sends and writes. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FUNCTION_TIMEOUT_MARGIN_SECONDS } from '../../lib/compiler/function-settings';
import { createHandler } from '../../runtime/entry/handler';
import type { Condition, Envelope, Instruction } from '../../runtime/contract/ir';
import { invocationName } from '../../runtime/contract/naming';
import { checkpointKey } from '../../runtime/contract/table';
import { Driver, defineWorkflow, lambdaContext, QueueInvoker, seq, succeed } from '../support/harness';
import { MemoryStore } from '../support/memory-store';
import { testEnvelopeKey } from '../support/envelope-key';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const start = (input: unknown, workflowId = 'w'): unknown => ({ workflowId, input });

test('scalar invoke: successor envelope with the inline value (no parent: nothing collects it)', async () => {
  const nodes = defineWorkflow('s', { A: { fn: (x: number) => x + 1, instructions: [seq('B')] }, B: { instructions: [succeed] } });
  const store = new MemoryStore();
  const invoker = new QueueInvoker();
  await createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker })(start(1), lambdaContext('fn-A'));
  // A new run's lease is the checkpoint retention (3600 s) from its start.
  const lease = expect.any(Number) as unknown as number;
  expect(invoker.sent).toEqual([{ functionName: 'fn-B', event: { unum: { v: 4, workflow: 's', deployment: '', workflowId: 'w', node: 'B', iteration: 0, fanOut: [], inputs: [{ value: 2 }], lease }, mac: expect.stringMatching(/^[\w-]{43}$/) } }]);
  expect(invoker.sent[0].event.unum.lease! - Date.now() / 1000).toBeGreaterThan(3590);
  expect(store.runOf('w')).toMatchObject({ status: 'RUNNING' });
});

test('parallel: nothing is created before the branches are invoked (an arrival creates its shard); frames carry origin and iteration', async () => {
  const nodes = defineWorkflow('p', {
    O: { instructions: [{ op: 'incrIteration' }, { op: 'invoke', invoke: { kind: 'parallel', targets: ['X', 'Y'], join: 'J' } }] },
    X: { instructions: [] },
    Y: { instructions: [] },
    J: { join: { tails: ['X', 'Y'] }, instructions: [succeed] },
  });
  const store = new MemoryStore();
  const shardsAtInvoke: number[] = [];
  const invoker = new QueueInvoker();
  const orig = invoker.invoke.bind(invoker);
  invoker.invoke = async (fn, ev) => {
    shardsAtInvoke.push(store.shards.size);
    return orig(fn, ev);
  };
  await createHandler({}, { envelopeKey: testEnvelopeKey, ir: nodes.O.ir, store, invoker })(start('v'), lambdaContext('fn-O'));
  expect(shardsAtInvoke).toEqual([0, 0]);
  expect(store.writes).toBe(2);
  const origin = checkpointKey(invocationName({ workflow: 'p', workflowId: 'w' }, 'O', 0, []));
  expect(invoker.sent.map((s) => [s.functionName, s.event.unum.iteration, s.event.unum.fanOut, s.event.unum.inputs])).toEqual([
    ['fn-X', 0, [{ index: 0, size: 2, kind: 'parallel', iteration: 1, origin }], [{ value: 'v' }]],
    ['fn-Y', 0, [{ index: 1, size: 2, kind: 'parallel', iteration: 1, origin }], [{ value: 'v' }]],
  ]);
});

test('map launches concurrently, at most invokeConcurrency invokes in flight', async () => {
  const nodes = defineWorkflow(
    'm',
    {
      O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
      M: { instructions: [] },
      J: { join: { tails: ['M'] }, instructions: [succeed] },
    },
    { invokeConcurrency: 4 },
  );
  let inFlight = 0;
  let peak = 0;
  const invoker = {
    sent: 0,
    async invoke() {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      this.sent++;
    },
  };
  await createHandler({}, { envelopeKey: testEnvelopeKey, ir: nodes.O.ir, store: new MemoryStore(), invoker })(start(Array.from({ length: 40 }, (_, i) => i)), lambdaContext('fn-O'));
  expect(invoker.sent).toBe(40);
  expect(peak).toBe(4);
});

test('a bounded map: the origin launches only the first maxConcurrency items, naming itself in their frames', async () => {
  const nodes = defineWorkflow('m', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 3 } }] },
    M: { instructions: [] },
    J: { join: { tails: ['M'] }, instructions: [succeed] },
  });
  const invoker = new QueueInvoker();
  await createHandler({}, { envelopeKey: testEnvelopeKey, ir: nodes.O.ir, store: new MemoryStore(), invoker })(start([10, 11, 12, 13, 14]), lambdaContext('fn-O'));
  expect(invoker.sent.map((s) => [s.event.unum.inputs[0], s.event.unum.fanOut[0]])).toEqual(
    [0, 1, 2].map((index) => [{ value: 10 + index }, { index, size: 5, kind: 'map', iteration: 0, origin: expect.stringMatching(/^ckpt#/), originNode: 'O' }]),
  );
});

test('a map over a non-array fails the run (States.Runtime) without throwing', async () => {
  const nodes = defineWorkflow('bad', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$.items', maxConcurrency: 0 } }] },
    M: { instructions: [] },
    J: { join: { tails: ['M'] }, instructions: [] },
  });
  const store = new MemoryStore();
  await createHandler({}, { envelopeKey: testEnvelopeKey, ir: nodes.O.ir, store, invoker: new QueueInvoker() })(start({ items: 5 }), lambdaContext('fn-O'));
  expect(store.runOf('w')).toMatchObject({ status: 'FAILED', error: { node: 'O', error: 'States.Runtime' } });
});

test('a duplicate execution runs user code again but sends the committed value, not its own', async () => {
  let calls = 0;
  const nodes = defineWorkflow('d', {
    A: {
      fn: () => {
        calls++;
        return calls;
      },
      instructions: [seq('B')],
    },
    B: { instructions: [] },
  });
  const store = new MemoryStore();
  const invoker = new QueueInvoker();
  const h = createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker });
  await h(start(null), lambdaContext('fn-A', 'r'));
  await h(start(null), lambdaContext('fn-A', 'r'));
  // The duplicate's read of the run record goes beside its commit, so its handler runs before the put finds the checkpoint.
  expect(calls).toBe(2);
  expect(invoker.sent.map((s) => s.event.unum.inputs[0])).toEqual([{ value: 1 }, { value: 1 }]);
});

test('a choice inside a choice, incrIteration, then succeed', async () => {
  const inner: Instruction = {
    op: 'choice',
    state: 'Check',
    rules: [{ when: { kind: 'matches', path: '$.s', pattern: 'a*' }, then: [{ op: 'incrIteration' }, seq('B')] }],
    otherwise: [{ op: 'fail', state: 'Failed', error: 'E' }],
  };
  const nodes = defineWorkflow('c', {
    A: { instructions: [{ op: 'choice', state: 'Check', rules: [{ when: { kind: 'test', test: 'present', path: '$.s', expected: true }, then: [inner] }], otherwise: [succeed] }] },
    B: { instructions: [] },
  });
  const store = new MemoryStore();
  const invoker = new QueueInvoker();
  const h = createHandler({}, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker });
  await h(start({ s: 'abc' }, 'w1'), lambdaContext('fn-A'));
  await h(start({ s: 'xyz' }, 'w2'), lambdaContext('fn-A'));
  await h(start({}, 'w3'), lambdaContext('fn-A'));
  expect(invoker.sent.map((s) => [s.event.unum.workflowId, s.event.unum.iteration])).toEqual([['w1', 1]]);
  expect(store.runOf('w2')).toMatchObject({ status: 'FAILED', error: { error: 'E' } });
  expect(store.runOf('w3')).toMatchObject({ status: 'SUCCEEDED', result: '{}' });
});

test('the run record gets one final status; a later fail cannot overwrite success', async () => {
  const nodes = defineWorkflow('once', { A: { instructions: [succeed, { op: 'fail', state: 'Failed', error: 'Late' }] } });
  const store = new MemoryStore();
  await createHandler({}, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker: new QueueInvoker() })(start(1), lambdaContext('fn-A'));
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '1' });
});

test('States.Timeout is raised before the function itself times out, and can be caught', async () => {
  const nodes = defineWorkflow('t', {
    A: { fn: () => new Promise(() => undefined), catch: [{ errors: ['States.Timeout'], next: 'B' }], instructions: [] },
    B: { instructions: [] },
  });
  const store = new MemoryStore();
  const invoker = new QueueInvoker();
  await createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker })(start(1), lambdaContext('fn-A', 'r', 300));
  expect(invoker.sent[0].event.unum.inputs[0]).toEqual({ value: { Error: 'States.Timeout', Cause: 'node A: handler timed out' } });
});

describe('the handler deadline is the node timeoutSeconds (Step Functions TimeoutSeconds)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** What a node with timeoutSeconds 5 sends on when its handler takes `ms`, in a function the construct gives 5 s plus its margin. */
  async function after(ms: number): Promise<unknown> {
    const nodes = defineWorkflow('d', {
      A: {
        fn: () => new Promise((resolve) => setTimeout(() => resolve('done'), ms)),
        catch: [{ errors: ['States.Timeout'], next: 'B' }],
        instructions: [seq('B')],
      },
      B: { instructions: [] },
    }, { timeoutSeconds: 5 });
    const invoker = new QueueInvoker();
    const run = createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store: new MemoryStore(), invoker })(start(1), lambdaContext('fn-A', 'r', (5 + FUNCTION_TIMEOUT_MARGIN_SECONDS) * 1000));
    await jest.advanceTimersByTimeAsync(ms + 1);
    await run;
    return invoker.sent[0].event.unum.inputs[0];
  }

  test('a handler that takes 4.999 s (4.2 s in the issue) is not cut short', async () => {
    expect(await after(4999)).toEqual({ value: 'done' });
  });

  test('a handler that takes 5.001 s gets States.Timeout', async () => {
    expect(await after(5001)).toEqual({ value: { Error: 'States.Timeout', Cause: 'node A: handler timed out' } });
  });
});

describe('a Choice on a missing path fails the run with States.Runtime, as in Step Functions', () => {
  const compareN: Condition = { kind: 'compare', type: 'number', op: 'eq', path: '$.n', value: 1 };
  const run = async (when: Condition, input: unknown): Promise<{ store: MemoryStore; sent: string[] }> => {
    const nodes = defineWorkflow('c', {
      A: { instructions: [{ op: 'choice', state: 'Check', rules: [{ when, then: [seq('B')] }], otherwise: [seq('C')] }] },
      B: { instructions: [] },
      C: { instructions: [] },
    });
    const store = new MemoryStore();
    const invoker = new QueueInvoker();
    await createHandler({}, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker })(start(input), lambdaContext('fn-A'));
    return { store, sent: invoker.sent.map((s) => s.functionName) };
  };

  test('Not(NumericEquals) on a missing path does not take a branch: the run is FAILED', async () => {
    const { store, sent } = await run({ kind: 'not', arg: compareN }, {});
    expect(sent).toEqual([]);
    expect(store.runOf('w')).toMatchObject({ status: 'FAILED', error: { node: 'A', error: 'States.Runtime', cause: expect.stringContaining("Invalid path '$.n'") } });
  });

  test('a present path of another type is false, not an error', async () => {
    expect((await run({ kind: 'not', arg: compareN }, { n: 'one' })).sent).toEqual(['fn-B']);
  });

  test('IsPresent tests for the missing path', async () => {
    expect((await run({ kind: 'test', test: 'present', path: '$.n', expected: false }, {})).sent).toEqual(['fn-B']);
    expect((await run({ kind: 'and', all: [{ kind: 'test', test: 'present', path: '$.n', expected: true }, compareN] }, {})).sent).toEqual(['fn-C']);
  });
});

test('a Pass node with result null outputs null, not its input', async () => {
  const nodes = defineWorkflow('n', { A: { handler: { kind: 'pass', result: null }, instructions: [succeed] } });
  const store = new MemoryStore();
  await createHandler({}, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker: new QueueInvoker() })(start({ keep: 'me' }), lambdaContext('fn-A'));
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: 'null' });
});

test('retries stop when the remaining time cannot cover the next delay', async () => {
  let calls = 0;
  const nodes = defineWorkflow('r', {
    A: {
      fn: () => {
        calls++;
        throw new Error('x');
      },
      retry: [{ errors: ['States.ALL'], maxAttempts: 5, intervalSeconds: 10, backoffRate: 2, jitter: 'NONE' }],
      instructions: [],
    },
  });
  const h = createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store: new MemoryStore(), invoker: new QueueInvoker() });
  await expect(h(start(1), lambdaContext('fn-A', 'r', 5000))).rejects.toThrow('x');
  expect(calls).toBe(1);
});

test('retry intervals grow by the backoff rate and respect maxDelaySeconds', async () => {
  const delays: number[] = [];
  const realTimeout = global.setTimeout;
  jest.spyOn(global, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
    if ((ms ?? 0) >= 10) delays.push(ms as number);
    return realTimeout(fn, 0);
  }) as typeof setTimeout);
  let calls = 0;
  const nodes = defineWorkflow('b', {
    A: {
      fn: () => {
        if (++calls < 5) throw new Error('again');
        return 'done';
      },
      retry: [{ errors: ['Error'], maxAttempts: 4, intervalSeconds: 1, backoffRate: 3, maxDelaySeconds: 5, jitter: 'NONE' }],
      instructions: [succeed],
    },
  });
  const store = new MemoryStore();
  await createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker: new QueueInvoker() })(start(1), lambdaContext('fn-A', 'r', 600000));
  // Each attempt also races the handler against its deadline, timeoutSeconds (30 s).
  expect(delays.filter((d) => d !== 30_000)).toEqual([1000, 3000, 5000, 5000]);
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED' });
});

test('log lines and EMF metrics', async () => {
  const lines: string[] = [];
  (process.stdout.write as unknown as jest.Mock).mockImplementation((l: string) => lines.push(l.trimEnd()));
  const nodes = defineWorkflow('obs', { A: { fn: (x: number) => x, instructions: [succeed] } });
  const h = createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store: new MemoryStore(), invoker: new QueueInvoker() });
  await h(start(1), lambdaContext('fn-A', 'r'));
  await h(start(1), lambdaContext('fn-A', 'r'));
  const docs = lines.map((l) => JSON.parse(l));
  const transitions = docs.filter((d) => d.message === 'unum transition');
  // The second start's final write finds the run ended (A's commit was the run's final write): a duplicate.
  expect(transitions.map((t) => t.outcome)).toEqual(['committed', 'duplicate']);
  expect(transitions[0]).toMatchObject({ workflowId: 'w', node: 'A', attempt: 1, durations: { totalMs: expect.any(Number), userMs: expect.any(Number) } });
  const emf = docs.filter((d) => d._aws);
  expect(emf[0]._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'Unum', Dimensions: [['Workflow'], ['Workflow', 'Node']] });
  expect(emf[0]).toMatchObject({ Workflow: 'obs', Node: 'A', Transitions: 1 });
  expect(emf[1]).toMatchObject({ DuplicateExecutions: 1 });
  expect(emf[1]).not.toHaveProperty('Transitions');
});

test('the IR is loaded from UNUM_IR_FILE and the store needs UNUM_TABLE', async () => {
  const nodes = defineWorkflow('file', { A: { fn: (x: number) => x, instructions: [succeed] } });
  const dir = mkdtempSync(join(tmpdir(), 'unum-ir-'));
  writeFileSync(join(dir, 'unum-ir.json'), JSON.stringify(nodes.A.ir));
  const saved = { ...process.env };
  process.env.UNUM_IR_FILE = join(dir, 'unum-ir.json');
  delete process.env.UNUM_TABLE;
  try {
    const h = createHandler(nodes.A.module);
    await expect(h(start(1), lambdaContext('fn-A'))).rejects.toThrow(/UNUM_TABLE is not set/);
    process.env.UNUM_IR_FILE = join(dir, 'missing.json');
    expect(() => createHandler(nodes.A.module)).toThrow(/ENOENT/);
  } finally {
    process.env = saved;
  }
});

test('a whole run on the memory store: fan-in of 300 with duplicates', async () => {
  const nodes = defineWorkflow('mem', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    // As the compiler emits an item processor's start: 300 items go through launchers, which need both.
    M: { fn: (x: number) => x + 1, mapItems: { itemsPath: '$' }, enclosingJoin: { node: 'J', tails: ['M'] }, instructions: [{ op: 'invoke', invoke: { kind: 'fanIn', target: 'J', size: 'frame', tail: 0 } }] },
    J: { fn: (xs: number[]) => xs.length, join: { tails: ['M'] }, instructions: [succeed] },
  });
  const store = new MemoryStore();
  const d = new Driver(store, nodes);
  await d.run(start(Array.from({ length: 300 }, (_, i) => i)), { deliveries: 2 });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '300' });
  // O and the 300 items; J's commit is the run's final write.
  expect(store.calls.committed).toBe(301);
  // Three level-0 shards and the root, left to their TTL.
  expect([...store.shards.values()].map((s) => s.a.size).sort((a, b) => a - b)).toEqual([3, 44, 128, 128]);
  const sentToJ = d.invoker.sent.filter((s) => s.functionName === 'fn-J').map((s) => JSON.stringify((s.event as Envelope).unum));
  expect(new Set(sentToJ).size).toBe(1);
});

describe('pass instruction (a folded Pass state)', () => {
  const pass = (fields: Omit<Extract<Instruction, { op: 'pass' }>, 'op'>): Instruction => ({ op: 'pass', ...fields });

  test('leading passes transform the output before the checkpoint; the choice and successor see the result', async () => {
    const nodes = defineWorkflow('p', {
      A: {
        fn: (x: { n: number }) => ({ n: x.n * 10, drop: true }),
        instructions: [
          pass({ io: { parameters: { 'm.$': '$.n', 'who.$': '$$.Execution.Id' }, resultPath: '$.p' } }),
          pass({ io: { outputPath: '$.p' } }),
          { op: 'choice', state: 'Check', rules: [{ when: { kind: 'compare', type: 'number', op: 'gt', path: '$.m', value: 15 }, then: [seq('B')] }], otherwise: [succeed] },
        ],
      },
      B: { instructions: [] },
    });
    const store = new MemoryStore();
    const invoker = new QueueInvoker();
    const h = createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker });
    await h(start({ n: 2 }, 'w1'), lambdaContext('fn-A'));
    await h(start({ n: 1 }, 'w2'), lambdaContext('fn-A'));
    const key = checkpointKey(invocationName({ workflow: 'p', workflowId: 'w1' }, 'A', 0, []));
    // The checkpoint holds the transformed value: a successor reading it by reference, a join or the run record see what the instructions saw.
    expect(store.checkpoints.get(key)).toMatchObject({ json: JSON.stringify({ m: 20, who: 'w1' }) });
    expect(invoker.sent.map((s) => [s.event.unum.workflowId, s.event.unum.inputs])).toEqual([['w1', [{ value: { m: 20, who: 'w1' } }]]]);
    expect(store.runOf('w2')).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify({ m: 10, who: 'w2' }) });
  });

  test('result replaces the value; a duplicate execution sends the identical input and does not apply the pass twice', async () => {
    const nodes = defineWorkflow('r', {
      A: { fn: (x: { a: number }) => ({ a: x.a + 1 }), instructions: [pass({ result: { fixed: 1 }, io: { resultPath: '$.r' } }), seq('B')] },
      B: { instructions: [] },
    });
    const store = new MemoryStore();
    const invoker = new QueueInvoker();
    const h = createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker });
    await h(start({ a: 1 }), lambdaContext('fn-A', 'r'));
    await h(start({ a: 1 }), lambdaContext('fn-A', 'r'));
    expect(invoker.sent.map((s) => s.event.unum.inputs)).toEqual([[{ value: { a: 2, r: { fixed: 1 } } }], [{ value: { a: 2, r: { fixed: 1 } } }]]);
  });

  test('a large transformed value travels by reference to the checkpoint, which holds it', async () => {
    const nodes = defineWorkflow('big', {
      A: { fn: (x: number) => x, instructions: [pass({ io: { parameters: { 'x.$': '$', pad: 'y'.repeat(200) } } }), seq('B')] },
      B: { instructions: [] },
    }, { inlineLimitBytes: 100 });
    const store = new MemoryStore();
    const invoker = new QueueInvoker();
    await createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker })(start(7), lambdaContext('fn-A'));
    const key = checkpointKey(invocationName({ workflow: 'big', workflowId: 'w' }, 'A', 0, []));
    expect(invoker.sent[0].event.unum.inputs).toEqual([{ ref: key }]);
    const stored = store.checkpoints.get(key);
    expect(stored && JSON.parse(stored.json)).toEqual({ x: 7, pad: 'y'.repeat(200) });
  });

  test('a caught error skips the passes and goes to the catch handler', async () => {
    const nodes = defineWorkflow('c', {
      A: {
        fn: () => {
          throw new Error('boom');
        },
        catch: [{ errors: ['States.ALL'], next: 'H' }],
        instructions: [pass({ result: 'not me' }), seq('B')],
      },
      B: { instructions: [] },
      H: { instructions: [] },
    });
    const invoker = new QueueInvoker();
    await createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store: new MemoryStore(), invoker })(start(1), lambdaContext('fn-A'));
    expect(invoker.sent.map((s) => s.functionName)).toEqual(['fn-H']);
    const { Error: error, Cause: cause } = (invoker.sent[0].event.unum.inputs[0] as { value: { Error: string; Cause: string } }).value;
    expect(error).toBe('Error');
    // As Step Functions gives a Lambda error: the Node.js runtime's error document, as JSON.
    const payload = JSON.parse(cause) as { errorType: string; errorMessage: string; trace: string[] };
    expect(Object.keys(payload)).toEqual(['errorType', 'errorMessage', 'trace']);
    expect(payload).toMatchObject({ errorType: 'Error', errorMessage: 'boom' });
    expect(payload.trace[0]).toBe('Error: boom');
    expect(payload.trace.length).toBeGreaterThan(1);
  });

  test('a folded Pass with result null makes the value null; without a result it keeps the value', async () => {
    for (const [instruction, result] of [[pass({ result: null }), 'null'], [pass({}), '{"keep":"me"}']] as const) {
      const nodes = defineWorkflow('n', { A: { fn: (x: unknown) => x, instructions: [instruction, succeed] } });
      const store = new MemoryStore();
      await createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker: new QueueInvoker() })(start({ keep: 'me' }), lambdaContext('fn-A'));
      expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result });
    }
  });

  test('a bad InputPath in a pass fails the run with States.Runtime', async () => {
    const nodes = defineWorkflow('b', {
      A: { fn: () => ({}), instructions: [pass({ io: { inputPath: '$.missing' } }), seq('B')] },
      B: { instructions: [] },
    });
    const store = new MemoryStore();
    const invoker = new QueueInvoker();
    await createHandler(nodes.A.module, { envelopeKey: testEnvelopeKey, ir: nodes.A.ir, store, invoker })(start(1), lambdaContext('fn-A'));
    expect(invoker.sent).toEqual([]);
    expect(store.runOf('w')).toMatchObject({ status: 'FAILED', error: { error: 'States.Runtime' } });
  });
});
