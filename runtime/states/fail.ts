/**
 * A Fail state's error and cause: fixed strings, or read from the value that
 * reaches the state (ASL `ErrorPath` / `CausePath`), as Step Functions does.
 */
import { contextObject } from '../language/context';
import { runtimeError } from '../contract/errors';
import type { FailInstruction, Json } from '../contract/ir';
import { templateValue } from '../language/template';
import type { Exec } from '../ports/execution';

function text(x: Exec, ins: FailInstruction, field: 'ErrorPath' | 'CausePath', expression: string, value: Json): string {
  // The context is the Fail state's own: its `$$.State.Name` is the Fail state, not the node's state.
  const v = templateValue(expression, value, contextObject(x, { State: { Name: ins.state } }), `Fail ${ins.state} ${field}`);
  if (typeof v !== 'string') throw runtimeError(`Fail ${ins.state}: ${field} ${expression} gave ${JSON.stringify(v)}, not a string`);
  return v;
}

export function failure(x: Exec, ins: FailInstruction, value: Json): { error: string; cause: string } {
  return {
    error: ins.errorPath === undefined ? (ins.error ?? ins.state) : text(x, ins, 'ErrorPath', ins.errorPath, value),
    cause: ins.causePath === undefined ? (ins.cause ?? '') : text(x, ins, 'CausePath', ins.causePath, value),
  };
}
