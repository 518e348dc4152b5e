/**
 * A Parallel's branch input as the branches receive it: the state input
 * (the origin's checkpoint) through the Parallel's InputPath and Parameters,
 * or a JSONata Parallel's Arguments.
 * The origin computes it to send it inline; a branch start that received a
 * `ref` to the origin (the input was too large) rebuilds the same value.
 */
import { foldedStateContext } from '../language/context';
import type { BranchInput, Json } from '../contract/ir';
import { processInput } from '../language/io';
import { evaluateJsonataTemplate } from '../language/jsonata';
import type { Exec } from '../ports/execution';

export async function branchInput(x: Exec, spec: BranchInput, stateInput: Json): Promise<Json> {
  const context = foldedStateContext(x, spec.state);
  if (spec.queryLanguage !== 'JSONata') return processInput(spec, stateInput, context);
  return spec.arguments === undefined ? stateInput : evaluateJsonataTemplate(spec.arguments, { input: stateInput, context }, `Parallel ${spec.state} Arguments`);
}
