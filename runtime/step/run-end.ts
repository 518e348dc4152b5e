/**
 * Whether a node's instructions end the run with success, decided before the
 * commit from the value to commit: the terminal transition's commit is then
 * the run's final write (runtime/records/run-record.ts `commitRunResult`), not a checkpoint
 * and a second write. Choices are pure functions of the committed value, so
 * every execution that commits the same value takes the same path.
 */
import { decideChoice } from '../language/condition';
import { foldedStateContext, type ContextSource } from '../language/context';
import type { Instruction, Json } from '../contract/ir';

/**
 * 'end' when `value` takes `list` to `succeed` before any invoke or failure,
 * 'other' when it takes it elsewhere, undefined when `list` decides nothing.
 */
async function pathOf(x: ContextSource, list: readonly Instruction[], value: Json): Promise<'end' | 'other' | undefined> {
  for (const ins of list) {
    switch (ins.op) {
      case 'succeed':
        return 'end';
      case 'invoke':
      case 'fail':
        return 'other';
      case 'choice': {
        const decided = await decideChoice(ins, value, foldedStateContext(x, ins.state));
        // A Choice that fails is no success: the interpreter fails the run after the commit, at the Choice state.
        if ('failed' in decided) return 'other';
        const path = decided.next ? await pathOf(x, decided.next, value) : 'other';
        if (path) return path;
        break;
      }
      default:
        // 'pass' ran before the commit; 'incrIteration' only names what follows.
        break;
    }
  }
  return undefined;
}

/** The committed `value` ends the run with success through `list` and nothing else. */
export const endsRun = async (x: ContextSource, list: readonly Instruction[], value: Json): Promise<boolean> => (await pathOf(x, list, value)) === 'end';
