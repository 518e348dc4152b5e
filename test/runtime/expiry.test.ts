/**
 * An item a run still needs that is found expired ends the run FAILED with
 * States.Runtime naming the retention, never a silent stop (issue 14,
 * finding 7); a late duplicate stops at its successors' checkpoints.
 * Expiry is simulated by deleting the item while the event that reads it is held back.
 */
import { compileWorkflow, type CompileOptions } from '../../lib/compiler';
import { Definition, Fold, Map, Parallel, Task, type IChainable } from '../../lib/definition';
import { invocationName } from '../../runtime/contract/naming';
import { checkpointKey, runKey } from '../../runtime/contract/table';
import { fromCompiled, Driver } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

beforeEach(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/expiry.ts';
const task = (name: string): Task => new Task(name, { entry: ENTRY, handler: 'same' });
const handlers = { same: (x: unknown) => x, add: (acc: number, n: number) => acc + n };

/** Runs until the first event to `held` is held back; `expire` removes items; then the held event is delivered. */
async function runWithExpiry(definition: IChainable, held: string, expire: (store: MemoryStore) => void, options: CompileOptions = {}) {
  const store = new MemoryStore();
  const d = new Driver(store, fromCompiled(compileWorkflow('exp', Definition.from(definition), options), handlers));
  let holding = true;
  await d.run({ workflowId: 'w', input: [1, 2] }, { hold: (e) => holding && e.functionName === `fn-${held}` && !(holding = false) });
  expect(d.held).toHaveLength(1);
  expire(store);
  await d.deliver(d.held[0].functionName, d.held[0].event);
  await d.drain();
  return store.runOf('w');
}

const key = (node: string, frames: { iteration: number; index: number }[] = [], foldIndex?: number): string =>
  checkpointKey(invocationName({ workflow: 'exp', workflowId: 'w' }, node, 0, frames, foldIndex));

const expiredRun = (node: string) => ({
  status: 'FAILED',
  error: { node, error: 'States.Runtime', cause: expect.stringMatching(/expired before it was read \(checkpointRetention \d+ s\)/) as unknown as string },
});

test('an input sent by reference that expired before its successor ran', async () => {
  const run = await runWithExpiry(task('A').next(task('B')), 'B', (store) => store.checkpoints.delete(key('A')), { inlineLimitBytes: 1 });
  expect(run).toMatchObject(expiredRun('B'));
});

test('a join that finds its fan-in shards expired', async () => {
  const parallel = new Parallel('P').branch(task('B'), task('C'));
  const run = await runWithExpiry(task('A').next(parallel).next(task('J')), 'J', (store) => store.shards.clear());
  expect(run).toMatchObject(expiredRun('J'));
});

test('a join that finds a branch output expired', async () => {
  const parallel = new Parallel('P').branch(task('B'), task('C'));
  const run = await runWithExpiry(task('A').next(parallel).next(task('J')), 'C', (store) => store.checkpoints.delete(key('B', [{ iteration: 0, index: 0 }])));
  expect(run).toMatchObject(expiredRun('J'));
});

test('a fold step whose item expired', async () => {
  const map = new Map('M').itemProcessor(task('I'));
  const fold = new Fold('F', { entry: ENTRY, handler: 'add', initial: 0 });
  // Hold the fold's second step (the first is invoked by the fan-in), then expire its item.
  const run = await runWithExpiry(task('A').next(map).next(fold), 'F', (store) => store.checkpoints.delete(key('I', [{ iteration: 0, index: 1 }])));
  expect(run).toMatchObject(expiredRun('F'));
});

test('a late duplicate after the run finished: its put finds its checkpoint, its read the run ended: the run stays as it was', async () => {
  const store = new MemoryStore();
  const d = new Driver(store, fromCompiled(compileWorkflow('dup', Definition.from(task('A').next(task('B')).next(task('C')))), handlers));
  await d.run({ workflowId: 'w', input: 1 });
  const b = d.invoker.sent.find((s) => s.functionName === 'fn-B')!;
  const sent = d.invoker.sent.length;
  const writes = store.writes;
  const checkpoints = [...store.checkpoints];
  const before = store.runOf('w');
  await d.deliver(b.functionName, b.event);
  // One write was tried, its conditional put, which found B's checkpoint and changed nothing.
  expect([d.invoker.sent.length, store.writes]).toEqual([sent, writes + 1]);
  expect([...store.checkpoints]).toEqual(checkpoints);
  expect(store.runOf('w')).toEqual(before);
});

test('a start repeated after the checkpoint retention runs nothing again, though the run\'s checkpoints expired', async () => {
  const store = new MemoryStore();
  let calls = 0;
  const counted = { same: (x: unknown) => (calls++, x) };
  const options = { checkpointTtlSeconds: 86400, runRetentionSeconds: 86400 };
  const d = new Driver(store, fromCompiled(compileWorkflow('again', Definition.from(task('A').next(task('B'))), options), counted));
  await d.run({ workflowId: 'w', input: 1 });
  expect(calls).toBe(2);
  // A day later: the run record is kept (a long run renews it), its checkpoints are gone.
  const record = store.runOf('w')!;
  store.runs.set(runKey({ workflow: 'again', workflowId: 'w' }), { ...record, startedAt: new Date(Date.now() - 86401_000).toISOString() });
  store.checkpoints.clear();
  await d.run({ workflowId: 'w', input: 1 });
  expect(calls).toBe(2);
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '1' });
});
