/**
 * Where a chain step's time goes (figure 4), from the engine proxy's
 * timestamps of every call (lib/local/traffic.ts `receivedMs`/`answeredMs`).
 * Only the steps strictly inside a chain are counted (the first and the
 * last unum steps also write the run record, which figure 4 states on its own):
 * of a 10-step chain, steps 1 to 8.
 */
import type { CallRecord } from '../lib/local/traffic';

/**
 * The segments of one inner unum step, in ms. The step's read of the run
 * record goes out first and is answered beside the step's work; the path
 * from the predecessor's invoke to this step's runs through the others.
 */
export interface UnumStepSegments {
  /** Predecessor's Invoke received -> this step's read received: delivery, sandbox wake-up, event parse, building the read. */
  readonly handoff: number;
  /** Read received -> PutItem received: user code, building and sending the commit, while the read is in flight. */
  readonly toCommit: number;
  /** Conditional PutItem of the checkpoint at DynamoDB Local. */
  readonly commit: number;
  /** PutItem answered -> read answered, when the read's answer came later (else 0). */
  readonly readWait: number;
  /** The later answer -> Invoke received: the answers back into the sandbox, building and sending the successor's invoke. */
  readonly toInvoke: number;
}

/** The segments on the step's path, which add up to the step. */
export const UNUM_SEGMENTS: readonly (keyof UnumStepSegments)[] = ['handoff', 'toCommit', 'commit', 'readWait', 'toInvoke'];

/** A step's segments, and its read at DynamoDB Local (proxy received -> answered), which overlaps them. */
export interface UnumStep {
  readonly segments: UnumStepSegments;
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
    const answered = Math.max(get.answeredMs, put.answeredMs);
    return {
      segments: {
        handoff: get.receivedMs - previous.receivedMs,
        toCommit: put.receivedMs - get.receivedMs,
        commit: put.answeredMs - put.receivedMs,
        readWait: answered - put.answeredMs,
        toInvoke: invoke.receivedMs - answered,
      },
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
