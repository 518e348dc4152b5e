/**
 * Issue 16 part 3: a Map's join (and a fold's first step) reads its shards
 * and its branches' outputs in one round trip when every item ends at the one
 * tail on its first pass; an item that ended on a later pass is read next.
 */
import { MemoryStore } from '../support/memory-store';
import { Driver, defineWorkflow, succeed } from '../support/harness';
import type { Instruction } from '../../runtime/ir';

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
