/**
 * Fold: a join whose steps are separate invocations (the fold index is part
 * of the name). Step 0 receives the fan-in, materialises the item keys into
 * `fold.items` and cleans up the fan-in (shards, origin: every branch has
 * committed); step k folds item k into the accumulator, commits, and invokes
 * step k+1 (which tombstones step k). The last step runs the instructions and
 * tombstones the items.
 */
import { runtimeError } from './errors';
import { appendCommit } from './history';
import { fanInMembers, noCleanup, readValues, resolveInput } from './ingress';
import { proceed } from './interpreter';
import { send } from './send';
import type { HandlerSpec, Json } from './ir';
import { passValue } from './payload';
import { exactlyOnceStep, type StepOutcome } from './step';
import { callUser, compute } from './user-code';
import type { Cleanup, Exec } from './types';

/** Item keys and step-0 cleanup; undefined when the fan-in is already cleaned up. */
async function firstStep(x: Exec): Promise<{ items: string[]; cleanup: Cleanup } | undefined> {
  const input = x.invocation.input;
  if ('fanIn' in input) {
    const m = await fanInMembers(x, input.fanIn);
    return m && { items: m.keys, cleanup: { tombstones: [input.fanIn.origin], shards: m.cleanup.shards } };
  }
  // An empty map's origin invokes the join directly with [] (and is our parent).
  if ('value' in input && Array.isArray(input.value) && input.value.length === 0) return { items: [], cleanup: noCleanup() };
  throw runtimeError(`fold node ${x.rt.ir.node}: the first step needs a fan-in input`);
}

export function runFold(x: Exec, spec: Extract<HandlerSpec, { kind: 'fold' }>): Promise<StepOutcome> {
  const { fold, iteration, frames } = x.invocation;
  const k = fold?.index ?? 0;
  return exactlyOnceStep(x, async (own) => {
    const step = fold ? { items: fold.items, cleanup: noCleanup() } : await firstStep(x);
    // Shards gone: step 0 committed, invoked step 1 and cleaned up before.
    if (!step) return own ? (own.tombstone ? 'tombstone' : 'duplicate') : 'stale';
    const { items, cleanup } = step;
    const finishing = { tombstones: [...cleanup.tombstones, ...items], shards: cleanup.shards };
    const lastStep = k + 1 >= items.length;
    return {
      instructionsFollow: lastStep,
      owedCleanup: async () => (lastStep ? finishing : cleanup),
      async computeOutput() {
        let acc: Json = spec.initial;
        if (k > 0) {
          const r = await resolveInput(x);
          if (!r) return undefined;
          acc = r.value;
        }
        let result: { value: Json; catchIndex?: number } = { value: acc };
        if (items.length > 0) {
          const item = await readValues(x, [items[k]]);
          if (!item) return undefined;
          result = await compute(x, acc, () => callUser(x, [acc, item[0], k]));
        }
        return { ...result, cleanup };
      },
      async afterCommit(ck) {
        if (ck.catchIndex !== undefined || lastStep) {
          await proceed(x, ck);
          return finishing;
        }
        await appendCommit(x, ck, { next: [x.rt.ir.node] });
        await send(x, x.rt.ir.node, { iteration, fanOut: frames, inputs: [passValue(x, ck)], parent: ck.key, fold: { index: k + 1, items } });
        return cleanup;
      },
    };
  });
}
