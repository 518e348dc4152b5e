/**
 * Where a chain step's time goes (figure 4), from the engine proxy's
 * timestamps of every call (lib/local/traffic.ts `receivedMs`/`answeredMs`).
 * Only the steps strictly inside a chain are counted (the first and the
 * last unum steps also write the run record, which figure 4 states on its own):
 * of a 10-step chain, steps 1 to 8.
 */
import type { CallRecord } from '../lib/local/traffic';

/** The segments of one inner unum step, in ms; together they run from the predecessor's invoke to this step's. */
export interface UnumStepSegments {
  /** Predecessor's Invoke received -> this step's read received: delivery, sandbox wake-up, event parse, building the read. */
  readonly handoff: number;
  /** The read (BatchGetItem of the own checkpoint and the run record) at DynamoDB Local (proxy received -> answered). */
  readonly read: number;
  /** Read answered -> PutItem received: the answer back into the sandbox, user code, building and sending the commit. */
  readonly readToCommit: number;
  /** Conditional PutItem of the checkpoint at DynamoDB Local. */
  readonly commit: number;
  /** PutItem answered -> Invoke received: the answer back into the sandbox, building and sending the successor's invoke. */
  readonly commitToInvoke: number;
}

export const UNUM_SEGMENTS: readonly (keyof UnumStepSegments)[] = ['handoff', 'read', 'readToCommit', 'commit', 'commitToInvoke'];

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

/** The segments of every inner step of one unum chain run (a read, a commit and an invoke each). */
export function unumStepSegments(calls: readonly CallRecord[]): UnumStepSegments[] {
  const steps = callsByStep(calls);
  return steps.slice(1, -1).map((mine, k) => {
    const step = k + 1;
    if (mine.length !== 3) throw new Error(`chain step ${step}: ${mine.length} calls (${mine.map((c) => c.call.label).join(', ')}), expected BatchGetItem, PutItem, Invoke`);
    const previous = only(steps[step - 1], 'Invoke', step - 1);
    const [get, put, invoke] = [only(mine, 'BatchGetItem', step), only(mine, 'PutItem', step), only(mine, 'Invoke', step)];
    return {
      handoff: get.receivedMs - previous.receivedMs,
      read: get.answeredMs - get.receivedMs,
      readToCommit: put.receivedMs - get.answeredMs,
      commit: put.answeredMs - put.receivedMs,
      commitToInvoke: invoke.receivedMs - put.answeredMs,
    };
  });
}

/** The time of every inner step of one plain chain run: predecessor's Invoke received -> this step's Invoke received (the last function invokes nothing). */
export function plainStepMs(calls: readonly CallRecord[]): number[] {
  const steps = callsByStep(calls);
  return steps.slice(1).map((mine, k) => only(mine, 'Invoke', k + 1).receivedMs - only(steps[k], 'Invoke', k).receivedMs);
}

/** Time the run record's calls spent at DynamoDB Local in one unum run (its start and its finish). */
export function runRecordServiceMs(calls: readonly CallRecord[]): number {
  return calls
    .filter((c) => c.call.service === 'dynamodb' && c.call.label.endsWith('(run)') && c.receivedMs !== undefined && c.answeredMs !== undefined)
    .reduce((sum, c) => sum + ((c.answeredMs as number) - (c.receivedMs as number)), 0);
}
