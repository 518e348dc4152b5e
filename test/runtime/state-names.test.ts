/**
 * Run records and the history name states, not functions (issue 15, part 4):
 * the Fail state where a run ended with its error and cause (fixed, or read
 * with ErrorPath / CausePath), the Choice that matched nothing, the state a
 * node runs as `$$.State.Name`, and the handler's retried attempts.
 */
import { compileWorkflow } from '../../lib/compiler';
import { Choice, Condition, Definition, Fail, Task, type IChainable } from '../../lib/definition';
import type { HistoryItem } from '../../runtime/contract/table';
import { Driver, defineWorkflow, fromCompiled, succeed } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

let logged: string[];
beforeEach(() => {
  logged = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    logged.push(String(chunk));
    return true;
  });
});
afterEach(() => jest.restoreAllMocks());

const ENTRY = '/project/states.ts';
const task = (name: string, handler: string): Task => new Task(name, { entry: ENTRY, handler });

async function run(definition: IChainable, handlers: Record<string, unknown>, input: unknown): Promise<MemoryStore> {
  const store = new MemoryStore();
  const compiled = compileWorkflow('states', Definition.from(definition), { history: true });
  await new Driver(store, fromCompiled(compiled, handlers)).run({ workflowId: 'w', input });
  return store;
}

/** Validate, then two Fail states with the same error: one fixed, one read from the input. */
function payment(): IChainable {
  const declined = new Fail('Declined', { errorPath: '$.code', causePath: "States.Format('declined: {}', $.reason)" });
  const blocked = new Fail('Blocked', { error: 'Card.Declined', cause: 'card blocked' });
  return task('Validate', 'validate').next(
    new Choice('Check')
      .when(Condition.booleanEquals('$.ok', false), declined)
      .when(Condition.booleanEquals('$.blocked', true), blocked),
  );
}
const handlers = { validate: (x: unknown) => x };

test('a run that ends in a Fail state records that state, its node, and the error and cause its paths read', async () => {
  const store = await run(payment(), handlers, { ok: false, code: 'Card.Declined', reason: 'expired' });
  expect(store.runOf('w')).toMatchObject({ status: 'FAILED', error: { node: 'Validate', state: 'Declined', error: 'Card.Declined', cause: 'declined: expired' } });
  const failed = store.historyOf('w').find((e) => e.outcome === 'failed') as HistoryItem;
  expect(JSON.parse(failed.error as string)).toEqual({ state: 'Declined', error: 'Card.Declined', cause: 'declined: expired' });
});

test('two Fail states with the same error are told apart by their state', async () => {
  const declined = await run(payment(), handlers, { ok: false, code: 'Card.Declined', reason: 'expired' });
  const blocked = await run(payment(), handlers, { ok: true, blocked: true });
  expect(declined.runOf('w')?.error?.error).toBe(blocked.runOf('w')?.error?.error);
  expect([declined.runOf('w')?.error?.state, blocked.runOf('w')?.error?.state]).toEqual(['Declined', 'Blocked']);
  expect(blocked.runOf('w')?.error).toMatchObject({ cause: 'card blocked' });
});

test('a Choice that matches nothing is the state where the run ended', async () => {
  const store = await run(payment(), handlers, { ok: true, blocked: false });
  expect(store.runOf('w')).toMatchObject({ status: 'FAILED', error: { node: 'Validate', state: 'Check', error: 'States.NoChoiceMatched' } });
});

test('an ErrorPath that does not give a string fails the run with States.Runtime', async () => {
  const store = await run(payment(), handlers, { ok: false, code: 42, reason: 'r' });
  expect(store.runOf('w')).toMatchObject({ status: 'FAILED', error: { error: 'States.Runtime' } });
  expect(store.runOf('w')?.error?.cause).toContain('Fail Declined: ErrorPath $.code gave 42, not a string');
});

test('$$.State.Name is the state the node runs, named as the definition names it', async () => {
  const nodes = defineWorkflow('ctx', {
    Read_it: { state: 'Read it', io: { parameters: { 'name.$': '$$.State.Name' } }, fn: (x: unknown) => x, instructions: [succeed] },
  });
  const store = new MemoryStore();
  await new Driver(store, nodes).run({ workflowId: 'w', input: {} });
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: JSON.stringify({ name: 'Read it' }) });
});

test('retried attempts of a handler show in the history entry and the transition log', async () => {
  let calls = 0;
  const charge = (): string => {
    if (calls++ < 2) throw Object.assign(new Error('busy'), { name: 'GatewayBusy' });
    return 'charged';
  };
  const definition = task('Charge', 'charge').addRetry({ errors: ['GatewayBusy'], maxAttempts: 3, intervalSeconds: 1, jitter: 'FULL' });
  const store = await run(definition, { charge }, {});
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED' });
  const [entry] = store.historyOf('w');
  expect(entry).toMatchObject({ node: 'Charge', outcome: 'committed', attempts: 3, retried: JSON.stringify(['GatewayBusy', 'GatewayBusy']) });
  const line = logged.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.message === 'unum transition' && l.node === 'Charge');
  expect(line).toMatchObject({ attempt: 3, retried: ['GatewayBusy', 'GatewayBusy'] });
});

test('a handler that succeeds at once has no attempts in its entry', async () => {
  const store = await run(task('Charge', 'charge'), { charge: () => 'ok' }, {});
  const [entry] = store.historyOf('w');
  expect(entry.attempts).toBeUndefined();
  expect(entry.retried).toBeUndefined();
});
