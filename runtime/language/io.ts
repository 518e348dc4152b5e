/**
 * ASL input/output processing around a node's handler:
 * InputPath -> Parameters -> handler -> ResultSelector -> ResultPath -> OutputPath.
 */
import type { IoSpec, Json } from '../contract/ir';
import { selectPath, setPath } from './paths';
import { applyTemplate } from './template';

/** The handler's input from the node input. */
export function processInput(io: IoSpec | undefined, input: Json, context: Json): Json {
  // `null` selects nothing (`{}`); absent is `$`.
  const path = io?.inputPath;
  const selected = path === null ? {} : selectPath(input, path ?? '$', 'InputPath');
  return io?.parameters === undefined ? selected : applyTemplate(io.parameters, selected, context);
}

/** The node output from the node input and the handler's raw result. */
export function processOutput(io: IoSpec | undefined, input: Json, raw: Json, context: Json): Json {
  const result = io?.resultSelector === undefined ? raw : applyTemplate(io.resultSelector, raw, context);
  const combined = applyResultPath(io?.resultPath, input, result);
  const out = io?.outputPath;
  return out === null ? {} : selectPath(combined, out ?? '$', 'OutputPath');
}

/**
 * What a Pass state computes from its input: `result` when it has one (`null`
 * included), else the selected input, placed by ResultPath, then OutputPath.
 */
export function passOutput(io: IoSpec | undefined, result: Json | undefined, input: Json, context: Json): Json {
  const selected = processInput(io, input, context);
  return processOutput(io, input, result === undefined ? selected : result, context);
}

/** ResultPath (also used by catch rules): `null` keeps the input, default `$` replaces it. */
export function applyResultPath(path: string | null | undefined, input: Json, result: Json): Json {
  if (path === null) return input;
  return setPath(input, path ?? '$', result);
}
