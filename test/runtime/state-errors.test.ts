/**
 * Retry and Catch on Parallel and Map, compiled from the DSL and run on
 * MemoryStore with the driver: a branch or item error no rule inside
 * handles fails the state once; its Retry runs the state again under new
 * invocation names; its Catch routes `{Error, Cause}` once, however many
 * branches fail; late branches stop at their arrival. With duplicate
 * deliveries and crashes.
 */
import { compileWorkflow } from '../../lib/compiler';
import { Definition, Fail, type IChainable, MapState, Parallel, Pass, Task } from '../../lib/definition';
import { counting } from '../support/counting-store';
import { Driver, fromCompiled, lambdaCause, type DriverOptions } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/state-errors.ts';
const task = (name: string, handler: string): Task => new Task(name, { entry: ENTRY, handler });

class Boom extends Error {
  override name = 'Boom';
}

/** Handlers that count their calls by name. */
function handlers(extra: Record<string, (x: never) => unknown> = {}) {
  const calls: Record<string, number> = {};
  const count = (name: string, fn: (x: never) => unknown) => (x: never) => {
    calls[name] = (calls[name] ?? 0) + 1;
    return fn(x);
  };
  const all: Record<string, (x: never) => unknown> = {
    echo: (x: unknown) => x,
    boom: () => {
      throw new Boom('branch failed');
    },
    ...extra,
  };
  return { calls, module: Object.fromEntries(Object.entries(all).map(([k, fn]) => [k, count(k, fn)])) };
}

async function run(definition: IChainable, module: Record<string, unknown>, input: unknown, options: DriverOptions = {}, store = new MemoryStore()) {
  const d = new Driver(store, fromCompiled(compileWorkflow('errs', Definition.from(definition)), module));
  await d.run({ workflowId: 'w', input }, options);
  const record = store.runOf('w');
  return { record, result: record?.result === undefined ? undefined : (JSON.parse(record.result) as unknown), driver: d };
}

describe('Catch on a Parallel / Map', () => {
  it('routes a branch error as {Error, Cause} at its ResultPath in the state input; no Lambda retry', async () => {
    const h = handlers();
    const p = new Parallel('P').branch(task('Ok', 'echo'), task('Bad', 'boom')).addCatch(task('Handle', 'echo'), { resultPath: '$.error' });
    const { result, driver } = await run(p.next(task('After', 'echo')), h.module, { order: 1 });
    expect(result).toEqual({ order: 1, error: { Error: 'Boom', Cause: lambdaCause('Boom', 'branch failed') } });
    expect(h.calls).toEqual({ echo: 2, boom: 1 });
    expect(driver.failures).toEqual([]);
  });

  it('routes once however many items fail, under duplicate deliveries', async () => {
    const h = handlers({ record: (x: unknown) => x });
    const m = new MapState('M', { itemsPath: '$.items' }).itemProcessor(task('Item', 'boom')).addCatch(task('Handle', 'echo'), { errors: ['Boom'], resultPath: '$.error' });
    const { result, record, driver } = await run(m, h.module, { items: [1, 2, 3, 4, 5] }, { deliveries: 2 });
    expect(record?.status).toBe('SUCCEEDED');
    expect(result).toEqual({ items: [1, 2, 3, 4, 5], error: { Error: 'Boom', Cause: lambdaCause('Boom', 'branch failed') } });
    // Five items failed, each delivered twice: the handler's invocation is one, with one input (its duplicates are absorbed by its checkpoint).
    const routed = driver.invoker.sent.filter((s) => s.functionName === 'fn-Handle').map((s) => JSON.stringify(s.event));
    expect(routed.length).toBeGreaterThan(1);
    expect(new Set(routed).size).toBe(1);
  });

  it('a Fail state inside a branch fails the state, and its Catch gets the Fail\'s error', async () => {
    const h = handlers();
    const p = new Parallel('P').branch(task('Ok', 'echo'), new Fail('Declined', { error: 'Declined', cause: 'no stock' })).addCatch(new Pass('Recover'), { errors: ['Declined'] });
    expect((await run(p, h.module, { x: 1 })).result).toEqual({ Error: 'Declined', Cause: 'no stock' });
  });

  it('an error no Catch matches fails the run with the branch error, at once', async () => {
    const h = handlers();
    const p = new Parallel('P').branch(task('Bad', 'boom')).addCatch(new Pass('Other'), { errors: ['Other'] });
    const { record, driver } = await run(p, h.module, {});
    expect(record).toMatchObject({ status: 'FAILED', error: { error: 'Boom', cause: lambdaCause('Boom', 'branch failed'), node: 'P.Join' } });
    expect(h.calls.boom).toBe(1);
    expect(driver.failures).toEqual([]);
  });

  it('propagates through an inner Parallel without rules to the outer Map\'s Catch', async () => {
    const h = handlers();
    const inner = new Parallel('Inner').branch(task('Ok', 'echo'), task('Bad', 'boom'));
    const m = new MapState('Outer', { itemsPath: '$.items' }).itemProcessor(inner).addCatch(new Pass('Caught', { parameters: { 'caught.$': '$.Error' } }));
    expect((await run(m, h.module, { items: [1, 2] })).result).toEqual({ caught: 'Boom' });
  });

  it('a Task\'s own Catch inside the branch handles its error first: the state succeeds', async () => {
    const h = handlers();
    const bad = task('Bad', 'boom').addCatch(new Pass('Inside', { result: 'handled inside' }));
    const p = new Parallel('P').branch(bad).addCatch(new Pass('Outside', { result: 'outside' }));
    expect((await run(p, h.module, {})).result).toEqual(['handled inside']);
  });

  it('a branch still running after the failure stops at its next step (no handler) and records no arrival', async () => {
    const h = handlers();
    const p = new Parallel('P').branch(task('Slow', 'echo').next(task('Slow2', 'echo')), task('Bad', 'boom')).addCatch(new Pass('Caught', { result: 'caught' }));
    const store = new MemoryStore();
    let holding = true;
    const { result, driver } = await run(p, h.module, {}, { hold: (d) => holding && d.functionName === 'fn-Slow2' && !(holding = false) }, store);
    expect(result).toBe('caught');
    expect(driver.held).toHaveLength(1);
    const echoes = h.calls.echo;
    await driver.deliver(driver.held[0].functionName, driver.held[0].event);
    await driver.drain();
    expect(h.calls.echo).toBe(echoes);
    expect(store.runOf('w')?.result).toBe(JSON.stringify('caught'));
    // Neither Bad nor the stopped Slow2 arrived, and shards are created by arrivals only.
    expect(store.shards.size).toBe(0);
    expect(driver.invoker.sent.filter((s) => 'fanIn' in s.event.unum.inputs[0])).toEqual([]);
    expect(driver.failures).toEqual([]);
  });

  it('a crash while recording the failure: Lambda\'s retry records it and the Catch still routes once', async () => {
    const h = handlers();
    const memory = new MemoryStore();
    const c = counting(memory);
    c.failBefore.failState = 1;
    const m = new MapState('M', { itemsPath: '$.items' }).itemProcessor(task('Item', 'boom')).addCatch(new Pass('Caught', { parameters: { 'e.$': '$.Error' } }));
    const d = new Driver(c.store, fromCompiled(compileWorkflow('errs', Definition.from(m)), h.module));
    await d.run({ workflowId: 'w', input: { items: [1, 2, 3] } });
    expect(memory.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify({ e: 'Boom' }) });
    // The crashed execution ran again (Lambda's retry): it recorded the failure, or found another item's and stopped; nothing reached the failure recorder.
    expect(c.calls.failState).toBeGreaterThanOrEqual(3);
    expect(memory.stateFailures.size).toBe(1);
    expect(d.failures).toEqual([]);
  });

  it('a crash between recording the failure and invoking the join: the retry finds the failure its own and sends the notice, without running the handler', async () => {
    const h = handlers();
    const memory = new MemoryStore();
    const c = counting(memory);
    const m = new MapState('M', { itemsPath: '$.items' }).itemProcessor(task('Item', 'boom')).addCatch(new Pass('Caught', { parameters: { 'e.$': '$.Error' } }));
    const d = new Driver(c.store, fromCompiled(compileWorkflow('errs', Definition.from(m)), h.module));
    const failState = memory.failState.bind(memory);
    // The put lands, then the execution dies before its invoke of the join.
    memory.failState = async (...args) => {
      const r = await failState(...args);
      d.invoker.failNext = 1;
      return r;
    };
    await d.run({ workflowId: 'w', input: { items: [1] } });
    expect(memory.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify({ e: 'Boom' }) });
    expect(h.calls.boom).toBe(1);
    expect(c.calls.failState).toBe(1);
    expect(d.invoker.sent.filter((s) => s.functionName === 'fn-M.Join')).toHaveLength(1);
    expect(d.failures).toEqual([]);
  });
});

describe('Retry on a Parallel / Map', () => {
  it('runs the whole state again under new invocation names, then succeeds', async () => {
    let failures = 1;
    const h = handlers({
      flaky: (x: number) => {
        if (x === 2 && failures-- > 0) throw new Boom('once');
        return x * 10;
      },
    });
    const m = new MapState('M', { itemsPath: '$.items', resultPath: '$.out' }).itemProcessor(task('Item', 'flaky')).addRetry({ errors: ['Boom'], maxAttempts: 2, intervalSeconds: 1 });
    const { result, driver } = await run(m, h.module, { items: [1, 2, 3] });
    expect(result).toEqual({ items: [1, 2, 3], out: [10, 20, 30] });
    // Every item ran in both attempts: the second attempt's invocations have names of their own.
    expect(h.calls.flaky).toBe(6);
    const itemNames = new Set(driver.invoker.sent.filter((s) => s.functionName === 'fn-Item').map((s) => JSON.stringify([s.event.unum.iteration, s.event.unum.fanOut])));
    expect(itemNames.size).toBe(6);
  });

  it('gives up after maxAttempts and goes on to the Catch, counting retries across attempts', async () => {
    const h = handlers();
    const p = new Parallel('P').branch(task('Bad', 'boom')).addRetry({ errors: ['Boom'], maxAttempts: 2, intervalSeconds: 1, backoffRate: 1 }).addCatch(new Pass('Caught', { parameters: { 'e.$': '$.Error' } }));
    const { result } = await run(p, h.module, {});
    expect(result).toEqual({ e: 'Boom' });
    // The first attempt and two retries.
    expect(h.calls.boom).toBe(3);
  });

  it('under duplicate deliveries the retries are counted once per attempt', async () => {
    const h = handlers();
    const p = new Parallel('P').branch(task('Bad', 'boom')).addRetry({ errors: ['Boom'], maxAttempts: 1, intervalSeconds: 1 }).addCatch(new Pass('Caught', { parameters: { 'e.$': '$.Error' } }));
    const { result, driver } = await run(p, h.module, {}, { deliveries: 2 });
    expect(result).toEqual({ e: 'Boom' });
    // Two attempts (iterations 0 and 1 of the branch's fan-out frame), never a third.
    const attempts = new Set(driver.invoker.sent.filter((s) => s.functionName === 'fn-Bad').map((s) => s.event.unum.fanOut[0].iteration));
    expect([...attempts].sort()).toEqual([0, 1]);
  });
});
