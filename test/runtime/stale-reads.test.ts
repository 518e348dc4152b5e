/**
 * Issue 16 part 3: a step's first read is eventually consistent (unless it
 * reads state attempts). A replica can only miss a checkpoint (written once)
 * or a shard's later arrivals (they only add): a step whose input or
 * arrivals are missing asks the leader once more, consistently, before it
 * counts them missing. (A stale miss of the own checkpoint only computes
 * again: the fault campaign's stale reads cover duplicates.)
 */
import { MemoryStore } from '../support/memory-store';
import { Driver, defineWorkflow, succeed } from '../support/harness';
import type { Instruction } from '../../runtime/contract/ir';
import type { ReadOptions, ReadSet } from '../../runtime/ports/store';

/** A store whose eventually consistent reads come from a replica that has seen no checkpoint and no shard. */
class LaggingReplicaStore extends MemoryStore {
  override async read(checkpoints: readonly string[], shards: readonly string[], options: ReadOptions): Promise<ReadSet> {
    const read = await super.read(checkpoints, shards, options);
    return options.consistent ? read : { ...read, checkpoints: new Map(), shards: new Map() };
  }
}

const start = (input: unknown): unknown => ({ workflowId: 'w', input });
const fanIn: Instruction = { op: 'invoke', invoke: { kind: 'fanIn', target: 'J', size: 'frame', tail: 0 } };
const mapWorkflow = (name: string, calls: Map<string, number>) => {
  const counted = <T, R>(node: string, fn: (x: T) => R) => (x: T): R => {
    calls.set(node, (calls.get(node) ?? 0) + 1);
    return fn(x);
  };
  return defineWorkflow(name, {
    O: { instructions: [{ op: 'invoke', invoke: { kind: 'map', target: 'M', join: 'J', itemsPath: '$', maxConcurrency: 0 } }] },
    M: { fn: counted('M', (x: number) => x * 2), mapItems: { itemsPath: '$' }, enclosingJoin: { node: 'J', tails: ['M'] }, instructions: [fanIn] },
    J: { fn: counted('J', (xs: number[]) => xs.reduce((a, b) => a + b, 0)), join: { tails: ['M'] }, instructions: [succeed] },
  });
};

test('every first read of a Map run is eventually consistent, a consistent replica needs no second read, and the entry that started the run reads nothing', async () => {
  const store = new MemoryStore();
  await new Driver(store, mapWorkflow('eventual', new Map())).run(start([1, 2, 3]));
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '12' });
  // The origin started the run and read nothing; three items and the join: one read each, none consistent.
  expect(store.calls.eventualRead).toBe(4);
  expect(store.calls.read ?? 0).toBe(0);
});

test('inputs and arrivals a lagging replica misses are read again from the leader: the same result, user code once per invocation', async () => {
  const store = new LaggingReplicaStore();
  const calls = new Map<string, number>();
  await new Driver(store, mapWorkflow('lagging', calls)).run(start([1, 2, 3]));
  expect(store.runOf('w')).toMatchObject({ status: 'SUCCEEDED', result: '12' });
  expect(Object.fromEntries(calls)).toEqual({ M: 3, J: 1 });
  // The items get their input inline; the join, missing its shards and its branches' outputs, asks again, consistently, once.
  expect(store.calls.eventualRead).toBe(4);
  expect(store.calls.read).toBe(1);
});
