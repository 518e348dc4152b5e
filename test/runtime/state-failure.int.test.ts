/**
 * What happens around a failed Parallel/Map with rules, on DynamoDB Local
 * (real conditional writes and batch reads): branches still running stop at
 * their next step, before their handler, while a retried attempt's branches
 * (new names) run; a crash or timeout Lambda gave up on fails the state, not
 * the run, and the state's Catch routes it once however often the failure
 * recorder runs.
 */
import { randomUUID } from 'node:crypto';
import { compileWorkflow } from '../../lib/compiler';
import { Definition, type IChainable, MapState, Parallel, Pass, Task } from '../../lib/definition';
import type { FailureRecord } from '../../runtime/contract/failure-record';
import { parseKey } from '../../runtime/contract/table';
import { useTestDb } from '../support/dynamodb';
import { type Delivery, Driver, fromCompiled } from '../support/harness';

const db = useTestDb();

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/state-failure.ts';
const task = (name: string, handler: string): Task => new Task(name, { entry: ENTRY, handler });

class Boom extends Error {
  override name = 'Boom';
}

/** Handlers counting their calls by name. */
function counted(fns: Record<string, (x: never) => unknown>) {
  const calls: Record<string, number> = {};
  const module = Object.fromEntries(
    Object.entries(fns).map(([k, fn]) => [
      k,
      (x: never) => {
        calls[k] = (calls[k] ?? 0) + 1;
        return fn(x);
      },
    ]),
  );
  return { calls, module };
}

async function driver(definition: IChainable, module: Record<string, unknown>) {
  const { name, store } = await db.table();
  return { name, d: new Driver(store, fromCompiled(compileWorkflow('sfail', Definition.from(definition)), module)) };
}

async function outcome(name: string) {
  const item = await db.run(name, 'r');
  const items = await db.scan(name);
  return {
    status: item?.status?.S,
    result: item?.result?.S === undefined ? undefined : (JSON.parse(item.result.S) as unknown),
    error: item?.error?.M && { node: item.error.M.node?.S, state: item.error.M.state?.S, error: item.error.M.error?.S },
    shards: items.filter((i) => parseKey(i.pk.S as string)?.kind === 'shard').length,
  };
}

/** Lambda's destination record for an event it gave up on. */
function gaveUp(d: Delivery, errorType: string, errorMessage: string): FailureRecord {
  return {
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: { requestId: randomUUID(), functionArn: `arn:aws:lambda:us-east-1:123456789012:function:${d.functionName}:$LATEST`, condition: 'RetriesExhausted', approximateInvokeCount: 3 },
    requestPayload: d.event,
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: { errorType, errorMessage, trace: [] },
  };
}

describe('branches of a failed state stop at their next step', () => {
  test('a late step of the failed attempt runs no handler; the retried attempt (new names) runs every step', async () => {
    let failures = 1;
    const h = counted({
      echo: (x: unknown) => x,
      flaky: (x: unknown) => {
        if (failures-- > 0) throw new Boom('first attempt');
        return x;
      },
    });
    const p = new Parallel('P').branch(task('Slow', 'echo').next(task('Slow2', 'echo')), task('Flaky', 'flaky')).addRetry({ errors: ['Boom'], maxAttempts: 1, intervalSeconds: 1 });
    const { name, d } = await driver(p, h.module);
    // Hold the first attempt's second step until its state has failed and been retried.
    let holding = true;
    await d.run({ workflowId: 'r', input: { n: 1 } }, { hold: (x) => holding && x.functionName === 'fn-Slow2' && !(holding = false) });
    // One shard: the retried attempt's, left to its TTL (the failed attempt's Flaky and held Slow2 never arrived).
    expect(await outcome(name)).toEqual({ status: 'SUCCEEDED', result: [{ n: 1 }, { n: 1 }], error: undefined, shards: 1 });
    // Slow ran in both attempts, Slow2 in the second only so far.
    expect(h.calls).toEqual({ echo: 3, flaky: 2 });
    expect(d.held).toHaveLength(1);
    await d.deliver(d.held[0].functionName, d.held[0].event);
    await d.drain();
    // The failed attempt's Slow2 stopped before its handler: no call, no checkpoint, no arrival, no failure.
    expect(h.calls).toEqual({ echo: 3, flaky: 2 });
    expect(await outcome(name)).toEqual({ status: 'SUCCEEDED', result: [{ n: 1 }, { n: 1 }], error: undefined, shards: 1 });
    expect(d.failures).toEqual([]);
  });

  test('an item of a Map nested in a failed Parallel stops too (the outer state\'s failure)', async () => {
    const h = counted({ echo: (x: unknown) => x, boom: () => { throw new Boom('no'); } });
    const inner = new MapState('Items', { itemsPath: '$.items' }).itemProcessor(task('Step1', 'echo').next(task('Step2', 'echo')));
    const p = new Parallel('P').branch(inner, task('Bad', 'boom')).addCatch(new Pass('Caught', { parameters: { 'e.$': '$.Error' } }));
    const { name, d } = await driver(p, h.module);
    // The items reach their second step before the other branch fails.
    await d.run({ workflowId: 'r', input: { items: [1, 2] } }, { hold: (x) => ['fn-Step2', 'fn-Bad'].includes(x.functionName) });
    const step2 = d.held.filter((x) => x.functionName === 'fn-Step2');
    expect(step2).toHaveLength(2);
    for (const held of d.held.filter((x) => x.functionName === 'fn-Bad')) await d.deliver(held.functionName, held.event);
    await d.drain();
    expect(await outcome(name)).toMatchObject({ status: 'SUCCEEDED', result: { e: 'Boom' } });
    const before = h.calls.echo;
    for (const held of step2) await d.deliver(held.functionName, held.event);
    await d.drain();
    expect(h.calls.echo).toBe(before);
    expect(d.failures).toEqual([]);
  });
});

describe('a crash or timeout Lambda gave up on fails the state, not the run', () => {
  test('a timed-out branch is States.Timeout for the state\'s Catch, routed once under duplicates of the failure recorder', async () => {
    const h = counted({ echo: (x: unknown) => x, handle: (x: unknown) => x });
    const p = new Parallel('P')
      .branch(task('Ok', 'echo'), task('Hang', 'echo'))
      .addCatch(task('Handle', 'handle'), { errors: ['States.Timeout'], resultPath: '$.failure' })
      .next(new Pass('After'));
    const { name, d } = await driver(p, h.module);
    // Hang's event never completes: Lambda gives up and its on-failure destination runs the recorder, here three times.
    await d.run({ workflowId: 'r', input: { order: 7 } }, { hold: (x) => x.functionName === 'fn-Hang' });
    expect((await outcome(name)).status).toBe('RUNNING');
    const record = gaveUp(d.held[0], 'Sandbox.Timedout', 'Task timed out after 40.00 seconds');
    await Promise.all([d.recorder(record), d.recorder(record)]);
    await d.recorder(record);
    await d.drain({ deliveries: 2 });
    const r = await outcome(name);
    // The state's shard stays until its TTL: the timed-out branch never arrived.
    expect(r).toMatchObject({ status: 'SUCCEEDED', error: undefined, shards: 1 });
    expect(r.result).toEqual({ order: 7, failure: { Error: 'States.Timeout', Cause: expect.stringContaining('Task timed out') as unknown } });
    // Each recorder run noticed the join; the join's checkpoint decided once: one invocation of the catch handler (duplicates absorbed by its checkpoint).
    const sent = (fn: string) => d.invoker.sent.filter((s) => s.functionName === fn).map((s) => JSON.stringify(s.event));
    expect(sent('fn-P.Join')).toHaveLength(3);
    expect(new Set(sent('fn-P.Join')).size).toBe(1);
    expect(new Set(sent('fn-Handle')).size).toBe(1);
    expect(d.failures).toEqual([]);
  });

  test('a crashed item whose state has no matching rule fails the run once, at the join, naming the Map', async () => {
    const h = counted({ echo: (x: unknown) => x });
    const m = new MapState('Items', { itemsPath: '$.items' }).itemProcessor(task('Item', 'echo')).addCatch(new Pass('Other'), { errors: ['Other'] });
    const { name, d } = await driver(m, h.module);
    await d.run({ workflowId: 'r', input: { items: [1, 2, 3] } }, { hold: (x) => x.functionName === 'fn-Item' && x.event.unum.fanOut[0].index === 1 });
    await d.recorder(gaveUp(d.held[0], 'Runtime.ExitError', 'Runtime exited with error: exit status 1'));
    await d.drain();
    expect(await outcome(name)).toMatchObject({ status: 'FAILED', result: undefined, error: { node: 'Items.Join', state: 'Items', error: 'Runtime.ExitError' } });
    expect(d.failures).toEqual([]);
  });
});
