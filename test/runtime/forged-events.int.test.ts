/**
 * Forged and malformed events on DynamoDB Local (issue 14, findings 1 and 6):
 * a start permission (invoke on the entry) starts runs and nothing else;
 * every envelope field is checked against its bound before any read or
 * write; a rejected event is not retried, is logged at ERROR with a
 * RejectedEvents metric, and ends the run it names where that is safe.
 */
import { UnumClient } from '../../lib/client';
import { compileWorkflow } from '../../lib/compiler';
import { Choice, Condition, Definition, Fold, Map as MapState, Succeed, Task } from '../../lib/definition';
import { createHandler } from '../../runtime/entry/handler';
import { ENVELOPE_BOUNDS, ENVELOPE_VERSION, type Envelope, type EnvelopeHeader } from '../../runtime/contract/ir';
import { invocationName } from '../../runtime/contract/naming';
import { checkpointKey, keyOf } from '../../runtime/contract/table';
import { counting } from '../support/counting-store';
import { useTestDb } from '../support/dynamodb';
import { Driver, fromCompiled, lambdaContext, QueueInvoker } from '../support/harness';
import { sealed, testEnvelopeKey } from '../support/envelope-key';

const db = useTestDb();

const ENTRY = '/forged/handlers.js';
const handlers = {
  split: (n: number) => Array.from({ length: n }, (_, i) => ({ i: i + 1 })),
  tenfold: (x: { i: number }) => x.i * 10,
  sum: (acc: number, item: number) => acc + item,
  count: (x: number | { v: number; n: number }) => (typeof x === 'number' ? { v: x, n: 1 } : { v: x.v, n: x.n + 1 }),
};
const task = (id: string, handler: string): Task => new Task(id, { entry: ENTRY, handler });
const countLoop = (): Task => {
  const count = task('Count', 'count');
  count.next(new Choice('Again').when(Condition.numberLessThan('$.n', 3), count).otherwise(new Succeed('Done')));
  return count;
};

/** Split -> Map(Tenfold) -> Fold(Sum) -> Count, looping while n < 3. Every value but the smallest goes by reference. */
const FORGE = compileWorkflow(
  'Forge',
  Definition.from(
    task('Split', 'split')
      .next(new MapState('Fan', { itemsPath: '$' }).itemProcessor(task('Tenfold', 'tenfold')))
      .next(new Fold('Sum', { entry: ENTRY, handler: 'sum', initial: 0 }))
      .next(countLoop()),
  ),
  // Its 3 items go through a launch tree: the envelopes include launchers.
  { inlineLimitBytes: 1, mapLaunchWidth: 2 },
);
const RESULT = { v: 60, n: 3 };

type Header = { -readonly [K in keyof EnvelopeHeader]: unknown } & Record<string, unknown>;
type Base = 'Tenfold' | 'Launch' | 'Sum0' | 'Sum1' | 'Count';

/** Real envelopes of one run, one per kind of input: a map item, a launcher, a fan-in, a fold step, a scalar successor. */
let bases: Record<Base, Envelope>;
beforeAll(async () => {
  const { store } = await db.table();
  const d = new Driver(store, fromCompiled(FORGE, handlers));
  await d.run({ workflowId: 'base', input: 3 });
  const sent = (node: string, test: (u: EnvelopeHeader) => boolean = () => true): Envelope => {
    const found = d.invoker.sent.find((s) => s.event.unum.node === node && test(s.event.unum));
    if (!found) throw new Error(`no envelope to ${node}`);
    return found.event;
  };
  bases = {
    Tenfold: sent('Tenfold', (u) => 'mapItem' in u.inputs[0]),
    Launch: sent('Tenfold', (u) => 'launch' in u.inputs[0]),
    Sum0: sent('Sum', (u) => 'fanIn' in u.inputs[0]),
    Sum1: sent('Sum', (u) => u.fold !== undefined),
    Count: sent('Count', (u) => u.fold === undefined && u.fanOut.length === 0),
  };
});

/** The JSON lines the runtime wrote to stdout in this test (useTestDb keeps them off the output). */
function logLines(): Record<string, unknown>[] {
  return jest.mocked(process.stdout.write).mock.calls.flatMap(([chunk]) => {
    try {
      return [JSON.parse(String(chunk)) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/** The ERROR line and the RejectedEvents metric of one rejected event. */
function expectRejectionReported(node: string, cause: RegExp): void {
  const lines = logLines();
  expect(lines.filter((l) => l.level === 'ERROR' && l.message === 'unum rejected event')).toEqual([
    expect.objectContaining({ workflow: 'Forge', node, error: 'UnumEventError', cause: expect.stringMatching(cause) }),
  ]);
  expect(lines.filter((l) => l.RejectedEvents !== undefined)).toEqual([expect.objectContaining({ Workflow: 'Forge', Node: node, RejectedEvents: 1 })]);
}

const KEY = checkpointKey('k'.repeat(43));
const frame = (u: Header): Record<string, unknown> => (u.fanOut as Record<string, unknown>[])[0];
const input = (u: Header): Record<string, Record<string, unknown>> => (u.inputs as Record<string, Record<string, unknown>>[])[0];
const tooBig = ENVELOPE_BOUNDS.fanOutSize + 1;

/** [field, base envelope, forgery, what the rejection names, whether it names a run of this workflow]; each sealed after the forgery. */
const forgeries: [string, Base, (u: Header) => void, RegExp, boolean][] = [
  // Another version carries no MAC this node verifies: refused before the MAC, naming no run.
  ['a newer version', 'Count', (u) => (u.v = ENVELOPE_VERSION + 1), /^an envelope of format 5, from a newer unum-cdk: .*; node Count runs format 4/, false],
  ['version 3 (before envelopes were authenticated)', 'Count', (u) => (u.v = 3), /^an envelope of format 3, from an unum-cdk before envelopes were authenticated: .*; node Count runs format 4/, false],
  ['version 2 (before deployment pinning)', 'Count', (u) => ((u.v = 2), delete u.deployment), /^an envelope of format 2, from an unum-cdk before deployment pinning: .*; node Count runs format 4/, false],
  ['no version', 'Count', (u) => delete u.v, /^an envelope of format 1, from an unum-cdk before deployment pinning/, false],
  ['another workflow', 'Count', (u) => (u.workflow = 'Other'), /unum\.workflow must be this function's workflow "Forge" \(got "Other"\)/, false],
  ['no workflow (before version 2)', 'Count', (u) => (delete u.workflow, (u.v = 1)), /^an envelope of format 1, from an unum-cdk before deployment pinning/, false],
  ['a run id with #', 'Count', (u) => (u.workflowId = 'a#b'), /unum\.workflowId must match/, false],
  ['a run id of 129 characters', 'Count', (u) => (u.workflowId = 'x'.repeat(129)), /unum\.workflowId must match/, false],
  ['another node', 'Count', (u) => (u.node = 'Split'), /unum\.node must be this function's node "Count" \(got "Split"\)/, true],
  ['a negative iteration', 'Count', (u) => (u.iteration = -1), /unum\.iteration must be an integer in \[0, 33554431\]/, true],
  ['a fractional iteration', 'Count', (u) => (u.iteration = 1.5), /unum\.iteration/, true],
  ['an iteration past the bound', 'Count', (u) => (u.iteration = ENVELOPE_BOUNDS.iteration + 1), /unum\.iteration/, true],
  ['fanOut not an array', 'Count', (u) => (u.fanOut = {}), /unum\.fanOut must be an array/, true],
  ['fanOut deeper than the bound', 'Tenfold', (u) => (u.fanOut = Array.from({ length: ENVELOPE_BOUNDS.depth + 1 }, () => frame(u))), /unum\.fanOut must be an array of at most 32 frames/, true],
  ['a frame of size 0', 'Tenfold', (u) => (frame(u).size = 0), /unum\.fanOut\[0\]\.size must be an integer in \[1, 262144\]/, true],
  ['a frame of size 2^40', 'Tenfold', (u) => (frame(u).size = 2 ** 40), /unum\.fanOut\[0\]\.size/, true],
  ['a frame index past its size', 'Tenfold', (u) => (frame(u).index = frame(u).size), /unum\.fanOut\[0\]\.index must be an integer in \[0, size\)/, true],
  ['a frame kind', 'Tenfold', (u) => (frame(u).kind = 'loop'), /unum\.fanOut\[0\]\.kind/, true],
  ['a frame iteration past the bound', 'Tenfold', (u) => (frame(u).iteration = ENVELOPE_BOUNDS.iteration + 1), /unum\.fanOut\[0\]\.iteration/, true],
  ['a frame origin that is no checkpoint key', 'Tenfold', (u) => (frame(u).origin = 'run#Forge#base'), /unum\.fanOut\[0\]\.origin must be a checkpoint key/, true],
  ['a frame origin of the wrong length', 'Tenfold', (u) => (frame(u).origin = 'ckpt#short'), /unum\.fanOut\[0\]\.origin/, true],
  ['a lease that is no number', 'Count', (u) => (u.lease = 'soon'), /unum\.lease must be a non-negative integer/, true],
  ['a negative lease', 'Count', (u) => (u.lease = -1), /unum\.lease/, true],
  ['a frame join without tails', 'Tenfold', (u) => (frame(u).join = { node: 'J' }), /unum\.fanOut\[0\]\.join must be \{node, tails\}/, true],
  ['a frame join with an empty tail', 'Tenfold', (u) => (frame(u).join = { node: 'J', tails: [''] }), /unum\.fanOut\[0\]\.join/, true],
  ['a frame join with more tails than the radix', 'Tenfold', (u) => (frame(u).join = { node: 'J', tails: Array(1025).fill('T') }), /unum\.fanOut\[0\]\.join/, true],
  ['no input', 'Count', (u) => (u.inputs = []), /unum\.inputs must be an array of exactly one input/, true],
  ['two inputs', 'Count', (u) => (u.inputs = [input(u), input(u)]), /unum\.inputs must be an array of exactly one input/, true],
  ['value and ref together', 'Count', (u) => (u.inputs = [{ value: 1, ref: KEY }]), /unum\.inputs\[0\] must have exactly one of/, true],
  ['a ref that is no checkpoint key', 'Count', (u) => (u.inputs = [{ ref: 'ckpt#missing' }]), /unum\.inputs\[0\]\.ref must be a checkpoint key/, true],
  ['a parent that is no checkpoint key', 'Count', (u) => (u.parent = 'hist#Forge#base'), /unum\.parent must be a checkpoint key/, true],
  ['a map item to a node that starts no item processor', 'Count', (u) => (u.inputs = [{ mapItem: { origin: KEY, index: 0, state: 'Split' } }]), /mapItem is not accepted: node Count starts no item processor/, true],
  ['a map item of another index than its frame', 'Tenfold', (u) => (input(u).mapItem.index = Number(input(u).mapItem.index) + 1), /mapItem must name the index and origin of the top fan-out frame/, true],
  ['a map item of another origin than its frame', 'Tenfold', (u) => (input(u).mapItem.origin = KEY), /mapItem must name the index and origin/, true],
  ['a map item index past the bound', 'Tenfold', (u) => (input(u).mapItem.index = tooBig), /mapItem must be \{origin/, true],
  ['a map item state that is no node name', 'Tenfold', (u) => (input(u).mapItem.state = ''), /mapItem must be \{origin/, true],
  ['a launch to a node that starts no item processor', 'Count', (u) => (u.inputs = [{ launch: { origin: KEY, from: 0, to: 1, state: 'Split' } }]), /launch is not accepted: node Count starts no item processor/, true],
  ['a launch from another index than its frame', 'Launch', (u) => (input(u).launch.from = Number(input(u).launch.from) + 1), /launch must start at the index and origin of the top fan-out frame/, true],
  ['a launch of another origin than its frame', 'Launch', (u) => (input(u).launch.origin = KEY), /launch must start at the index and origin/, true],
  ['an empty launch', 'Launch', (u) => (input(u).launch.to = input(u).launch.from), /launch must start at .* end in \(from, size\]/, true],
  ['a launch past its frame\'s size', 'Launch', (u) => (input(u).launch.to = Number(frame(u).size) + 1), /launch must start at .* end in \(from, size\]/, true],
  ['a launch end past the bound', 'Launch', (u) => (input(u).launch.to = tooBig), /launch must be \{origin/, true],
  ['a launch from that is no integer', 'Launch', (u) => (input(u).launch.from = 0.5), /launch must be \{origin/, true],
  ['a launch state that is no node name', 'Launch', (u) => (input(u).launch.state = 'a b'), /launch must be \{origin/, true],
  ['a launch origin that is no checkpoint key', 'Launch', (u) => (input(u).launch.origin = 'run#Forge#base'), /launch must be \{origin/, true],
  ['a launch beside a value', 'Launch', (u) => (u.inputs = [{ ...input(u), value: 1 }]), /unum\.inputs\[0\] must have exactly one of value, ref, mapItem, launch, fanIn, failed/, true],
  ['a fan-in to a node that is no join', 'Count', (u) => (u.inputs = [{ fanIn: { join: 'j'.repeat(43), size: 2, origin: KEY } }]), /fanIn is not accepted: node Count is not a join/, true],
  ['a state failure to a node that is no join', 'Count', (u) => (u.inputs = [{ failed: { join: 'j'.repeat(43), size: 2, origin: KEY } }]), /failed is not accepted: node Count is not a join/, true],
  ['a state failure of size 0', 'Sum0', (u) => (u.inputs = [{ failed: { join: 'j'.repeat(43), size: 0, origin: KEY } }]), /failed\.size must be an integer in \[1, 262144\]/, true],
  ['a fan-in of size 0', 'Sum0', (u) => (input(u).fanIn.size = 0), /fanIn\.size must be an integer in \[1, 262144\]/, true],
  ['a fan-in of size 2^40', 'Sum0', (u) => (input(u).fanIn.size = 2 ** 40), /fanIn\.size must be an integer in \[1, 262144\]/, true],
  ['a fan-in join that is no invocation name', 'Sum0', (u) => (input(u).fanIn.join = 'join'), /fanIn\.join must be an invocation name/, true],
  ['a fan-in origin that is no checkpoint key', 'Sum0', (u) => (input(u).fanIn.origin = 'x'), /fanIn\.origin must be a checkpoint key/, true],
  ['a fold step to a node that is no fold', 'Count', (u) => (u.fold = { index: 1, items: [KEY, KEY] }), /unum\.fold is not accepted: node Count is not a fold/, true],
  ['a fold index 0 (the first step takes the fan-in)', 'Sum1', (u) => ((u.fold as Record<string, unknown>).index = 0), /unum\.fold\.index must be an integer in \[1, items\.length\)/, true],
  ['a fold index past its items', 'Sum1', (u) => ((u.fold as Record<string, unknown>).index = 3), /unum\.fold\.index/, true],
  ['fold items that are no checkpoint keys', 'Sum1', (u) => ((u.fold as Record<string, unknown>).items = ['a', 'b', 'c']), /unum\.fold\.items must be an array of at most 262144 checkpoint keys/, true],
  ['more fold items than the bound', 'Sum1', (u) => ((u.fold as Record<string, unknown>).items = Array.from({ length: tooBig }, () => KEY)), /unum\.fold\.items/, true],
];

describe.each(forgeries)('an envelope with %s', (_, base, forge, reason, ours) => {
  const forged = (workflowId: string): Envelope => {
    const e = JSON.parse(JSON.stringify(bases[base])) as { unum: Header };
    e.unum.workflowId = workflowId;
    forge(e.unum);
    // Sealed again, as only a function of the workflow could: what a node refuses here is a malformed envelope it authenticated.
    return sealed(e as unknown as Envelope);
  };
  const target = base.startsWith('Sum') ? 'Sum' : base === 'Launch' ? 'Tenfold' : base;

  test('is rejected by its node before any other read or write, without a retry; a run of this workflow is recorded FAILED', async () => {
    const { name, store } = await db.table();
    const c = counting(store);
    const invoker = new QueueInvoker();
    const handler = createHandler(handlers, { envelopeKey: testEnvelopeKey, ir: fromCompiled(FORGE, handlers)[target].ir, store: c.store, invoker });
    const event = forged('forged');
    await expect(handler(event, lambdaContext(`fn-${target}`))).resolves.toEqual({
      ...(ours ? { workflowId: 'forged' } : {}),
      rejected: { error: 'UnumEventError', cause: expect.stringMatching(reason) },
    });
    expect(c.calls).toEqual(ours ? { finishRun: 1 } : {});
    expect(invoker.sent).toEqual([]);
    const items = await db.scan(name);
    if (ours) {
      expect(items.map(keyOf)).toEqual(['run#Forge#forged']);
      expect(items[0]).toMatchObject({ status: { S: 'FAILED' }, error: { M: { node: { S: target }, error: { S: 'UnumEventError' }, cause: { S: expect.stringMatching(reason) } } } });
    } else {
      expect(items).toEqual([]);
    }
    expectRejectionReported(target, reason);
  });

  test('is rejected by the entry with no read or write at all, whatever run it names', async () => {
    const { name, store } = await db.table();
    const c = counting(store);
    const invoker = new QueueInvoker();
    const entry = fromCompiled(FORGE, handlers)[FORGE.entry].ir;
    const event = forged('victim') as unknown as { unum: Header };
    event.unum.node = entry.node;
    const out = await createHandler(handlers, { envelopeKey: testEnvelopeKey, ir: entry, store: c.store, invoker })(event, lambdaContext(`fn-${entry.node}`));
    expect(out).toEqual({ rejected: { error: 'UnumEventError', cause: 'malformed start request: the entry function accepts start requests only, not envelopes' } });
    expect([c.calls, invoker.sent, await db.scan(name)]).toEqual([{}, [], []]);
    expectRejectionReported(entry.node, /accepts start requests only/);
  });
});

test('a start permission reaches the entry only: nothing sent to it touches a run in flight', async () => {
  const { name, store } = await db.table();
  const d = new Driver(store, fromCompiled(FORGE, handlers));
  // The victim is in flight: every branch committed, its fold has not started.
  await d.run({ workflowId: 'victim', input: 3 }, { hold: (x) => x.event.unum.node === 'Sum' });
  expect((await db.run(name, 'victim'))?.status).toEqual({ S: 'RUNNING' });
  const victim = { workflow: 'Forge', workflowId: 'victim' };
  const tail = checkpointKey(invocationName(victim, 'Tenfold', 0, [{ iteration: 0, index: 0 }]));
  const held = d.held[0].event.unum;
  const toEntry = (unum: Partial<EnvelopeHeader>): unknown => ({ unum: { ...held, node: FORGE.entry, ...unum } });
  const attempts: unknown[] = [
    // What a start permission allowed: name a victim's checkpoint as parent, a fan-in of 2^40 branches.
    toEntry({ parent: tail, inputs: [{ value: 1 }] }),
    toEntry({ inputs: [{ fanIn: { join: invocationName(victim, 'Sum', 0, []), size: 2 ** 40, origin: tail } }] }),
    { unum: held },
    // Start requests naming the victim that are not exactly {input, workflowId?}.
    { workflowId: 'victim', input: 1, traceId: 't-1' },
    { workflowId: 'victim' },
  ];
  const sortedItems = async (): Promise<unknown[]> => (await db.scan(name)).sort((a, b) => String(keyOf(a)).localeCompare(String(keyOf(b))));
  const before = await sortedItems();
  const executions = d.executions;
  for (const event of attempts) await d.deliver(`fn-${FORGE.entry}`, event);
  expect([d.executions - executions, d.failures]).toEqual([attempts.length, []]);
  expect(await sortedItems()).toEqual(before);
  d.invoker.queue.push(...d.held.splice(0));
  await d.drain();
  // The result is large enough to be stored by reference: read it as a client does.
  expect(await UnumClient.forWorkflow({ entryFunction: 'unused', table: name, workflow: 'Forge', dynamodb: db.client }).result('victim')).toEqual(RESULT);
});

test.each([
  ['an extra key', { workflowId: 'w-extra', input: 1, traceId: 't' }, 'w-extra', /unexpected key "traceId"/],
  ['no input', { workflowId: 'w-noinput' }, 'w-noinput', /input is missing/],
  ['an extra key and no id (the request id is the run id)', { input: 1, other: 2 }, 'req-1', /unexpected key "other"/],
  ['an id with #', { workflowId: 'a#b', input: 1 }, undefined, /workflowId must match/],
  ['an id with /', { workflowId: 'a/b', input: 1 }, undefined, /workflowId must match/],
  ['a unicode id', { workflowId: 'ünï', input: 1 }, undefined, /workflowId must match/],
  ['an empty id', { workflowId: '', input: 1 }, undefined, /workflowId must match/],
  ['an id of 129 characters', { workflowId: 'i'.repeat(129), input: 1 }, undefined, /workflowId must match/],
  ['a null id', { workflowId: null, input: 1 }, undefined, /workflowId must match/],
])('a start request with %s is rejected without a Lambda retry; a valid run id is recorded FAILED', async (_, event, workflowId, reason) => {
  const { name, store } = await db.table();
  const d = new Driver(store, fromCompiled(FORGE, handlers));
  await d.deliver(`fn-${FORGE.entry}`, event, 2, 'req-1');
  expect([d.executions, d.failures, d.invoker.sent]).toEqual([1, [], []]);
  const items = await db.scan(name);
  if (workflowId) {
    expect(items.map(keyOf)).toEqual([`run#Forge#${workflowId}`]);
    expect(items[0]).toMatchObject({ status: { S: 'FAILED' }, error: { M: { node: { S: 'Split' }, error: { S: 'UnumEventError' }, cause: { S: expect.stringMatching(reason) } } } });
  } else {
    expect(items).toEqual([]);
  }
  expectRejectionReported('Split', reason);
});

test('a workflow whose first state is a loop target is started by an implicit start node, which takes no envelope of the loop', async () => {
  const compiled = compileWorkflow('Forge', Definition.from(countLoop()));
  expect(compiled.entry).toBe('Count.Start');
  const { name, store } = await db.table();
  const d = new Driver(store, fromCompiled(compiled, handlers));
  await d.run({ workflowId: 'loop', input: 5 });
  expect(JSON.parse((await db.run(name, 'loop'))?.result?.S ?? 'null')).toEqual({ v: 5, n: 3 });
  const loopBack = d.invoker.sent.find((s) => s.event.unum.node === 'Count' && s.event.unum.iteration === 1);
  expect(loopBack).toBeDefined();
  const before = await db.scan(name);
  for (const event of [loopBack!.event, { unum: { ...loopBack!.event.unum, node: 'Count.Start' } }]) {
    await expect(d.handlers.get('fn-Count.Start')!(event, lambdaContext('fn-Count.Start'))).resolves.toMatchObject({ rejected: { error: 'UnumEventError' } });
  }
  expect((await db.scan(name)).length).toBe(before.length);
});

test('a loop at its iteration bound ends the run FAILED, naming the bound, instead of sending an envelope its successor rejects', async () => {
  const { name, store } = await db.table();
  const invoker = new QueueInvoker();
  const count = fromCompiled(FORGE, handlers).Count.ir;
  await store.startRun({ workflow: 'Forge', workflowId: 'bound' }, 'now', Math.floor(Date.now() / 1000) + 3600);
  const event: Envelope = sealed({ unum: { v: ENVELOPE_VERSION, workflow: 'Forge', deployment: '', workflowId: 'bound', node: 'Count', iteration: ENVELOPE_BOUNDS.iteration, fanOut: [], inputs: [{ value: 7 }] } });
  await createHandler(handlers, { envelopeKey: testEnvelopeKey, ir: count, store, invoker })(event, lambdaContext('fn-Count'));
  expect(invoker.sent).toEqual([]);
  expect((await db.run(name, 'bound'))?.error?.M).toEqual({
    node: { S: 'Count' },
    state: { S: 'Count' },
    error: { S: 'States.Runtime' },
    cause: { S: `node Count: the loop reached its limit of ${ENVELOPE_BOUNDS.iteration} iterations` },
  });
});
