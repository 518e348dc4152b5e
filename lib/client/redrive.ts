/**
 * Redrive (`UnumClient.redrive`, `unum redrive`; docs/architecture.md
 * "Redrive"): a FAILED run goes on from the invocations parked in it (the one
 * that failed it, and those in flight that found it FAILED), with the inputs
 * they read, which are committed and still in the table within the redrive
 * window; every committed step is reused. Each parked item is marked with the
 * redrive's generation (the new redrive count), one conditional write makes
 * the run RUNNING again and moves the parked set to the set being resumed,
 * then each parked event is invoked again (`Event`) carrying the generation,
 * then that set is cleared. A redrive interrupted between the write and the
 * clearing is finished by the next call: its invokes repeat, which the
 * exactly-once step absorbs.
 */
import { type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { decodeParked, decodeRedriveState, decodeRunRecord, type Item, parkKey, parkResent, type Parked, type RunRef, resentEvent, runKey, runRedrive, runRedriveDone, type UpdateRequest } from '../../runtime/contract/table';
import { unlessConditionFailed } from './conditional-write';
import { UnumClientError } from './errors';
import type { TableReader } from '../runs/table-reader';
import type { RunState } from './types';

/** `redrive()` on a run that cannot be redriven: not FAILED, failed where a redrive would fail again, or past its redrive window. Nothing was changed. */
export class UnumRunNotRedrivableError extends UnumClientError {
  constructor(readonly workflowId: string, readonly status: RunState, readonly reason: string) {
    super(`run ${workflowId} (${status}) cannot be redriven: ${reason}`);
  }
}

/** What a redrive did. */
export interface RedriveResult {
  readonly workflowId: string;
  /** How many times the run has been redriven, this time included. */
  readonly redriveCount: number;
  /** Parked invocations invoked again. */
  readonly resumed: number;
}

/** What `redriveRun` works with. */
export interface RedriveDeps {
  readonly table: TableReader;
  readonly dynamodb: DynamoDBClient;
  /** Invokes `functionName` asynchronously with `event` (JSON). */
  readonly invoke: (functionName: string, event: string) => Promise<void>;
}

const update = (deps: RedriveDeps, request: UpdateRequest) =>
  deps.dynamodb.send(new UpdateItemCommand({ TableName: deps.table.tableName, ...request, ReturnValues: 'ALL_NEW' }));

/** The parked items of `names`, by name. */
async function readParked(deps: RedriveDeps, run: RunRef, names: readonly string[]): Promise<Map<string, Parked | undefined>> {
  const items = await deps.table.getMany(names.map((n) => parkKey(run, n)));
  return new Map(names.map((n) => [n, decodeParked(items.get(parkKey(run, n)))]));
}

/** Records on each parked item of `names` that redrive `generation` re-sends it (before it is invoked: runtime/records/redrive-park.ts `failParked`). */
async function markResent(deps: RedriveDeps, run: RunRef, generation: number, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((n) => unlessConditionFailed(update(deps, parkResent(run, n, generation)))));
}

/**
 * Invokes the parked invocations `names` of redrive `redrives`, marked with
 * its generation (those not in `known` read now), and clears its set (unless
 * a later redrive replaced it).
 */
async function resume(deps: RedriveDeps, run: RunRef, redrives: number, names: readonly string[], known = new Map<string, Parked | undefined>()): Promise<RedriveResult> {
  const read = await readParked(deps, run, names.filter((n) => !known.has(n)));
  const parked = names.map((n) => known.get(n) ?? read.get(n)).filter((p): p is Parked => p !== undefined);
  await Promise.all(parked.map((p) => deps.invoke(p.functionName, resentEvent(p.event, redrives))));
  await unlessConditionFailed(update(deps, runRedriveDone(run, redrives)));
  return { workflowId: run.workflowId, redriveCount: redrives, resumed: parked.length };
}

/** The parked invocations of the run `item` holds, or why it cannot be redriven now. */
async function parkedOrRefusal(deps: RedriveDeps, run: RunRef, item: Item): Promise<Map<string, Parked | undefined> | string> {
  const record = decodeRunRecord(item);
  const { redo, never } = decodeRedriveState(item);
  if (record.status !== 'FAILED') return `it is ${record.status}, and only a FAILED run is redriven`;
  if (never !== undefined) return `it failed at ${never}: the committed value that led there would lead there again`;
  if (record.deadline !== undefined && record.deadline <= Date.now()) return 'its timeout passed';
  if (redo.length === 0) return 'no invocation of it is parked to resume';
  const now = Math.floor(Date.now() / 1000);
  const parked = await readParked(deps, run, redo);
  if ([...parked.values()].some((p) => p === undefined || p.until <= now)) return 'its redrive window passed: what it would read again may have expired (checkpoint retention)';
  return parked;
}

/** Redrives run `run` (see the module comment); throws `UnumRunNotRedrivableError` when it cannot. */
export async function redriveRun(deps: RedriveDeps, run: RunRef): Promise<RedriveResult> {
  for (;;) {
    const item = await deps.table.get(runKey(run));
    if (!item) throw new UnumRunNotRedrivableError(run.workflowId, 'NOT_FOUND', 'it has no run record (not started, or expired)');
    const { redoing, redrives } = decodeRedriveState(item);
    const status = decodeRunRecord(item).status;
    // A redrive interrupted before it cleared its set (its items marked already): finish it.
    if (status === 'RUNNING' && redoing.length > 0) return resume(deps, run, redrives, redoing);
    const parked = await parkedOrRefusal(deps, run, item);
    if (typeof parked === 'string') throw new UnumRunNotRedrivableError(run.workflowId, status, parked);
    // Marked before the run is RUNNING again: no failure of an older event can come between and fail it again.
    await markResent(deps, run, redrives + 1, [...parked.keys()]);
    const updated = await unlessConditionFailed(update(deps, runRedrive(run, redrives, parked.size, new Date().toISOString())).then((r) => r.Attributes));
    if (updated) return resume(deps, run, redrives + 1, decodeRedriveState(updated).redoing, parked);
    const now = await deps.table.get(runKey(run));
    // Still FAILED, redriven as often: an invocation parked meanwhile (the set it read grew). Read again.
    if (now && decodeRunRecord(now).status === 'FAILED' && decodeRedriveState(now).redrives === redrives) continue;
    throw new UnumRunNotRedrivableError(run.workflowId, now ? decodeRunRecord(now).status : 'NOT_FOUND', 'it changed while this redrive read it (another redrive, or a stop)');
  }
}
