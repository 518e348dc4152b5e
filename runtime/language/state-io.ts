/**
 * A state's input and output processing in its query language: JSONPath's
 * five fields (io.ts) or JSONata's `Arguments` and `Output` (jsonata.ts).
 * Async, since JSONata evaluates asynchronously; a JSONPath state's work is
 * io.ts's, unchanged.
 */
import type { IoSpec, Json } from '../contract/ir';
import { passOutput, processInput, processOutput } from './io';
import { evaluateJsonataTemplate } from './jsonata';

const jsonata = (io: IoSpec | undefined): io is IoSpec => io?.queryLanguage === 'JSONata';

/** The handler's input from the state input. */
export async function stateArguments(io: IoSpec | undefined, input: Json, context: Json): Promise<Json> {
  if (!jsonata(io)) return processInput(io, input, context);
  return io.arguments === undefined ? input : evaluateJsonataTemplate(io.arguments, { input, context }, 'Arguments');
}

/** The state output from the state input and the handler's result. */
export async function stateOutput(io: IoSpec | undefined, input: Json, result: Json, context: Json): Promise<Json> {
  if (!jsonata(io)) return processOutput(io, input, result, context);
  return io.outputs === undefined ? result : evaluateJsonataTemplate(io.outputs, { input, result, context }, 'Output');
}

/** What a Pass state gives: JSONPath's `Result` and paths, or JSONata's `Output` (default: its input). */
export async function passStateOutput(io: IoSpec | undefined, result: Json | undefined, input: Json, context: Json): Promise<Json> {
  if (!jsonata(io)) return passOutput(io, result, input, context);
  return io.outputs === undefined ? input : evaluateJsonataTemplate(io.outputs, { input, context }, 'Output');
}
