/**
 * When a Wait ends (IR `WaitSpec`), computed by the node before it from the
 * value that reaches the Wait. A path whose value is not a wait fails the run
 * with States.Runtime naming the node, the Wait and the field, as Step
 * Functions fails the execution; a JSONata expression's, with States.QueryEvaluationError.
 */
import { timestamp } from '../language/condition';
import { runtimeError, StatesError } from '../contract/errors';
import { MAX_WAIT_SECONDS, type Json, type WaitSpec } from '../contract/ir';
import { processInput } from '../language/io';
import { evaluateJsonataTemplate } from '../language/jsonata';
import { evalPath } from '../language/paths';

type PathWait = Extract<WaitSpec, { secondsPath: string } | { timestampPath: string }>;
type ExpressionWait = Extract<WaitSpec, { secondsExpression: string } | { timestampExpression: string }>;

/** Epoch milliseconds at which the wait ends; `now` is when it starts; `context` is what a JSONata Wait reads as `$states.context`. */
export async function waitDue(node: string, wait: WaitSpec, value: Json, now: number, context: Json): Promise<number> {
  if ('seconds' in wait) return now + wait.seconds * 1000;
  if ('timestamp' in wait) return withinAYear(node, wait, 'Timestamp', wait.timestamp, now);
  if ('secondsExpression' in wait || 'timestampExpression' in wait) return expressionDue(node, wait, value, now, context);
  return pathDue(node, wait, value, now);
}

function pathDue(node: string, wait: PathWait, value: Json, now: number): number {
  const input = processInput(wait.inputPath === undefined ? undefined : { inputPath: wait.inputPath }, value, null);
  const [field, path] = 'secondsPath' in wait ? ['SecondsPath', wait.secondsPath] : ['TimestampPath', wait.timestampPath];
  const bad = (why: string): Error => runtimeError(`node ${node}: Wait ${wait.state}, field ${field}: ${why}`);
  const found = evalPath(input, path, 'reference');
  if (!found.found) throw bad(`the path ${path} matches nothing in the input`);
  const v = found.value;
  if ('secondsPath' in wait) {
    if (!isWaitSeconds(v)) throw bad(`${JSON.stringify(v)} at ${path} is not a whole number of seconds from 0 to ${MAX_WAIT_SECONDS} (one year)`);
    return now + v * 1000;
  }
  if (timestamp(v) === undefined) throw bad(`${JSON.stringify(v)} at ${path} is not an RFC 3339 timestamp (e.g. 2026-01-01T00:00:00Z)`);
  return withinAYear(node, wait, field, v as string, now, ` at ${path}`);
}

/** A JSONata Wait's time: an expression that gives something else is the Wait's States.QueryEvaluationError, as in Step Functions. */
async function expressionDue(node: string, wait: ExpressionWait, value: Json, now: number, context: Json): Promise<number> {
  const [field, expression] = 'secondsExpression' in wait ? ['Seconds', wait.secondsExpression] : ['Timestamp', wait.timestampExpression];
  const v = await evaluateJsonataTemplate(expression, { input: value, context }, `Wait ${wait.state} ${field}`);
  const bad = (why: string): Error => new StatesError('States.QueryEvaluationError', `node ${node}: Wait ${wait.state}, field ${field}: ${JSON.stringify(v)} ${why}`);
  if (field === 'Seconds') {
    if (!isWaitSeconds(v)) throw bad(`is not a whole number of seconds from 0 to ${MAX_WAIT_SECONDS} (one year)`);
    return now + v * 1000;
  }
  if (timestamp(v) === undefined) throw bad('is not an RFC 3339 timestamp (e.g. 2026-01-01T00:00:00Z)');
  return withinAYear(node, wait, field, v as string, now);
}

const isWaitSeconds = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_WAIT_SECONDS;

/** A timestamp's time (a past one is due now), refusing one more than a year ahead: no wait is longer. */
function withinAYear(node: string, wait: WaitSpec, field: string, text: string, now: number, where = ''): number {
  const due = timestamp(text) as number;
  if (due > now + MAX_WAIT_SECONDS * 1000) throw runtimeError(`node ${node}: Wait ${wait.state}, field ${field}: ${text}${where} is more than one year ahead`);
  return due;
}
