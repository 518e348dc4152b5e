/**
 * Where a step's read goes (docs/architecture.md "Exactly-once protocol"): a
 * step whose read would only guard it reads the run record beside its
 * commit, and only its invokes wait for that read; a step with an input to
 * read reads it, its own checkpoint and the run record before its handler.
 */
import { createHandler } from '../../runtime/entry/handler';
import { ENVELOPE_VERSION, type Envelope, type Json } from '../../runtime/contract/ir';
import type { CheckpointStore, ReadOptions } from '../../runtime/ports/store';
import { invocationName } from '../../runtime/contract/naming';
import { checkpointKey } from '../../runtime/contract/table';
import { QueueInvoker, defineWorkflow, lambdaContext, seq } from '../support/harness';
import { MemoryStore } from '../support/memory-store';
import { overriding } from '../support/store-overrides';
import { sealed, testEnvelopeKey } from '../support/envelope-key';

const envelope = (input: { value: Json } | { ref: string }): Envelope => sealed({
  unum: { v: ENVELOPE_VERSION, workflow: 'beside', deployment: '', workflowId: 'w1', node: 'B', iteration: 0, fanOut: [], inputs: [input] },
});

interface HeldRead {
  readonly checkpoints: readonly string[];
  readonly options: ReadOptions;
  release(): void;
}

/** A store whose reads wait to be released, noting each event of the step in `events`; `firstRead` is the first one. */
function holdingReads(inner: MemoryStore, events: string[]): { store: CheckpointStore; firstRead: Promise<HeldRead> } {
  let announce: (r: HeldRead) => void = () => undefined;
  const firstRead = new Promise<HeldRead>((resolve) => (announce = resolve));
  const store = overriding(inner, {
    putCheckpoint(...args) {
      events.push('put');
      return inner.putCheckpoint(...args);
    },
    async read(checkpoints, shards, options) {
      events.push('read sent');
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      announce({ checkpoints, options, release });
      await released;
      events.push('read answered');
      return inner.read(checkpoints, shards, options);
    },
  });
  return { store, firstRead };
}

/** The execution's first read, or an error if the execution ends without one. */
const readOf = (running: Promise<unknown>, firstRead: Promise<HeldRead>): Promise<HeldRead> =>
  Promise.race([firstRead, running.then((r) => { throw new Error(`the execution ended without a read: ${JSON.stringify(r)}`); })]);

const nodes = (events: string[]) => defineWorkflow('beside', {
  A: { fn: (x: number) => x, instructions: [seq('B')] },
  B: {
    fn: (x: number) => {
      events.push('handler');
      return x * 2;
    },
    instructions: [seq('C')],
  },
  C: { instructions: [] },
});

test('a chain step reads only the run record, sends its put while that read is in flight, and invokes after it answered', async () => {
  const events: string[] = [];
  const memory = new MemoryStore();
  const { store, firstRead } = holdingReads(memory, events);
  const invoker = new QueueInvoker();
  const { B } = nodes(events);
  const running = createHandler(B.module, { envelopeKey: testEnvelopeKey, ir: B.ir, store, invoker })(envelope({ value: 4 }), lambdaContext('fn-B'));
  const read = await readOf(running, firstRead);
  expect(read.checkpoints).toEqual([]);
  expect(read.options).toMatchObject({ consistent: false, run: { workflow: 'beside', workflowId: 'w1' } });
  // Held: the handler ran and the put went out; nothing is invoked before the read answers.
  await new Promise((resolve) => setImmediate(resolve));
  expect(events).toEqual(['handler', 'put', 'read sent']);
  expect(invoker.sent).toHaveLength(0);
  read.release();
  await running;
  expect(events).toEqual(['handler', 'put', 'read sent', 'read answered']);
  expect(invoker.sent.map((s) => [s.functionName, s.event.unum.inputs[0]])).toEqual([['fn-C', { value: 8 }]]);
});

test('a step with an input by reference reads it, its own checkpoint and the run record before its handler', async () => {
  const events: string[] = [];
  const memory = new MemoryStore();
  const ref = checkpointKey(invocationName({ workflow: 'beside', workflowId: 'w1' }, 'A', 0, []));
  await memory.putCheckpoint(ref, '5', undefined, Math.floor(Date.now() / 1000) + 3600);
  const { store, firstRead } = holdingReads(memory, events);
  const invoker = new QueueInvoker();
  const { B } = nodes(events);
  const running = createHandler(B.module, { envelopeKey: testEnvelopeKey, ir: B.ir, store, invoker })(envelope({ ref }), lambdaContext('fn-B'));
  const read = await readOf(running, firstRead);
  expect(read.checkpoints).toHaveLength(2);
  expect(read.checkpoints[1]).toBe(ref);
  await new Promise((resolve) => setImmediate(resolve));
  expect(events).toEqual(['read sent']);
  read.release();
  await running;
  expect(events).toEqual(['read sent', 'read answered', 'handler', 'put']);
  expect(invoker.sent.map((s) => s.event.unum.inputs[0])).toEqual([{ value: 10 }]);
});
