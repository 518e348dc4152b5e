import { Pass, type State } from '../definition';
import type { BuildContext, Translation } from './context';
import type { AslState } from './types';

/**
 * Choice and Succeed states are not functions in unum (they are folded into
 * their predecessor), so their InputPath / OutputPath are applied by a Pass
 * in front of them, which takes the state's node name while the state itself
 * becomes `<node>-<kind>`: Pass(InputPath, OutputPath) gives exactly the
 * effective input (Choice) or the output (Succeed). Costs one invocation.
 */
export function withPathsBefore(ctx: BuildContext, name: string, state: AslState, make: (id: string) => State): State | Translation {
  const inputPath = state.InputPath as string | null | undefined;
  const outputPath = state.OutputPath as string | null | undefined;
  const paths = { ...(inputPath !== undefined && inputPath !== '$' ? { inputPath } : {}), ...(outputPath !== undefined && outputPath !== '$' ? { outputPath } : {}) };
  if (Object.keys(paths).length === 0) return make(ctx.names.node(name));
  const exit = make(ctx.names.helper(name, state.Type.toLowerCase()));
  const entry = new Pass(ctx.names.node(name), paths);
  entry.next(exit);
  return { entry, exit };
}
