import { Parallel, Pass, type MapState } from '../definition';
import type { IoProps } from '../definition/io';
import type { BuildContext, Translation } from './context';
import type { AslState } from './types';

/**
 * A Map's or Parallel's result placed with ResultPath. The DSL's join gets
 * only the branch results, not the state input (IR version 1), so a
 * ResultPath other than `$` is translated as
 *
 *   Parallel <node> [ Pass <node>-input | the container as <node>-items ]
 *     -> Pass <node>-result
 *
 * The merge Pass receives `[input, result]` and applies ResultPath and
 * OutputPath to it with `$[0]` / `$[1]` prefixed paths, which is exactly ASL's
 * "place the result in the raw input, then select". It costs three extra
 * invocations per run (the input Pass, the container's own origin and join).
 */
export function placeResult(ctx: BuildContext, name: string, state: AslState, io: IoProps, make: (id: string, io: IoProps) => MapState | Parallel): MapState | Parallel | Translation {
  const resultPath = state.ResultPath;
  if (resultPath === undefined || resultPath === '$') return make(ctx.names.node(name), io);
  const { resultPath: _placed, outputPath, ...inner } = io;
  const container = make(ctx.names.helper(name, 'items'), inner);
  const entry = new Parallel(ctx.names.node(name)).branch(new Pass(ctx.names.helper(name, 'input')), container);
  const exit = new Pass(ctx.names.helper(name, 'result'), {
    ...(typeof resultPath === 'string' ? { inputPath: '$[1]', resultPath: `$[0]${resultPath.slice(1)}` } : {}),
    outputPath: outputPath === null ? null : `$[0]${(outputPath ?? '$').slice(1)}`,
  });
  entry.next(exit);
  return { entry, exit };
}
