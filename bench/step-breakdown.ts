/**
 * Where a chain step's time goes (figure 4), from the engine proxy's
 * timestamps of every call (lib/local/call-records.ts `receivedMs`/`answeredMs`).
 * Only the steps strictly inside a chain are counted (the first and the
 * last unum steps also write the run record, which figure 4 states on its own):
 * of a 10-step chain, steps 1 to 8.
 */
import type { CallRecord } from '../lib/local/call-records';

/**
 * The segments of one inner unum step, in ms. The step sends its conditional
 * put and its read of the run record together, after its handler, and
 * invokes once both have answered; the segments run from the predecessor's
 * invoke to the step's and add up to the step.
 */
export interface UnumStepSegments {
  /** Predecessor's Invoke received -> the first of the step's two calls received: delivery, sandbox wake-up, event parse, user code, building both requests. */
  readonly handoff: number;
  /** The first of the two calls received -> the later answer: both at DynamoDB Local. */
  readonly calls: number;
  /** The later answer -> Invoke received: the answers back into the sandbox, building and sending the successor's invoke. */
  readonly toInvoke: number;
}

export const UNUM_SEGMENTS: readonly (keyof UnumStepSegments)[] = ['handoff', 'calls', 'toInvoke'];

/** A step's segments, and each of its two calls alone at DynamoDB Local (proxy received -> answered). */
export interface UnumStep {
  readonly segments: UnumStepSegments;
  readonly commitMs: number;
  readonly readMs: number;
}

type Timed = CallRecord & { readonly receivedMs: number; readonly answeredMs: number };

/** The calls of each execution of a chain run that made calls, in the order the proxy received them (a chain's steps are sequential). */
function callsByStep(calls: readonly CallRecord[]): Timed[][] {
  const byExecution = new Map<string, Timed[]>();
  const timed = calls.filter((c): c is Timed => c.receivedMs !== undefined && c.answeredMs !== undefined);
  for (const c of [...timed].sort((a, b) => a.receivedMs - b.receivedMs)) {
    byExecution.set(c.exec.executionId, [...(byExecution.get(c.exec.executionId) ?? []), c]);
  }
  return [...byExecution.values()];
}

function only(calls: readonly Timed[], operation: string, step: number): Timed {
  const found = calls.filter((c) => c.call.operation === operation);
  if (found.length !== 1) throw new Error(`chain step ${step}: ${found.length} ${operation} calls, expected 1 (${calls.map((c) => c.call.label).join(', ')})`);
  return found[0];
}

/** Every inner step of one unum chain run (a read, a commit and an invoke each). */
export function unumSteps(calls: readonly CallRecord[]): UnumStep[] {
  const steps = callsByStep(calls);
  return steps.slice(1, -1).map((mine, k) => {
    const step = k + 1;
    if (mine.length !== 3) throw new Error(`chain step ${step}: ${mine.length} calls (${mine.map((c) => c.call.label).join(', ')}), expected GetItem, PutItem, Invoke`);
    const previous = only(steps[step - 1], 'Invoke', step - 1);
    const [get, put, invoke] = [only(mine, 'GetItem', step), only(mine, 'PutItem', step), only(mine, 'Invoke', step)];
    const sent = Math.min(get.receivedMs, put.receivedMs);
    const answered = Math.max(get.answeredMs, put.answeredMs);
    return {
      segments: { handoff: sent - previous.receivedMs, calls: answered - sent, toInvoke: invoke.receivedMs - answered },
      commitMs: put.answeredMs - put.receivedMs,
      readMs: get.answeredMs - get.receivedMs,
    };
  });
}

/** The time of every inner step of one plain chain run: predecessor's Invoke received -> this step's Invoke received (the last function invokes nothing). */
export function plainStepMs(calls: readonly CallRecord[]): number[] {
  const steps = callsByStep(calls);
  return steps.slice(1).map((mine, k) => only(mine, 'Invoke', k + 1).receivedMs - only(steps[k], 'Invoke', k).receivedMs);
}

/** Time the run record's writes spent at DynamoDB Local in one unum run (its start and its finish; the steps' reads of it are not counted). */
export function runRecordServiceMs(calls: readonly CallRecord[]): number {
  return calls
    .filter((c) => c.call.service === 'dynamodb' && c.call.operation !== 'GetItem' && c.call.label.endsWith('(run)') && c.receivedMs !== undefined && c.answeredMs !== undefined)
    .reduce((sum, c) => sum + ((c.answeredMs as number) - (c.receivedMs as number)), 0);
}
