/**
 * Garbage collection after this invocation committed and invoked its
 * successors: predecessors become tombstones (never deleted, so a late
 * duplicate of one stops at ingress), and a join deletes its fan-in shards
 * last, since their absence tells a duplicate join that cleanup is done. TTL removes the rest.
 */
import { ttlIn } from './payload';
import type { Cleanup, Exec } from './types';

export async function collect(x: Exec, cleanup: Cleanup): Promise<void> {
  const { parent } = x.invocation;
  const tombstones = parent ? [parent, ...cleanup.tombstones] : cleanup.tombstones;
  if (tombstones.length > 0) await x.rt.store.tombstone(tombstones, ttlIn(x.rt.ir.settings.checkpointTtlSeconds));
  if (cleanup.shards.length > 0) await x.rt.store.deleteItems(cleanup.shards);
}
