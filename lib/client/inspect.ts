import { HistoryEntry, dedupeHistory } from './history';
import { SHARD_WIDTH } from '../../runtime/contract/table';
import {
  checkpointKey,
  decodeHistoryCount,
  decodeHistoryEntry,
  decodeShard,
  historyKey,
  keyOf,
  parseKey,
  runKey,
  runStatusOf,
  type RunRef,
  shardKey,
  SUMMARY_ATTRIBUTES,
} from '../../runtime/contract/table';
import { parseRunRecord } from '../runs/run-status';
import type { TableReader } from '../runs/table-reader';
import type { InspectOptions, RunStatus } from './types';
import { waitingTasks, type WaitingTask } from './waiting';

/** Arrivals at one fan-in: level-0 shards hold one number per arrived branch. */
export interface FanInProgress {
  /** The join's invocation name (shard keys are `fanin#<join>#<level>#<shard>`). */
  readonly join: string;
  /** The fan-out origin's node, when known from the history. */
  readonly origin?: string;
  readonly arrived: number;
  readonly expected: number;
  /** The join received the fan-in (its history entry says so, or its checkpoint exists): every branch arrived. */
  readonly complete: boolean;
}

/** Table-wide counts from a scan: checkpoint keys are hashes, so they cannot be attributed to a run. */
export interface TableSummary {
  readonly checkpoints: number;
  readonly fanIns: readonly FanInProgress[];
  /** Number of run records in the table (any status, any workflow sharing it). */
  readonly runs: number;
  /** Ids of this workflow's runs whose record is RUNNING. */
  readonly runsInFlight: readonly string[];
  /**
   * True when the inspected run has the only run record of the table, so the
   * counts are its own (run records outlive checkpoints, so an older run's
   * leftover checkpoints would come with its record).
   */
  readonly attributable: boolean;
}

/** A failed or caught invocation: its node, the state that failed (a Fail or Choice state, or the node's state) and the error. */
export interface InspectFailure {
  readonly node: string;
  readonly state?: string;
  readonly error: string;
  readonly cause?: string;
  readonly caught: boolean;
}

/** What the table tells about a run while its records exist. */
export interface InspectReport {
  readonly run: RunStatus;
  /** The transition log in sequence order, duplicates removed; absent when the run has none. */
  readonly history?: readonly HistoryEntry[];
  /** Fan-ins started by this run (from its history), with arrivals. */
  readonly fanIns: readonly FanInProgress[];
  /** Entries of the history that failed or were caught, and the run's own error. */
  readonly failures: readonly InspectFailure[];
  /**
   * The callback Tasks the run waits on, with their task tokens; present for a
   * RUNNING run of a workflow whose callback Tasks the client knows
   * (`WorkflowLocation.callbackTasks`; found in the cloud assembly).
   */
  readonly waiting?: readonly WaitingTask[];
  readonly table?: TableSummary;
}

export async function inspectRun(table: TableReader, ref: RunRef, options: InspectOptions = {}, callbackNodes: readonly string[] = []): Promise<InspectReport> {
  const run = parseRunRecord(ref.workflowId, await table.get(runKey(ref)));
  const history = await readHistory(table, ref);
  const fanIns = history ? await fanInsOf(table, history) : [];
  const scan = options.scan ?? history === undefined;
  const summary = scan ? await scanTable(table, ref) : undefined;
  const failures = [
    ...(history ?? []).flatMap((e) => (e.error ? [{ node: e.node, state: e.state, ...e.error, caught: e.outcome === 'caught' }] : [])),
    // The failure recorder may write no history entry: the run record is the authority.
    ...(run.error && !history?.some((e) => e.outcome === 'failed') ? [{ ...run.error, caught: false }] : []),
  ];
  const waiting = run.status === 'RUNNING' && callbackNodes.length > 0 ? await waitingTasks(table, ref, callbackNodes, history) : undefined;
  return { run, ...(history ? { history } : {}), fanIns, failures, ...(waiting ? { waiting } : {}), ...(summary ? { table: summary } : {}) };
}

async function readHistory(table: TableReader, run: RunRef): Promise<HistoryEntry[] | undefined> {
  const n = decodeHistoryCount(await table.get(historyKey(run)));
  if (n === 0) return undefined;
  const keys = Array.from({ length: n }, (_, i) => historyKey(run, i + 1));
  const items = await table.getMany(keys);
  // Sequence numbers whose append crashed after the counter update are gaps: skip them.
  const entries = keys.flatMap((k, i) => {
    const item = items.get(k);
    const entry = item && decodeHistoryEntry(i + 1, item);
    return entry ? [entry] : [];
  });
  return dedupeHistory(entries);
}

/** Reads the level-0 shards of every fan-out the history records. */
async function fanInsOf(table: TableReader, history: readonly HistoryEntry[]): Promise<FanInProgress[]> {
  const origins = new Map<string, { origin: string; size: number }>();
  const joined = new Set<string>();
  for (const e of history) {
    if (e.fanIn) origins.set(e.fanIn.join, { origin: e.node, size: e.fanIn.size });
    if (e.joined) joined.add(e.joined);
  }
  if (origins.size === 0) return [];
  const keys: string[] = [];
  for (const [join, { size }] of origins) {
    keys.push(checkpointKey(join));
    for (let s = 0; s < Math.ceil(size / SHARD_WIDTH); s++) keys.push(shardKey(join, 0, s));
  }
  const items = await table.getMany(keys);
  return [...origins].map(([join, { origin, size }]) => {
    let arrived = 0;
    let shards = 0;
    for (let s = 0; s < Math.ceil(size / SHARD_WIDTH); s++) {
      const shard = items.get(shardKey(join, 0, s));
      if (shard) { shards++; arrived += decodeShard(shard).arrivals.length; }
    }
    // Shards stay until their TTL, and an empty fan-out has none: the join's entry or checkpoint (a fold's
    // first step under a name of its own) tells completion, not the shards.
    const complete = joined.has(join) || items.has(checkpointKey(join)) || (shards === 0 && size === 0);
    return { join, origin, arrived: complete ? size : arrived, expected: size, complete };
  });
}

async function scanTable(table: TableReader, run: RunRef): Promise<TableSummary> {
  let checkpoints = 0;
  const runKeys: string[] = [];
  const runsInFlight: string[] = [];
  const joins = new Map<string, { arrived: number; expected: number }>();
  for await (const item of table.scan(SUMMARY_ATTRIBUTES)) {
    const key = parseKey(keyOf(item) ?? '');
    if (key?.kind === 'checkpoint') {
      checkpoints++;
    } else if (key?.kind === 'run') {
      runKeys.push(keyOf(item) as string);
      if (key.workflow === run.workflow && runStatusOf(item) === 'RUNNING') runsInFlight.push(key.workflowId);
    } else if (key?.kind === 'shard' && key.level === 0) {
      const shard = decodeShard(item);
      const j = joins.get(key.join) ?? { arrived: 0, expected: 0 };
      j.arrived += shard.arrivals.length;
      j.expected += shard.expected;
      joins.set(key.join, j);
    }
  }
  runsInFlight.sort();
  return {
    checkpoints,
    // Shards stay until their TTL: a fan-in is open while its level-0 shards miss arrivals.
    fanIns: [...joins].filter(([, j]) => j.arrived < j.expected).map(([join, j]) => ({ join, ...j, complete: false })),
    runs: runKeys.length,
    runsInFlight,
    attributable: runKeys.length === 1 && runKeys[0] === runKey(run),
  };
}
