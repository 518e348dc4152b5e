/**
 * The state input reaches the join: a Parallel's / Map's ResultSelector,
 * ResultPath (into the state input, read from the origin's checkpoint) and
 * OutputPath, compiled from the DSL and run on MemoryStore with the driver,
 * with values inline and by reference, duplicates and crashes.
 */
import { compileWorkflow } from '../../lib/compiler';
import { Definition, Fold, type IChainable, MapState, Parallel, Task } from '../../lib/definition';
import { Driver, fromCompiled, type DriverOptions } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/join-io.ts';
const task = (name: string, handler: string): Task => new Task(name, { entry: ENTRY, handler });
const handlers = {
  double: (x: number) => x * 2,
  echo: (x: unknown) => x,
  length: (x: unknown) => JSON.stringify(x).length,
  add: (acc: number, n: number) => acc + n,
};

async function run(definition: IChainable, input: unknown, options: { inlineLimitBytes?: number } = {}, driver: DriverOptions = {}) {
  const store = new MemoryStore();
  const d = new Driver(store, fromCompiled(compileWorkflow('joinio', Definition.from(definition), options), handlers));
  await d.run({ workflowId: 'w', input }, driver);
  const record = store.runOf('w');
  // A result larger than the inline limit is referenced: its checkpoint holds it.
  const stored = record?.resultRef === undefined ? undefined : store.checkpoints.get(record.resultRef);
  const json = record?.result ?? stored?.json;
  return { record, result: json === undefined ? undefined : (JSON.parse(json) as unknown), store, sent: d.invoker.sent };
}

describe('Parallel', () => {
  const order = { order: { id: 'o-1', qty: 3 }, customer: 'c' };
  const parallel = (props: ConstructorParameters<typeof Parallel>[1]) => new Parallel('P', props).branch(task('A', 'echo'), task('B', 'echo'));

  it('ResultPath merges the branch outputs into the raw state input (before InputPath and Parameters)', async () => {
    const { result } = await run(parallel({ inputPath: '$.order', parameters: { 'n.$': '$.qty' }, resultPath: '$.results' }), order);
    expect(result).toEqual({ ...order, results: [{ n: 3 }, { n: 3 }] });
  });

  it('ResultSelector builds an object, ResultPath places it, OutputPath selects from the combination', async () => {
    const p = parallel({ resultSelector: { 'first.$': '$[0].order.id', 'second.$': '$[1].customer' }, resultPath: '$.summary', outputPath: '$.summary' });
    expect((await run(p, order)).result).toEqual({ first: 'o-1', second: 'c' });
  });

  it('ResultPath null keeps the state input; the branch outputs are discarded', async () => {
    expect((await run(parallel({ resultPath: null }), order)).result).toEqual(order);
  });

  it('a branch input too large to travel inline is rebuilt by the branch start from the origin', async () => {
    const big = { keep: 'k', payload: { text: 'x'.repeat(2000) } };
    const p = new Parallel('P', { inputPath: '$.payload', parameters: { 't.$': '$.text', 'run.$': '$$.Execution.Id' }, resultPath: '$.lengths' }).branch(task('A', 'length'), task('B', 'length'));
    const { record, result, sent } = await run(task('S', 'echo').next(p), big, { inlineLimitBytes: 256 });
    // Both branches got a reference to the origin (S), not the value.
    const branchInputs = sent.filter((s) => s.functionName === 'fn-A' || s.functionName === 'fn-B').map((s) => s.event.unum.inputs[0]);
    expect(branchInputs).toEqual([{ ref: sent[0].event.unum.fanOut[0].origin }, { ref: sent[0].event.unum.fanOut[0].origin }]);
    const expected = JSON.stringify({ t: 'x'.repeat(2000), run: 'w' }).length;
    expect(record).toMatchObject({ status: 'SUCCEEDED' });
    expect(result).toEqual({ ...big, lengths: [expected, expected] });
  });

  it('a large state input: the join reads it from the origin, with the tails, under duplicate deliveries', async () => {
    const big = { blob: 'y'.repeat(3000), n: 1 };
    const { result } = await run(task('S', 'echo').next(parallel({ resultSelector: { 'ok.$': '$[1].n' }, resultPath: '$.r' })), big, { inlineLimitBytes: 256 }, { deliveries: 2 });
    expect(result).toEqual({ ...big, r: { ok: 1 } });
  });
});

describe('Map', () => {
  const input = { batch: { rows: [1, 2, 3] }, tag: 't' };

  it('InputPath selects the Map input, ResultPath merges the results into the raw state input', async () => {
    const m = new MapState('M', { inputPath: '$.batch', itemsPath: '$.rows', resultPath: '$.doubled' }).itemProcessor(task('D', 'double'));
    expect((await run(m, input)).result).toEqual({ ...input, doubled: [2, 4, 6] });
  });

  it('items sent by reference are rebuilt with InputPath, ItemsPath and ItemSelector', async () => {
    const rows = Array.from({ length: 4 }, (_, i) => ({ i, pad: 'z'.repeat(300) }));
    const m = new MapState('M', { inputPath: '$.batch', itemsPath: '$.rows', itemSelector: { 'i.$': '$$.Map.Item.Value.i', 'pad.$': '$$.Map.Item.Value.pad' }, resultSelector: { 'n.$': '$[3].i' }, resultPath: '$.out' }).itemProcessor(task('E', 'echo'));
    const { result } = await run(task('S', 'echo').next(m), { batch: { rows }, tag: 't' }, { inlineLimitBytes: 200 });
    expect(result).toEqual({ batch: { rows }, tag: 't', out: { n: 3 } });
  });

  it('an empty Map merges [] into the state input (the origin is the join\'s parent)', async () => {
    const m = new MapState('M', { itemsPath: '$.rows', resultPath: '$.out' }).itemProcessor(task('D', 'double'));
    expect((await run(task('S', 'echo').next(m), { rows: [], x: 1 })).result).toEqual({ rows: [], x: 1, out: [] });
  });

  it('a Map at the start of the workflow (its own origin node) with ResultPath, delivered twice', async () => {
    const m = new MapState('M', { itemsPath: '$.rows', resultPath: '$.rows' }).itemProcessor(task('D', 'double'));
    expect((await run(m, { rows: [5, 6] }, {}, { deliveries: 2 })).result).toEqual({ rows: [10, 12] });
  });

  it('Map -> Fold keeps working without output processing', async () => {
    const m = new MapState('M', { inputPath: '$.batch', itemsPath: '$.rows' }).itemProcessor(task('D', 'double'));
    const sum = new Fold<number, number>('Sum', { entry: ENTRY, handler: 'add', initial: 0 });
    expect((await run(m.next(sum), input)).result).toBe(12);
  });
});
