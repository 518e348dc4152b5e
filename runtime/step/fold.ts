/**
 * Fold: a join whose steps are separate invocations (the fold index is part
 * of the name). Step 0 receives the fan-in and materialises the item keys
 * into `fold.items`; step k folds item k into the accumulator, commits, and
 * invokes step k+1. The last step runs the instructions. Nothing is
 * collected: the items and steps expire by TTL.
 */
import { runtimeError } from '../contract/errors';
import { appendCommit } from '../records/history';
import { fanInMembers, readValues, resolveInput } from './inputs';
import { proceed, unlessCommitted } from './interpreter';
import { send } from './send';
import type { HandlerSpec, Json } from '../contract/ir';
import { invocationName } from '../contract/naming';
import { passValue } from '../records/payload';
import { exactlyOnceStep, type StepOutcome } from './step';
import { checkpointKey } from '../contract/table';
import { callUser, compute } from './user-code';
import type { Exec } from '../ports/execution';

/** Step 0's item keys, from the fan-in; undefined when its shards expired. */
function firstStepItems(x: Exec): string[] | undefined {
  const input = x.invocation.input;
  if ('fanIn' in input) return fanInMembers(x, input.fanIn);
  // An empty map's origin invokes the join directly with [] (and is our parent).
  if ('value' in input && Array.isArray(input.value) && input.value.length === 0) return [];
  throw runtimeError(`fold node ${x.rt.ir.node}: the first step needs a fan-in input`);
}

export function runFold(x: Exec, spec: Extract<HandlerSpec, { kind: 'fold' }>): Promise<StepOutcome> {
  const { fold, iteration } = x.invocation;
  const k = fold?.index ?? 0;
  return exactlyOnceStep(x, () => {
    const items = fold ? fold.items : firstStepItems(x);
    if (!items) return 'stale';
    const lastStep = k + 1 >= items.length;
    return {
      instructionsFollow: lastStep,
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
        return result;
      },
      async afterCommit(ck) {
        if (ck.catchIndex !== undefined || lastStep) return proceed(x, ck);
        await appendCommit(x, ck, { next: [x.rt.ir.node] });
        // The frames as the step left them (a redriven attempt's chain may have ended: runtime/step/redrive-reuse.ts).
        const frames = x.invocation.frames;
        const next = checkpointKey(invocationName(x.run, x.rt.ir.node, iteration, frames, k + 1));
        if (await unlessCommitted(x, [next])) {
          await send(x, x.rt.ir.node, { iteration, fanOut: frames, inputs: [passValue(x, ck)], fold: { index: k + 1, items } });
        }
      },
    };
  });
}
