/**
 * When a Wait ends (IR `WaitSpec`), computed by the node before it from the
 * value that reaches the Wait. A path whose value is not a wait fails the run
 * with States.Runtime naming the node, the Wait and the field, as Step
 * Functions fails the execution.
 */
import { timestamp } from '../language/condition';
import { runtimeError } from '../contract/errors';
import { MAX_WAIT_SECONDS, type Json, type WaitSpec } from '../contract/ir';
import { processInput } from '../language/io';
import { evalPath } from '../language/paths';

/** Epoch milliseconds at which the wait ends; `now` is when it starts. */
export function waitDue(node: string, wait: WaitSpec, value: Json, now: number): number {
  if ('seconds' in wait) return now + wait.seconds * 1000;
  if ('timestamp' in wait) return withinAYear(node, wait, 'Timestamp', wait.timestamp, now);
  const input = processInput(wait.inputPath === undefined ? undefined : { inputPath: wait.inputPath }, value, null);
  const [field, path] = 'secondsPath' in wait ? ['SecondsPath', wait.secondsPath] : ['TimestampPath', wait.timestampPath];
  const bad = (why: string): Error => runtimeError(`node ${node}: Wait ${wait.state}, field ${field}: ${why}`);
  const found = evalPath(input, path, 'reference');
  if (!found.found) throw bad(`the path ${path} matches nothing in the input`);
  const v = found.value;
  if ('secondsPath' in wait) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_WAIT_SECONDS) {
      throw bad(`${JSON.stringify(v)} at ${path} is not a whole number of seconds from 0 to ${MAX_WAIT_SECONDS} (one year)`);
    }
    return now + v * 1000;
  }
  if (timestamp(v) === undefined) throw bad(`${JSON.stringify(v)} at ${path} is not an RFC 3339 timestamp (e.g. 2026-01-01T00:00:00Z)`);
  return withinAYear(node, wait, field, v as string, now, ` at ${path}`);
}

/** A timestamp's time (a past one is due now), refusing one more than a year ahead: no wait is longer. */
function withinAYear(node: string, wait: WaitSpec, field: string, text: string, now: number, where = ''): number {
  const due = timestamp(text) as number;
  if (due > now + MAX_WAIT_SECONDS * 1000) throw runtimeError(`node ${node}: Wait ${wait.state}, field ${field}: ${text}${where} is more than one year ahead`);
  return due;
}
