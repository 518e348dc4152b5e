/**
 * Issue 16 part 3: a Map's or Parallel's join (and a fold's first step) reads its shards
 * and its branches' outputs in one round trip when every item ends at the one
 * tail on its first pass; an item that ended on a later pass is read next.
 */
import { MemoryStore } from '../support/memory-store';
import { Driver, defineWorkflow, succeed } from '../support/harness';
import type { Instruction } from '../../runtime/contract/ir';

const start = (input: unknown): unknown => ({ workflowId: 'w', input });
const fanIn: Instruction = { op: 'invoke', invoke: { kind: 'fanIn', target: 'J', size: 'frame', tail: 0 } };

test('a Map join of single-pass items makes one read round trip', async () => {
  const nodes = defineWorkflow('one-read', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    M: { fn: (x: number) => x * 2, mapItems: { itemsPath: '$' }, enclosingJoin: { node: 'J', tails: ['M'] }, instructions: [fanIn] },
    J: { fn: (xs: number[]) => xs.reduce((a, b) => a + b, 0), join: { tails: ['M'] }, instructions: [succeed] },
  });
  const store = new MemoryStore();
  await new Driver(store, nodes).run(start([1, 2, 3, 4]));
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '20' });
  // Every read was a step's first round trip: nothing was read afterwards.
  expect(store.calls.getCheckpoints ?? 0).toBe(0);
});

test('an item that loops ends at its tail on a later pass: the join reads it after the shards, and the result is right', async () => {
  const nodes = defineWorkflow('loop-read', {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    M: {
      fn: (x: number) => x + 1,
      mapItems: { itemsPath: '$' },
      enclosingJoin: { node: 'J', tails: ['M'] },
      instructions: [
        {
          op: 'choice',
          state: 'Again',
          rules: [{ when: { kind: 'compare', type: 'number', op: 'lt', path: '$', value: 3 }, then: [{ op: 'incrIteration' }, { op: 'invoke', invoke: { kind: 'scalar', target: 'M' } }] }],
          otherwise: [fanIn],
        },
      ],
    },
    J: { fn: (xs: number[]) => xs, join: { tails: ['M'] }, instructions: [succeed] },
  });
  const store = new MemoryStore();
  await new Driver(store, nodes).run(start([0, 5]));
  // Item 0 passes M three times (1, 2, 3); item 1 once (6).
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '[3,6]' });
  expect(store.calls.getCheckpoints).toBe(1);
});

test('a Parallel join reads each single-tail branch\'s output with its shards; a branch with several tails is read after them', async () => {
  const arrive = (tail: number): Instruction => ({ op: 'invoke', invoke: { kind: 'fanIn', target: 'J', size: 3, tail } });
  const enclosingJoin = { node: 'J', tails: ['A', 'B2', 'C'] };
  const nodes = (branchTails: number[]) =>
    defineWorkflow(`parallel-read-${branchTails.join('')}`, {
      O: { instructions: [{ op: 'invoke', invoke: { kind: 'parallel', targets: ['A', 'B1', 'C'], join: 'J' } }] },
      A: { fn: (x: number) => x + 1, enclosingJoin, instructions: [arrive(0)] },
      B1: { fn: (x: number) => x + 2, enclosingJoin, instructions: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'B2' } }] },
      B2: { fn: (x: number) => x * 10, enclosingJoin, instructions: [arrive(1)] },
      C: { fn: (x: number) => x + 3, enclosingJoin, instructions: [arrive(2)] },
      J: { fn: (xs: number[]) => xs, join: { tails: enclosingJoin.tails, branchTails }, instructions: [succeed] },
    });
  const known = new MemoryStore();
  await new Driver(known, nodes([0, 1, 2])).run(start(1));
  expect(known.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '[2,30,4]' });
  expect(known.calls.getCheckpoints ?? 0).toBe(0);
  // The middle branch may end at several tails: its output is read once the shards name it.
  const unknown = new MemoryStore();
  await new Driver(unknown, nodes([0, -1, 2])).run(start(1));
  expect(unknown.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '[2,30,4]' });
  expect(unknown.calls.getCheckpoints).toBe(1);
});
