/**
 * Every workflow pattern run end to end in-process against DynamoDB Local:
 * hand-written IR, an in-process async invoker, real conditional writes.
 */
import { Driver, defineWorkflow, lambdaCause, seq, succeed } from '../support/harness';
import { useTestDb } from '../support/dynamodb';
import type { Instruction } from '../../runtime/contract/ir';

const db = useTestDb();

const fanIn = (target: string, tail: number, size: number | 'frame' = 'frame'): Instruction => ({ op: 'invoke', invoke: { kind: 'fanIn', target, size, tail } });

async function runOf(table: string, id: string): Promise<{ status?: string; result?: unknown; error?: Record<string, string> }> {
  const item = await db.run(table, id);
  return {
    status: item?.status?.S,
    result: item?.result?.S === undefined ? undefined : JSON.parse(item.result.S),
    error: item?.error?.M && Object.fromEntries(Object.entries(item.error.M).map(([k, v]) => [k, v.S as string])),
  };
}

/** After a finished run every checkpoint and shard is still there (they expire by TTL): their counts, and the items without a TTL. */
async function leftovers(table: string): Promise<{ shards: number; checkpoints: number; untimed: number }> {
  const items = await db.scan(table);
  const pk = (i: (typeof items)[number]): string => i.pk.S as string;
  return {
    shards: items.filter((i) => pk(i).startsWith('fanin#')).length,
    checkpoints: items.filter((i) => pk(i).startsWith('ckpt#')).length,
    untimed: items.filter((i) => !i.ttl).length,
  };
}

test('chain: each node gets its predecessor output; every checkpoint stays until its TTL', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('chain', {
    A: { fn: (x: number) => x + 1, instructions: [seq('B')] },
    B: { fn: (x: number) => x * 2, instructions: [seq('C')] },
    C: { fn: (x: number) => ({ out: x }), instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'run-1', input: 4 });
  expect(await runOf(name, 'run-1')).toEqual({ status: 'SUCCEEDED', result: { out: 10 } });
  expect(await leftovers(name)).toEqual({ shards: 0, checkpoints: 2, untimed: 0 });  // the terminal's commit is the run's final write: no checkpoint
});

test('a raw start event is the input and the workflow id is the request id', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('raw', { A: { fn: (x: { a: number }) => x.a, instructions: [succeed] } });
  const d = new Driver(store, nodes);
  await d.run({ a: 7, b: 1 }, {}, 'req-123');
  expect(await runOf(name, 'req-123')).toEqual({ status: 'SUCCEEDED', result: 7 });
});

test('large values travel by reference and the result is referenced from the run record', async () => {
  const { name, store } = await db.table();
  const big = 'x'.repeat(5000);
  const nodes = defineWorkflow(
    'big',
    {
      A: { fn: () => ({ big }), instructions: [seq('B')] },
      B: { fn: (x: { big: string }) => ({ len: x.big.length, big: x.big }), instructions: [succeed] },
    },
    { inlineLimitBytes: 1000 },
  );
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'big-1', input: null });
  expect(d.invoker.sent[0].event.unum.inputs[0]).toHaveProperty('ref');
  const run = await db.run(name, 'big-1');
  expect(run?.status?.S).toBe('SUCCEEDED');
  expect(run?.resultRef?.S).toMatch(/^ckpt#/);
});

test('a value over the 400 KB item limit fails the run naming node and size', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('huge', { A: { fn: () => 'y'.repeat(500 * 1024), instructions: [succeed] } });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'huge-1', input: null });
  const run = await runOf(name, 'huge-1');
  expect(run.status).toBe('FAILED');
  expect(run.error).toMatchObject({ node: 'A', error: 'States.DataLimitExceeded' });
  expect(run.error?.cause).toMatch(/node A: output of 512002 bytes/);
});

test('parallel: branch outputs arrive at the join in branch order', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('par', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'parallel', targets: ['B1', 'B2', 'B3'], join: 'J' } }] },
    B1: { fn: async (x: number) => x + 1, instructions: [fanIn('J', 0, 3)] },
    B2: { fn: async (x: number) => x + 2, instructions: [seq('B2b')] },
    B2b: { fn: async (x: number) => x * 10, instructions: [fanIn('J', 1, 3)] },
    B3: { fn: async (x: number) => `s${x}`, instructions: [fanIn('J', 2, 3)] },
    J: { fn: (xs: unknown[]) => xs, join: { tails: ['B1', 'B2b', 'B3'] }, instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'p1', input: 1 });
  expect(await runOf(name, 'p1')).toEqual({ status: 'SUCCEEDED', result: [2, 30, 's1'] });
  // Origin, B1, B2, B2b and B3 (J's commit is the run's final write); the fan-in's one shard.
  expect(await leftovers(name)).toEqual({ shards: 1, checkpoints: 5, untimed: 0 });
});

test('map with ItemsPath, ItemSelector and the context object, three items at a time: later items are rebuilt from the origin', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('map', {
    O: {
      fn: (x: number) => ({ xs: Array.from({ length: x }, (_, i) => i), k: 100 }),
      instructions: [
        {
          op: 'invoke',
          invoke: {
            kind: 'map',
            target: 'M',
            join: 'J',
            itemsPath: '$.xs',
            itemSelector: { 'v.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index', 'k.$': '$.k' },
            maxConcurrency: 3,
          },
        },
      ],
    },
    M: {
      fn: (x: { v: number; i: number; k: number }) => x.v * x.v + x.k + x.i,
      mapItems: { itemsPath: '$.xs', itemSelector: { 'v.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index', 'k.$': '$.k' } },
      instructions: [{ op: 'invoke', invoke: { kind: 'fanIn', target: 'J', size: 'frame', tail: 0, launch: { target: 'M', maxConcurrency: 3 } } }],
    },
    J: { fn: (xs: number[]) => xs, join: { tails: ['M'] }, instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'm1', input: 5 });
  expect(await runOf(name, 'm1')).toEqual({ status: 'SUCCEEDED', result: [100, 102, 106, 112, 120] });
  // The origin sent items 0-2; the tails of items 0 and 1 sent items 3 and 4, by reference to the origin's checkpoint.
  const inputs = d.invoker.sent.filter((s) => s.functionName === 'fn-M').map((s) => s.event.unum.inputs[0]);
  // Items 0 and 1 end concurrently, so their tails may launch items 3 and 4 in either order.
  expect(inputs.slice(0, 3).every((i) => !('mapItem' in i))).toBe(true);
  expect(inputs.slice(3).map((i) => ('mapItem' in i ? i.mapItem.index : 'inline')).sort()).toEqual([3, 4]);
  expect(await leftovers(name)).toEqual({ shards: 1, checkpoints: 6, untimed: 0 });  // the terminal's commit is the run's final write: no checkpoint
});

test('map items over the inline limit go by reference and are rebuilt by the item processor', async () => {
  const { name, store } = await db.table();
  const big = (i: number): string => String(i).repeat(400);
  const mapOf = (itemSelector?: { [k: string]: string }): Instruction => ({
    op: 'invoke',
    invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$.xs', ...(itemSelector ? { itemSelector } : {}), maxConcurrency: 0 },
  });
  const selector = { 'v.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index', 'o.$': '$$.State.Name' };
  for (const [id, itemSelector] of [['plain', undefined], ['selected', selector]] as const) {
    const spec = { itemsPath: '$.xs', ...(itemSelector ? { itemSelector } : {}) };
    const nodes = defineWorkflow(
      `mapref-${id}`,
      {
        // Items 0 and 2 are small (inline), item 1 is large (by reference).
        O: { fn: () => ({ xs: ['a', big(1), 'c'] }), instructions: [mapOf(itemSelector)] },
        M: { fn: (x: unknown) => x, mapItems: spec, instructions: [fanIn('J', 0)] },
        J: { fn: (xs: unknown[]) => xs, join: { tails: ['M'] }, instructions: [succeed] },
      },
      { inlineLimitBytes: 200 },
    );
    const d = new Driver(store, nodes);
    await d.run({ workflowId: `mr-${id}`, input: null });
    const inputs = d.invoker.sent.filter((s) => s.functionName === 'fn-M').map((s) => s.event.unum.inputs[0]);
    expect(inputs.filter((i) => 'value' in i)).toHaveLength(2);
    expect(inputs.filter((i) => 'mapItem' in i)).toEqual([{ mapItem: { origin: expect.stringMatching(/^ckpt#/), index: 1, state: 'O' } }]);
    const expected = ['a', big(1), 'c'].map((v, i) => (itemSelector ? { v, i, o: 'O' } : v));
    const run = await db.run(name, `mr-${id}`);
    expect(run?.status?.S).toBe('SUCCEEDED');
    const result = run?.result?.S !== undefined ? JSON.parse(run.result.S) : JSON.parse((await store.getCheckpoint(run?.resultRef?.S as string) as { json: string }).json);
    expect(result).toEqual(expected);
  }
});

test('an item larger than Lambda\'s async payload limit reaches its branch by reference', async () => {
  const { name, store } = await db.table();
  const huge = 'h'.repeat(300 * 1024);
  const nodes = defineWorkflow('mapref-huge', {
    O: { fn: () => ['small', huge], instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    M: { fn: (x: string) => x.length, mapItems: { itemsPath: '$' }, instructions: [fanIn('J', 0)] },
    J: { fn: (xs: number[]) => xs, join: { tails: ['M'] }, instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'huge-map', input: null });
  expect(await runOf(name, 'huge-map')).toEqual({ status: 'SUCCEEDED', result: [5, huge.length] });
  const largest = Math.max(...d.invoker.sent.map((s) => Buffer.byteLength(JSON.stringify(s.event))));
  expect(largest).toBeLessThan(1024);
});

test('a late duplicate of a by-reference map item after the run finished: its successor check stops it, nothing runs or is sent', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow(
    'mapref-late',
    {
      O: { fn: () => ['x'.repeat(300)], instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
      M: { fn: (x: string) => x.length, mapItems: { itemsPath: '$' }, instructions: [fanIn('J', 0)] },
      J: { fn: (xs: number[]) => xs, join: { tails: ['M'] }, instructions: [succeed] },
    },
    { inlineLimitBytes: 100 },
  );
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'late-1', input: null });
  expect(await runOf(name, 'late-1')).toEqual({ status: 'SUCCEEDED', result: [300] });
  const delivery = d.invoker.sent.find((s) => s.functionName === 'fn-M');
  expect(delivery?.event.unum.inputs[0]).toHaveProperty('mapItem');
  // The item finds its own checkpoint, then the join's: it records no arrival and invokes nothing.
  const before = await leftovers(name);
  const sentBefore = d.invoker.sent.length;
  const writes = jest.fn();
  const send = db.client.send.bind(db.client);
  const spy = jest.spyOn(db.client, 'send').mockImplementation(((cmd: { constructor: { name: string } }) => {
    if (!/Get/.test(cmd.constructor.name)) writes(cmd.constructor.name);
    return send(cmd as never);
  }) as never);
  try {
    await d.deliver('fn-M', delivery?.event);
  } finally {
    spy.mockRestore();
  }
  expect(writes).not.toHaveBeenCalled();
  expect(d.invoker.sent.length).toBe(sentBefore);
  expect(await leftovers(name)).toEqual(before);
  expect(await runOf(name, 'late-1')).toEqual({ status: 'SUCCEEDED', result: [300] });
});

test('an empty map invokes the join at once with []', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('empty', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    M: { fn: (x: number) => x, instructions: [fanIn('J', 0)] },
    J: { fn: (xs: number[]) => ({ n: xs.length }), join: { tails: ['M'] }, instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'e1', input: [] });
  expect(await runOf(name, 'e1')).toEqual({ status: 'SUCCEEDED', result: { n: 0 } });
  expect(await leftovers(name)).toEqual({ shards: 0, checkpoints: 1, untimed: 0 });  // the terminal's commit is the run's final write: no checkpoint
});

test('nested map: a map inside each branch of a map', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('nested', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M1', join: 'J1', itemsPath: '$', maxConcurrency: 0 } }] },
    M1: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M2', join: 'J2', itemsPath: '$', maxConcurrency: 0 } }] },
    M2: { fn: (x: number) => x * 10, instructions: [fanIn('J2', 0)] },
    J2: { fn: (xs: number[]) => xs.reduce((a, b) => a + b, 0), join: { tails: ['M2'] }, instructions: [fanIn('J1', 0)] },
    J1: { fn: (xs: number[]) => xs, join: { tails: ['J2'] }, instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'n1', input: [[1, 2], [3], [4, 5, 6]] });
  expect(await runOf(name, 'n1')).toEqual({ status: 'SUCCEEDED', result: [30, 30, 150] });
  expect(await leftovers(name)).toEqual({ shards: 4, checkpoints: 13, untimed: 0 });  // the terminal's commit is the run's final write: no checkpoint
});

test('choice: first matching rule wins; no match fails the run', async () => {
  const { name, store } = await db.table();
  const choose: Instruction = {
    op: 'choice',
    state: 'Check',
    rules: [
      { when: { kind: 'compare', type: 'number', op: 'gt', path: '$.n', value: 100 }, then: [seq('Huge')] },
      { when: { kind: 'compare', type: 'number', op: 'gt', path: '$.n', value: 10 }, then: [seq('Big')] },
      { when: { kind: 'compare', type: 'number', op: 'ge', path: '$.n', value: 0 }, then: [seq('Small')] },
    ],
  };
  const nodes = defineWorkflow('choice', {
    A: { fn: (x: number) => ({ n: x }), instructions: [choose] },
    Huge: { handler: { kind: 'pass', result: 'huge' }, instructions: [succeed] },
    Big: { handler: { kind: 'pass', result: 'big' }, instructions: [succeed] },
    Small: { handler: { kind: 'pass', result: 'small' }, instructions: [succeed] },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'c1', input: 50 });
  await d.run({ workflowId: 'c2', input: 5 });
  await d.run({ workflowId: 'c3', input: 500 });
  await d.run({ workflowId: 'c4', input: -1 });
  expect((await runOf(name, 'c1')).result).toBe('big');
  expect((await runOf(name, 'c2')).result).toBe('small');
  expect((await runOf(name, 'c3')).result).toBe('huge');
  expect(await runOf(name, 'c4')).toMatchObject({ status: 'FAILED', error: { node: 'A', error: 'States.NoChoiceMatched' } });
});

test('fail instruction ends the run FAILED with its error and cause', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('fail', { A: { instructions: [{ op: 'fail', state: 'Failed', error: 'Bad.Input', cause: 'nope' }] } });
  await new Driver(store, nodes).run({ workflowId: 'f1', input: 1 });
  expect(await runOf(name, 'f1')).toEqual({ status: 'FAILED', error: { node: 'A', state: 'Failed', error: 'Bad.Input', cause: 'nope' } });
});

test('loop: a back edge runs the node again one iteration later', async () => {
  const { name, store } = await db.table();
  const calls: number[] = [];
  // A loop target cannot be the entry (it accepts start requests only): the compiler adds a start node.
  const nodes = defineWorkflow('loop', {
    Start: { instructions: [seq('A')] },
    A: {
      fn: (x: { i: number }) => {
        calls.push(x.i);
        return { i: x.i + 1 };
      },
      instructions: [
        {
          op: 'choice',
          state: 'Check',
          rules: [{ when: { kind: 'compare', type: 'number', op: 'lt', path: '$.i', value: 5 }, then: [{ op: 'incrIteration' }, seq('A')] }],
          otherwise: [seq('Done')],
        },
      ],
    },
    Done: { instructions: [succeed] },
  });
  await new Driver(store, nodes).run({ workflowId: 'l1', input: { i: 0 } });
  expect(calls).toEqual([0, 1, 2, 3, 4]);
  expect(await runOf(name, 'l1')).toEqual({ status: 'SUCCEEDED', result: { i: 5 } });
  expect(await leftovers(name)).toEqual({ shards: 0, checkpoints: 6, untimed: 0 });  // the terminal's commit is the run's final write: no checkpoint
});

test('loop inside map branches: the join finds each tail at its own iteration', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('maploop', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    M: {
      fn: (x: number) => x - 1,
      instructions: [
        {
          op: 'choice',
          state: 'Check',
          rules: [{ when: { kind: 'compare', type: 'number', op: 'gt', path: '$', value: 0 }, then: [{ op: 'incrIteration' }, seq('M')] }],
          otherwise: [fanIn('J', 0)],
        },
      ],
    },
    J: { fn: (xs: number[]) => xs.length, join: { tails: ['M'] }, instructions: [succeed] },
  });
  await new Driver(store, nodes).run({ workflowId: 'ml1', input: [3, 1, 4] });
  expect(await runOf(name, 'ml1')).toEqual({ status: 'SUCCEEDED', result: 3 });
});

test('fold: one invocation per item, in order, then the instructions', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('fold', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'F', itemsPath: '$', maxConcurrency: 0 } }] },
    M: { fn: (x: string) => x.toUpperCase(), instructions: [fanIn('F', 0)] },
    F: {
      fn: (acc: string, item: string, i: number) => `${acc}${i}${item}`,
      handler: { kind: 'fold', export: 'handler', initial: '>' },
      join: { tails: ['M'] },
      instructions: [seq('End')],
    },
    End: { fn: (s: string) => ({ s }), instructions: [succeed] },
  });
  await new Driver(store, nodes).run({ workflowId: 'fo1', input: ['a', 'b', 'c', 'd'] });
  expect(await runOf(name, 'fo1')).toEqual({ status: 'SUCCEEDED', result: { s: '>0A1B2C3D' } });
  expect(await leftovers(name)).toEqual({ shards: 1, checkpoints: 9, untimed: 0 });  // the terminal's commit is the run's final write: no checkpoint
});

test('fold over an empty map yields the initial value', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('fold0', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'F', itemsPath: '$', maxConcurrency: 0 } }] },
    M: { fn: (x: number) => x, instructions: [fanIn('F', 0)] },
    F: { fn: (a: number, b: number) => a + b, handler: { kind: 'fold', export: 'handler', initial: 42 }, join: { tails: ['M'] }, instructions: [succeed] },
  });
  await new Driver(store, nodes).run({ workflowId: 'fo0', input: [] });
  expect(await runOf(name, 'fo0')).toEqual({ status: 'SUCCEEDED', result: 42 });
});

test('retry: the handler is retried in-process with backoff', async () => {
  const { name, store } = await db.table();
  let calls = 0;
  const nodes = defineWorkflow('retry', {
    A: {
      fn: () => {
        calls++;
        if (calls < 3) throw Object.assign(new Error(`flaky ${calls}`), { name: 'Flaky' });
        return 'ok';
      },
      retry: [{ errors: ['Flaky'], maxAttempts: 2, intervalSeconds: 0.01, backoffRate: 2, jitter: 'FULL' }],
      instructions: [succeed],
    },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'r1', input: null });
  expect(calls).toBe(3);
  expect(d.executions).toBe(1);
  expect(await runOf(name, 'r1')).toEqual({ status: 'SUCCEEDED', result: 'ok' });
});

test('catch: the error goes to the handler node as {Error, Cause} at ResultPath', async () => {
  const { name, store } = await db.table();
  let calls = 0;
  const nodes = defineWorkflow('catch', {
    A: {
      fn: () => {
        calls++;
        throw Object.assign(new Error('boom'), { name: 'Custom' });
      },
      retry: [{ errors: ['Other'], maxAttempts: 3, intervalSeconds: 0.01, backoffRate: 2, jitter: 'NONE' }],
      catch: [
        { errors: ['Nope'], next: 'Never' },
        { errors: ['States.ALL'], next: 'H', resultPath: '$.error' },
      ],
      instructions: [seq('Never')],
    },
    Never: { instructions: [succeed] },
    H: { fn: (x: unknown) => x, instructions: [succeed] },
  });
  await new Driver(store, nodes).run({ workflowId: 'k1', input: { a: 1 } });
  expect(calls).toBe(1);
  expect(await runOf(name, 'k1')).toEqual({ status: 'SUCCEEDED', result: { a: 1, error: { Error: 'Custom', Cause: lambdaCause('Custom', 'boom') } } });
  // The thrower's checkpoint holds the caught error; H's merged value is the run's result (its commit is the run's final write).
  const ckpts = (await db.scan(name)).filter((i) => i.pk.S?.startsWith('ckpt#'));
  expect(ckpts).toHaveLength(1);
});

test('failure record: exhausted Lambda retries end the run FAILED with node, error and cause', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('failrec', {
    A: { fn: (x: number) => x, instructions: [seq('B')] },
    B: {
      fn: () => {
        throw Object.assign(new TypeError('cannot read x'), { name: 'TypeError' });
      },
      instructions: [succeed],
    },
  });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'fr1', input: 1 });
  expect(d.failures).toHaveLength(1);
  expect(d.executions).toBe(4);
  expect(await runOf(name, 'fr1')).toEqual({ status: 'FAILED', error: { node: 'B', state: 'B', error: 'TypeError', cause: lambdaCause('TypeError', 'cannot read x') } });
});

test('a start request with a bad workflow id is rejected before any write, without a Lambda retry', async () => {
  const { name, store } = await db.table();
  const nodes = defineWorkflow('bad', { A: { fn: (x: number) => x, instructions: [succeed] } });
  const d = new Driver(store, nodes);
  await d.run({ workflowId: 'no spaces allowed', input: 1 });
  expect([d.executions, d.failures]).toEqual([1, []]);
  expect(await db.scan(name)).toEqual([]);
});

test('folded Pass states (pass instructions): a join reads the transformed tails, large values go by reference, a choice sees the transformed value', async () => {
  const { name, store } = await db.table();
  const pad = 'p'.repeat(300);
  const nodes = defineWorkflow(
    'passes',
    {
      O: { instructions: [{ op: 'invoke', invoke: { kind: 'parallel', targets: ['B1', 'B2'], join: 'F' } }] },
      // B1's output is larger than the inline limit after its pass: the join must read the transformed checkpoint.
      B1: { fn: (x: number) => ({ n: x + 1 }), instructions: [{ op: 'pass', io: { parameters: { 'v.$': '$.n', pad } } }, fanIn('F', 0, 2)] },
      B2: { fn: (x: number) => ({ n: x * 10 }), instructions: [{ op: 'pass', io: { outputPath: '$.n' } }, { op: 'pass', io: { parameters: { 'v.$': '$' } } }, fanIn('F', 1, 2)] },
      F: {
        fn: (acc: number, item: { v: number }) => acc + item.v,
        handler: { kind: 'fold', export: 'handler', initial: 0 },
        join: { tails: ['B1', 'B2'] },
        instructions: [
          { op: 'pass', io: { parameters: { 'total.$': '$', pad } } },
          { op: 'choice', state: 'Check', rules: [{ when: { kind: 'compare', type: 'number', op: 'gt', path: '$.total', value: 20 }, then: [seq('End')] }], otherwise: [succeed] },
        ],
      },
      End: { fn: (x: { total: number; pad: string }) => ({ end: x.total, padded: x.pad === pad }), instructions: [succeed] },
    },
    { inlineLimitBytes: 100 },
  );
  await new Driver(store, nodes).run({ workflowId: 'pa1', input: 2 });
  expect(await runOf(name, 'pa1')).toEqual({ status: 'SUCCEEDED', result: { end: 23, padded: true } });
  // Origin, both tails and both fold steps (End's commit is the run's final write); the fan-in's one shard.
  expect(await leftovers(name)).toEqual({ shards: 1, checkpoints: 5, untimed: 0 });

  await new Driver(store, nodes).run({ workflowId: 'pa2', input: 1 });
  const run = await db.run(name, 'pa2');
  expect(run?.status?.S).toBe('SUCCEEDED');
  // The result is over the inline limit: the run record names the fold's last checkpoint, which holds the transformed value.
  const stored = await store.getCheckpoint(run?.resultRef?.S as string);
  expect(stored && JSON.parse(stored.json)).toEqual({ total: 12, pad });
});
