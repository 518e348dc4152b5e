/**
 * Reading events (runtime/entry/envelope.ts): what a start request is, and what an
 * envelope parses to. Forged envelopes, field by field, are in
 * forged-events.int.test.ts.
 */
import { createHandler } from '../../runtime/entry/handler';
import { parseEvent } from '../../runtime/entry/envelope';
import { parseStart } from '../../runtime/contract/start-request';
import { UnumEventError } from '../../runtime/contract/errors';
import { ENVELOPE_VERSION, type Envelope, type NodeIR } from '../../runtime/contract/ir';
import { MAX_VALUE_BYTES } from '../../runtime/contract/table';
import { defineWorkflow, QueueInvoker, seq, succeed } from '../support/harness';
import { MemoryStore } from '../support/memory-store';
import { sealed, testEnvelopeKey } from '../support/envelope-key';

const DEPLOYMENT = `d${'0'.repeat(19)}1`;
const nodes = defineWorkflow('env', {
  A: { fn: (x: unknown) => x, instructions: [seq('B')] },
  B: { fn: (x: unknown) => x, instructions: [succeed] },
}, {}, DEPLOYMENT);
const A = nodes.A.ir;
const B = nodes.B.ir;
const ctx = { awsRequestId: 'req-1' };
const K = `ckpt#${'a'.repeat(43)}`;

/** The UnumEventError `read` throws. */
function rejection(read: () => unknown): UnumEventError {
  try {
    read();
  } catch (e) {
    if (e instanceof UnumEventError) return e;
    throw e;
  }
  throw new Error('the event was accepted');
}

test('start requests: exactly {input, workflowId?}, or any other event as the raw input', () => {
  expect(parseEvent({ input: { a: 1 }, workflowId: 'w-9' }, A, ctx)).toEqual({ workflowId: 'w-9', iteration: 0, frames: [], input: { value: { a: 1 } }, start: true });
  expect(parseEvent({ input: 5 }, A, ctx)).toMatchObject({ workflowId: 'req-1', input: { value: 5 } });
  expect(parseEvent({ input: null }, A, ctx)).toMatchObject({ workflowId: 'req-1', input: { value: null } });
  // Raw input: no `input`, `workflowId` or `unum` key; the run id is the request id.
  expect(parseEvent({ a: 7, Input: 1 }, A, ctx)).toMatchObject({ workflowId: 'req-1', input: { value: { a: 7, Input: 1 } } });
  expect(parseEvent([1, 2], A, ctx)).toMatchObject({ input: { value: [1, 2] } });
  expect(parseEvent('text', A, ctx)).toMatchObject({ input: { value: 'text' } });
  expect(parseEvent(undefined, A, ctx)).toMatchObject({ input: { value: null } });
});

// The malformed start requests, end to end, are in forged-events.int.test.ts.
test.each([
  ['an envelope', { unum: { v: ENVELOPE_VERSION, workflow: 'env', deployment: DEPLOYMENT, workflowId: 'w-1', node: 'A' } }, undefined, /accepts start requests only/],
  ['an input the entry cannot checkpoint', { workflowId: 'w-1', input: 'x'.repeat(MAX_VALUE_BYTES) }, 'w-1', /input of \d+ bytes exceeds/],
  ['a raw input the entry cannot checkpoint', ['x'.repeat(MAX_VALUE_BYTES)], 'req-1', /input of \d+ bytes exceeds/],
])('a start request with %s is rejected, naming its run only when the id is valid', (_, event, workflowId, reason) => {
  const e = rejection(() => parseEvent(event, A, ctx));
  expect(e.message).toMatch(/^malformed start request: /);
  expect(e.message).toMatch(reason);
  expect(e.workflowId).toBe(workflowId);
});

test('parseStart is what the failure recorder reads a failed start with: the same rule', () => {
  expect(parseStart({ input: 2 }, 'req-9')).toEqual({ workflowId: 'req-9', input: 2 });
  expect(() => parseStart({ workflowId: 'w', input: 2, x: 1 }, 'req-9')).toThrow(UnumEventError);
});

test('a valid envelope parses', () => {
  const unum = {
    v: ENVELOPE_VERSION,
    workflow: 'env',
    deployment: DEPLOYMENT,
    workflowId: 'w1',
    node: 'B',
    iteration: 2,
    fanOut: [{ index: 1, size: 3, kind: 'map', iteration: 0, origin: K }],
    inputs: [{ ref: K }],
    parent: K,
  };
  expect(parseEvent({ unum }, B, ctx)).toEqual({
    workflowId: 'w1',
    iteration: 2,
    frames: [{ index: 1, size: 3, kind: 'map', iteration: 0, origin: K }],
    input: { ref: K },
    parent: K,
    start: false,
  });
});

test('a node other than the entry accepts envelopes only', () => {
  expect(rejection(() => parseEvent({ a: 1 }, B, ctx)).message).toMatch(/unum is missing: node B is not the entry/);
  expect(rejection(() => parseEvent({ input: 1, workflowId: 'w' }, B, ctx)).workflowId).toBeUndefined();
  expect(rejection(() => parseEvent({ unum: 'x' }, B, ctx)).message).toMatch(/unum must be an object/);
});

test("the lease and a frame's join parse", () => {
  const frame = { index: 1, size: 3, kind: 'map', iteration: 0, origin: K, join: { node: 'J', tails: ['T1', 'T2'] } };
  const unum = { v: ENVELOPE_VERSION, workflow: 'env', deployment: DEPLOYMENT, workflowId: 'w1', node: 'B', iteration: 0, fanOut: [frame], inputs: [{ ref: K }], lease: 1_900_000_000 };
  expect(parseEvent({ unum }, B, ctx)).toMatchObject({ lease: 1_900_000_000, frames: [{ index: 1, join: { node: 'J', tails: ['T1', 'T2'] } }] });
});

test("a frame's replaced attempt (a redriven state's) parses: an iteration below the frame's only", () => {
  const frame = { index: 1, size: 3, kind: 'parallel', iteration: 4, origin: K };
  const unum = (f: object) => ({ v: ENVELOPE_VERSION, workflow: 'env', deployment: DEPLOYMENT, workflowId: 'w1', node: 'B', iteration: 0, fanOut: [f], inputs: [{ ref: K }] });
  expect(parseEvent({ unum: unum({ ...frame, replaces: 3 }) }, B, ctx)).toMatchObject({ frames: [{ iteration: 4, replaces: 3 }] });
  expect(parseEvent({ unum: unum(frame) }, B, ctx).frames[0]).not.toHaveProperty('replaces');
  for (const replaces of [4, 5, -1, 1.5, '3', null]) {
    expect(rejection(() => parseEvent({ unum: unum({ ...frame, replaces }) }, B, ctx)).message).toMatch(/unum\.fanOut\[0\]\.replaces must be an iteration below the frame's/);
  }
});

test('a redrive generation (the redrive that re-sent the event) parses on an envelope and a start request; only a positive integer', () => {
  const unum = { v: ENVELOPE_VERSION, workflow: 'env', deployment: DEPLOYMENT, workflowId: 'w1', node: 'B', iteration: 0, fanOut: [], inputs: [{ ref: K }] };
  expect(parseEvent({ unum: { ...unum, redrive: 2 } }, B, ctx)).toMatchObject({ redrive: 2 });
  expect(parseEvent({ unum }, B, ctx)).not.toHaveProperty('redrive');
  expect(parseEvent({ workflowId: 'w-9', input: 1, redrive: 1 }, A, ctx)).toEqual({ workflowId: 'w-9', iteration: 0, frames: [], input: { value: 1 }, start: true, redrive: 1 });
  expect(parseStart({ workflowId: 'w-9', input: 1, redrive: 3 }, 'req-9')).toEqual({ workflowId: 'w-9', input: 1, redrive: 3 });
  for (const redrive of [0, -1, 1.5, '1', null]) {
    expect(rejection(() => parseEvent({ unum: { ...unum, redrive } }, B, ctx)).message).toMatch(/unum\.redrive must be a positive integer/);
    expect(rejection(() => parseEvent({ workflowId: 'w-9', input: 1, redrive }, A, ctx)).message).toMatch(/^malformed start request: redrive must be a positive integer/);
  }
});

test('the handler checks the IR version and the user export at creation', () => {
  expect(() => createHandler({}, { envelopeKey: testEnvelopeKey, ir: { ...A, version: 1 } as unknown as NodeIR, store: new MemoryStore(), invoker: new QueueInvoker() })).toThrow(/IR version 1 of node A/);
  expect(() => createHandler({ other: () => 1 }, { envelopeKey: testEnvelopeKey, ir: A, store: new MemoryStore(), invoker: new QueueInvoker() })).toThrow(/node A needs the function export "handler"/);
});

describe('an envelope of another version or deployment is refused, naming both, before anything is read or written', () => {
  const unum = { v: ENVELOPE_VERSION, workflow: 'env', deployment: DEPLOYMENT, workflowId: 'w1', node: 'B', iteration: 0, fanOut: [], inputs: [{ ref: K }] };
  const OTHER = `d${'f'.repeat(20)}`;

  test.each([
    ['of format 2 (before deployment pinning)', { v: 2, deployment: undefined }, /^an envelope of format 2, from an unum-cdk before deployment pinning; node B runs format 4 on deployment d0{19}1$/],
    ['of format 1 (no version)', { v: undefined, deployment: undefined }, /^an envelope of format 1, from an unum-cdk before deployment pinning; node B runs format 4/],
    ['of format 3 (before envelopes were authenticated)', { v: 3 }, /^an envelope of format 3, from an unum-cdk before envelopes were authenticated; node B runs format 4 on deployment d0{19}1$/],
    ['of a newer format', { v: 5 }, /^an envelope of format 5, from a newer unum-cdk; node B runs format 4 on deployment d0{19}1$/],
  ])('an envelope %s: the version check, its run named (it cannot go on)', (_, change, reason) => {
    const e = rejection(() => parseEvent({ unum: { ...unum, ...change } }, B, ctx));
    expect(e.message).toMatch(reason);
    expect([e.workflowId, e.error]).toEqual(['w1', 'UnumEventError']);
  });

  test('an envelope of another deployment, or of none: Unum.DeploymentMismatch, its run named', () => {
    const other = rejection(() => parseEvent({ unum: { ...unum, deployment: OTHER } }, B, ctx));
    expect(other.message).toBe(`an envelope of deployment ${OTHER} to node B of deployment ${DEPLOYMENT}: a run stays on the deployment it started on`);
    expect([other.workflowId, other.error]).toEqual(['w1', 'Unum.DeploymentMismatch']);
    const none = rejection(() => parseEvent({ unum: { ...unum, deployment: undefined } }, B, ctx));
    expect(none.message).toMatch(/^an envelope of no deployment \(undefined\) to node B of deployment d0{19}1/);
  });

  test('an envelope of another workflow names no run, whatever its version or deployment', () => {
    expect(rejection(() => parseEvent({ unum: { ...unum, workflow: 'other', deployment: OTHER } }, B, ctx)).workflowId).toBeUndefined();
    expect(rejection(() => parseEvent({ unum: { ...unum, workflow: 'other', v: 2 } }, B, ctx)).workflowId).toBeUndefined();
  });

  test('the handler records the run FAILED with Unum.DeploymentMismatch and invokes nothing', async () => {
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const store = new MemoryStore();
    const invoker = new QueueInvoker();
    await store.startRun({ workflow: 'env', workflowId: 'w1' }, new Date().toISOString(), Math.floor(Date.now() / 1000) + 3600);
    const answer = await createHandler(nodes.B.module, { envelopeKey: testEnvelopeKey, ir: B, store, invoker })(sealed({ unum: { ...unum, deployment: OTHER } } as Envelope), ctx);
    expect(answer).toEqual({ workflowId: 'w1', rejected: { error: 'Unum.DeploymentMismatch', cause: expect.stringContaining(`deployment ${OTHER} to node B`) as unknown } });
    expect(store.runOf('w1')).toMatchObject({ status: 'FAILED', error: { node: 'B', error: 'Unum.DeploymentMismatch' } });
    expect(invoker.sent).toEqual([]);
    jest.restoreAllMocks();
  });
});
