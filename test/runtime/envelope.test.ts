import { createHandler } from '../../runtime/handler';
import { parseEvent } from '../../runtime/envelope';
import { UnumEnvelopeError } from '../../runtime/errors';
import type { NodeIR } from '../../runtime/ir';
import { defineWorkflow, QueueInvoker, seq, succeed } from '../support/harness';
import { MemoryStore } from '../support/memory-store';

const nodes = defineWorkflow('env', {
  A: { fn: (x: unknown) => x, instructions: [seq('B')] },
  B: { fn: (x: unknown) => x, instructions: [succeed] },
});
const A = nodes.A.ir;
const B = nodes.B.ir;
const ctx = { awsRequestId: 'req-1' };
const K = `ckpt#${'a'.repeat(43)}`;

const good = () => ({
  unum: {
    v: 1,
    workflowId: 'w1',
    node: 'B',
    iteration: 2,
    fanOut: [{ index: 1, size: 3, kind: 'map', iteration: 0, origin: K }],
    inputs: [{ ref: K }],
    parent: K,
  },
});

test('a map item by reference parses', () => {
  const e = good();
  (e.unum as { inputs: unknown[] }).inputs = [{ mapItem: { origin: K, index: 4, state: 'O' } }];
  expect(parseEvent(e, B, ctx).input).toEqual({ mapItem: { origin: K, index: 4, state: 'O' } });
});

test('start requests: explicit, raw, and id from the request id', () => {
  expect(parseEvent({ input: { a: 1 }, workflowId: 'w-9' }, A, ctx)).toEqual({ workflowId: 'w-9', iteration: 0, frames: [], input: { value: { a: 1 } }, start: true });
  expect(parseEvent({ input: 5 }, A, ctx)).toMatchObject({ workflowId: 'req-1', input: { value: 5 } });
  // Other keys beside input: the whole event is the raw input.
  expect(parseEvent({ input: 5, other: 1 }, A, ctx)).toMatchObject({ workflowId: 'req-1', input: { value: { input: 5, other: 1 } } });
  expect(parseEvent([1, 2], A, ctx)).toMatchObject({ input: { value: [1, 2] } });
  expect(parseEvent(undefined, A, ctx)).toMatchObject({ input: { value: null } });
});

test('a valid envelope parses', () => {
  expect(parseEvent(good(), B, ctx)).toEqual({
    workflowId: 'w1',
    iteration: 2,
    frames: [{ index: 1, size: 3, kind: 'map', iteration: 0, origin: K }],
    input: { ref: K },
    parent: K,
    start: false,
  });
});

type Mutation = [string, (e: ReturnType<typeof good>['unum'] & Record<string, unknown>) => void, RegExp];
const mutations: Mutation[] = [
  ['version', (u) => (u.v = 2 as never), /unum\.v/],
  ['workflow id', (u) => (u.workflowId = 'has space'), /unum\.workflowId/],
  ['workflow id too long', (u) => (u.workflowId = 'x'.repeat(129)), /unum\.workflowId/],
  ['node', (u) => (u.node = 'A'), /unum\.node/],
  ['iteration', (u) => (u.iteration = -1), /unum\.iteration/],
  ['fractional iteration', (u) => (u.iteration = 1.5), /unum\.iteration/],
  ['fanOut type', (u) => (u.fanOut = {} as never), /unum\.fanOut/],
  ['frame index', (u) => (u.fanOut[0].index = 3), /unum\.fanOut\[0\]\.index/],
  ['frame kind', (u) => (u.fanOut[0].kind = 'x'), /unum\.fanOut\[0\]\.kind/],
  ['frame origin', (u) => (u.fanOut[0].origin = 'nope'), /unum\.fanOut\[0\]\.origin/],
  ['no inputs', (u) => (u.inputs = []), /unum\.inputs/],
  ['two inputs', (u) => (u.inputs = [{ ref: K }, { ref: K }]), /unum\.inputs/],
  ['ambiguous input', (u) => (u.inputs = [{ ref: K, value: 1 } as never]), /unum\.inputs\[0\]/],
  ['bad ref', (u) => (u.inputs = [{ ref: 'run#x' }]), /unum\.inputs\[0\]\.ref/],
  ['bad mapItem origin', (u) => (u.inputs = [{ mapItem: { origin: 'x', index: 0, state: 'O' } } as never]), /unum\.inputs\[0\]\.mapItem/],
  ['bad mapItem index', (u) => (u.inputs = [{ mapItem: { origin: K, index: -1, state: 'O' } } as never]), /unum\.inputs\[0\]\.mapItem/],
  ['bad mapItem state', (u) => (u.inputs = [{ mapItem: { origin: K, index: 0, state: '' } } as never]), /unum\.inputs\[0\]\.mapItem/],
  ['bad fanIn', (u) => (u.inputs = [{ fanIn: { join: 'j', size: -1, origin: K } } as never]), /fanIn\.size/],
  ['parent', (u) => (u.parent = 5 as never), /unum\.parent/],
  ['fold index', (u) => (u.fold = { index: 1, items: [K] }), /unum\.fold\.index/],
  ['lease', (u) => (u.lease = 'soon'), /unum\.lease/],
  ['negative lease', (u) => (u.lease = -1), /unum\.lease/],
  ['frame join without tails', (u) => ((u.fanOut[0] as Record<string, unknown>).join = { node: 'J' }), /unum\.fanOut\[0\]\.join/],
  ['frame join with a bad tail', (u) => ((u.fanOut[0] as Record<string, unknown>).join = { node: 'J', tails: [''] }), /unum\.fanOut\[0\]\.join/],
  ['frame join with too many tails', (u) => ((u.fanOut[0] as Record<string, unknown>).join = { node: 'J', tails: Array(1025).fill('T') }), /unum\.fanOut\[0\]\.join/],
];

test("the lease and a frame's join parse", () => {
  const e = good();
  const unum = e.unum as Record<string, unknown> & typeof e.unum;
  unum.lease = 1_900_000_000;
  (unum.fanOut[0] as Record<string, unknown>).join = { node: 'J', tails: ['T1', 'T2'] };
  expect(parseEvent(e, B, ctx)).toMatchObject({ lease: 1_900_000_000, frames: [{ index: 1, join: { node: 'J', tails: ['T1', 'T2'] } }] });
});

test.each(mutations)('malformed envelope (%s) is rejected naming the field, before any write', async (_, mutate, field) => {
  const e = good();
  mutate(e.unum as never);
  expect(() => parseEvent(e, B, ctx)).toThrow(field);
  const store = new MemoryStore();
  const invoker = new QueueInvoker();
  const h = createHandler(nodes.B.module, { ir: B, store, invoker });
  await expect(h(e, ctx)).rejects.toThrow(UnumEnvelopeError);
  expect(store.calls).toEqual({});
  expect(invoker.sent).toEqual([]);
});

test('an event without unum on a non-entry node is rejected', () => {
  expect(() => parseEvent({ a: 1 }, B, ctx)).toThrow(/not the entry/);
  expect(() => parseEvent({ unum: 'x' }, B, ctx)).toThrow(/unum must be an object/);
});

test('the handler checks the IR version and the user export at creation', () => {
  expect(() => createHandler({}, { ir: { ...A, version: 2 } as unknown as NodeIR, store: new MemoryStore(), invoker: new QueueInvoker() })).toThrow(/IR version 2 of node A/);
  expect(() => createHandler({ other: () => 1 }, { ir: A, store: new MemoryStore(), invoker: new QueueInvoker() })).toThrow(/node A needs the function export "handler"/);
});
