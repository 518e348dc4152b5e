/**
 * Invariant 6 of the fault checker (lib/local/map-concurrency.ts) for
 * in-process runs: how many items of each bounded Map ran at once. An item
 * runs from the first delivery of an event to a node of its item processor
 * until its arrival is recorded in a level-0 shard; a logical clock orders
 * the two, so there are no ties.
 */
import { boundedMaps, itemOf, peakRunning, type BoundedMap } from '../../lib/testing/map-concurrency';
import { decodeArrival } from '../../runtime/records/fan-in-shards';
import type { EnvelopeHeader, NodeIR } from '../../runtime/contract/ir';
import { invocationName } from '../../runtime/contract/naming';
import type { CheckpointStore } from '../../runtime/ports/store';
import { parseKey } from '../../runtime/contract/table';
import type { Driver } from './harness';
import { overriding } from './store-overrides';

interface Running {
  start: number;
  end?: number;
}

export class MapWatch {
  private clock = 0;
  private readonly maps: BoundedMap[];
  /** Items by Map join node and run of the Map (`itemOf`'s instance). */
  private readonly items = new Map<string, Map<string, Map<number, Running>>>();
  /** What a join invocation name's shards belong to. */
  private readonly joins = new Map<string, { map: string; instance: string; size: number }>();

  constructor(irs: readonly NodeIR[]) {
    this.maps = boundedMaps(irs);
  }

  /** Watches every delivery of the driver's functions. */
  attach(driver: Driver): void {
    for (const [name, handler] of driver.handlers) {
      driver.handlers.set(name, (event, context) => {
        this.delivered(event);
        return handler(event, context);
      });
    }
  }

  /** An event delivered to a function: the first one of an item starts it. */
  delivered(event: unknown): void {
    const unum = (event as { unum?: EnvelopeHeader }).unum;
    if (!unum) return;
    for (const map of this.maps) {
      const item = itemOf(map, unum.node, unum.fanOut);
      if (!item) continue;
      const at = unum.fanOut.length - 1 - (map.members.get(unum.node) as number);
      const frame = unum.fanOut[at];
      const join = invocationName({ workflow: unum.workflow, workflowId: unum.workflowId }, map.join, frame.iteration, unum.fanOut.slice(0, at));
      this.joins.set(join, { map: map.join, instance: item.instance, size: frame.size });
      const instances = this.items.get(map.join) ?? new Map<string, Map<number, Running>>();
      this.items.set(map.join, instances);
      const items = instances.get(item.instance) ?? new Map<number, Running>();
      instances.set(item.instance, items);
      if (!items.has(item.index)) items.set(item.index, { start: ++this.clock });
    }
  }

  /** The store, with every recorded arrival at a bounded Map's join ending its item. */
  store(inner: CheckpointStore): CheckpointStore {
    return overriding(inner, {
      addToShard: async (key, element, expected, ttl) => {
        const added = await inner.addToShard(key, element, expected, ttl);
        const shard = parseKey(key);
        const join = shard?.kind === 'shard' && shard.level === 0 ? this.joins.get(shard.join) : undefined;
        const item = join && this.items.get(join.map)?.get(join.instance)?.get(decodeArrival(element, join.size).index);
        if (item && item.end === undefined) item.end = ++this.clock;
        return added;
      },
    });
  }

  /** The most items of the Map joined at `join` that ran at once, over all its runs. */
  peak(join: string): number {
    return Math.max(0, ...[...(this.items.get(join)?.values() ?? [])].map((items) => peakRunning(items.values())));
  }

  /** How many items of the Map joined at `join` started, over all its runs. */
  started(join: string): number {
    return [...(this.items.get(join)?.values() ?? [])].reduce((n, items) => n + items.size, 0);
  }
}
