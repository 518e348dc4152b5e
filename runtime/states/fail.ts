/**
 * A Fail state's error and cause: fixed strings, or read from the value that
 * reaches the state (ASL `ErrorPath` / `CausePath`, or a JSONata Fail's
 * `{% %}` Error / Cause), as Step Functions does.
 */
import { foldedStateContext } from '../language/context';
import { runtimeError, StatesError } from '../contract/errors';
import type { FailInstruction, Json } from '../contract/ir';
import { evaluateJsonataTemplate, jsonataExpression } from '../language/jsonata';
import { templateValue } from '../language/template';
import type { Exec } from '../ports/execution';

function text(x: Exec, ins: FailInstruction, field: 'ErrorPath' | 'CausePath', expression: string, value: Json): string {
  const v = templateValue(expression, value, foldedStateContext(x, ins.state), `Fail ${ins.state} ${field}`);
  if (typeof v !== 'string') throw runtimeError(`Fail ${ins.state}: ${field} ${expression} gave ${JSON.stringify(v)}, not a string`);
  return v;
}

/** A JSONata Fail's Error or Cause: a string as written, or what its expression gives, which must be a string. */
async function jsonataText(x: Exec, ins: FailInstruction, field: 'Error' | 'Cause', template: string, value: Json): Promise<string> {
  if (jsonataExpression(template) === undefined) return template;
  const v = await evaluateJsonataTemplate(template, { input: value, context: foldedStateContext(x, ins.state) }, `Fail ${ins.state} ${field}`);
  if (typeof v !== 'string') throw new StatesError('States.QueryEvaluationError', `Fail ${ins.state} ${field}: the expression gave ${JSON.stringify(v)}, not a string`);
  return v;
}

export async function failure(x: Exec, ins: FailInstruction, value: Json): Promise<{ error: string; cause: string }> {
  if (ins.queryLanguage === 'JSONata') {
    return { error: await jsonataText(x, ins, 'Error', ins.error ?? ins.state, value), cause: await jsonataText(x, ins, 'Cause', ins.cause ?? '', value) };
  }
  return {
    error: ins.errorPath === undefined ? (ins.error ?? ins.state) : text(x, ins, 'ErrorPath', ins.errorPath, value),
    cause: ins.causePath === undefined ? (ins.cause ?? '') : text(x, ins, 'CausePath', ins.causePath, value),
  };
}
