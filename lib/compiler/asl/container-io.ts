import type { Reporter } from './errors';
import type { AslState } from './types';

/**
 * A Parallel's or Map's join receives only the branch outputs, not the state
 * input (IR version 1), so a ResultPath that merges them into the input has
 * no translation; the default `$` (the outputs replace the input) does.
 */
export function rejectMergingResultPath(report: Reporter, name: string, state: AslState): void {
  const resultPath = state.ResultPath;
  if (resultPath === undefined || resultPath === '$') return;
  report.fail(name, 'ResultPath', `ResultPath ${JSON.stringify(resultPath)} is not supported on a ${state.Type} state: its join receives only the ${state.Type === 'Map' ? 'item' : 'branch'} results, not the state input. Use '$' (the default) and merge in the next state`);
}
