/**
 * Fold: a join whose steps are separate invocations (the fold index is part
 * of the name). Step 0 receives the fan-in, materialises the item keys into
 * `fold.items` and cleans up the fan-in (shards, origin: every branch has
 * committed); step k folds item k into the accumulator, commits, and invokes
 * step k+1 (which tombstones step k). The last step runs the instructions and
 * tombstones the items.
 */
import { commit, fromCheckpoint } from './egress';
import { runtimeError } from './errors';
import { collect } from './gc';
import { logCommit } from './history';
import { fanInMembers, noCleanup, readValues, resolveInput } from './ingress';
import { leadingPasses, proceed, send } from './interpreter';
import type { Json } from './ir';
import { passValue } from './payload';
import { callUser, compute } from './user-code';
import type { Cleanup, Committed, Exec } from './types';

/** Item keys and step-0 cleanup; undefined when the fan-in is already cleaned up. */
async function firstStep(x: Exec): Promise<{ items: string[]; cleanup: Cleanup } | undefined> {
  const input = x.inv.input;
  if ('fanIn' in input) {
    const m = await fanInMembers(x, input.fanIn);
    return m && { items: m.keys, cleanup: { tombstones: [input.fanIn.origin], shards: m.shards } };
  }
  // An empty map's origin invokes the join directly with [] (and is our parent).
  if ('value' in input && Array.isArray(input.value) && input.value.length === 0) return { items: [], cleanup: noCleanup() };
  throw runtimeError(`fold node ${x.rt.ir.node}: the first step needs a fan-in input`);
}

export async function runFold(x: Exec): Promise<string> {
  const spec = x.rt.ir.handler;
  if (spec.kind !== 'fold') throw runtimeError(`node ${x.rt.ir.node} is not a fold`);
  const k = x.inv.fold?.index ?? 0;
  const own = await x.rt.store.getCheckpoint(x.key);
  let items = x.inv.fold?.items;
  let cleanup = noCleanup();
  if (!items) {
    const first = await firstStep(x);
    // Shards gone: step 0 committed, invoked step 1 and cleaned up before.
    if (!first) return own ? (own.tombstone ? 'tombstone' : 'duplicate') : 'stale';
    items = first.items;
    cleanup = first.cleanup;
  }
  const finishing = { tombstones: [...cleanup.tombstones, ...items], shards: cleanup.shards };
  const lastStep = k + 1 >= items.length;
  // Tombstoned: we and our successor committed; redo our cleanup in case our GC was cut short.
  const stop = async (): Promise<string> => {
    await collect(x, lastStep ? finishing : cleanup);
    return 'tombstone';
  };
  if (own?.tombstone) return stop();
  let ck: Committed | undefined;
  if (own) {
    x.metrics.duplicates = 1;
    ck = fromCheckpoint(x.key, own);
  } else {
    let acc: Json = spec.initial;
    if (k > 0) {
      const r = await resolveInput(x);
      if (!r) return 'stale';
      acc = r.value;
    }
    let result: { value: Json; catchIndex?: number } = { value: acc };
    if (items.length > 0) {
      const item = await readValues(x, [items[k]]);
      if (!item) return 'stale';
      result = await compute(x, acc, () => callUser(x, [acc, item[0], k]));
    }
    // The last step's output goes on to the instructions: apply their leading passes first.
    const last = result.catchIndex === undefined && lastStep;
    ck = await commit(x, last ? leadingPasses(x, result.value) : result.value, result.catchIndex);
    if (!ck) return stop();
  }
  if (ck.catchIndex === undefined && !lastStep) {
    await logCommit(x, ck, { next: [x.rt.ir.node] });
    await send(x, x.rt.ir.node, {
      iteration: x.inv.iteration,
      fanOut: x.inv.frames,
      inputs: [passValue(x, ck)],
      parent: ck.key,
      fold: { index: k + 1, items },
    });
  } else {
    await proceed(x, ck);
    cleanup = finishing;
  }
  await collect(x, cleanup);
  return own ? 'duplicate' : ck.catchIndex === undefined ? 'committed' : 'caught';
}
