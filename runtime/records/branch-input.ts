/**
 * A Parallel's branch input as the branches receive it: the state input
 * (the origin's checkpoint) through the Parallel's InputPath and Parameters.
 * The origin computes it to send it inline; a branch start that received a
 * `ref` to the origin (the input was too large) rebuilds the same value.
 */
import { contextObject } from '../language/context';
import type { BranchInput, Json } from '../contract/ir';
import { processInput } from '../language/io';
import type { Exec } from '../ports/execution';

export function branchInput(x: Exec, spec: BranchInput, stateInput: Json): Json {
  return processInput(spec, stateInput, contextObject(x, { State: { Name: spec.state } }));
}
