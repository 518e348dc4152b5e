/**
 * Listing a workflow's runs from the table's runs index (docs/architecture.md
 * "The runs index"): a Query, newest first, never a Scan. The index holds keys
 * only, so each page's statuses, times and errors are one eventually
 * consistent BatchGetItem of its run records: a run started or finished a
 * moment ago may be missing or show its previous status.
 */
import { decodeRunRecord, isRunsPageKey, type Item, keyOf, parseKey, RUN_STATUSES, RUN_SUMMARY_ATTRIBUTES, runsPageKey, runsQuery } from '../../runtime/contract/table';
import { UnumClientError } from './errors';
import type { TableReader } from '../runs/table-reader';
import type { ListRunsOptions, RunList, RunSummary } from './types';

/** `listRuns` returns this many runs unless told. */
export const DEFAULT_LIST_LIMIT = 100;
/** A page reads at most this many index entries: BatchGetItem's limit, so that their run records are one BatchGetItem. */
const MAX_PAGE = 100;

/** Where a listing goes on: the index position as an opaque string. */
const encodeToken = (key: Item): string => Buffer.from(JSON.stringify(key)).toString('base64url');

function decodeToken(token: string, workflow: string): Item {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (!isRunsPageKey(key, workflow)) throw new UnumClientError(`listRuns of workflow ${workflow}: nextToken is not a token a listing of this workflow returned`);
  return key;
}

/** An ISO-8601 time as the runtime writes it, from a Date or a string `Date.parse` reads. */
function isoTime(value: Date | string | undefined, field: string, workflow: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (!Number.isFinite(ms)) throw new UnumClientError(`listRuns of workflow ${workflow}: ${field} is not a time: '${String(value)}'`);
  return new Date(ms).toISOString();
}

/** What a listing shows of the run of index entry `entry`, from its run record. */
function summary(entry: Item, record: Item): RunSummary {
  const key = parseKey(keyOf(entry) ?? '');
  if (key?.kind !== 'run') throw new UnumClientError(`the runs index holds an item that is not a run record: ${keyOf(entry)}`);
  const { status, startedAt, finishedAt, deployment, error } = decodeRunRecord(record);
  return {
    workflowId: key.workflowId,
    status,
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(finishedAt !== undefined ? { finishedAt } : {}),
    ...(deployment !== undefined ? { deployment } : {}),
    ...(error ? { error } : {}),
  };
}

/**
 * Up to `limit` runs of `workflow`, newest first. Each page is a Query of the
 * index and one BatchGetItem of its runs' records; the status is read there,
 * so with a status this reads on until it has `limit` runs or the index ends:
 * each further page reads twice as many entries as the one before (up to
 * `MAX_PAGE`), so a rare status costs few round trips, and a common one little
 * reading past the last run returned. A run whose record is gone (expired
 * since the index was read) is left out.
 */
export async function listRuns(table: TableReader, workflow: string, options: ListRunsOptions = {}): Promise<RunList> {
  const fail = (message: string): never => {
    throw new UnumClientError(`listRuns of workflow ${workflow}: ${message}`);
  };
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) fail(`limit must be a positive integer, got ${limit}`);
  const status = options.status;
  if (status !== undefined && !RUN_STATUSES.includes(status)) fail(`status must be one of ${RUN_STATUSES.join(', ')}, got '${status}'`);
  const startedAfter = isoTime(options.startedAfter, 'startedAfter', workflow);
  const startedBefore = isoTime(options.startedBefore, 'startedBefore', workflow);
  if (startedAfter !== undefined && startedBefore !== undefined && startedAfter >= startedBefore) {
    fail(`startedAfter (${startedAfter}) must be before startedBefore (${startedBefore})`);
  }
  const query = runsQuery(workflow, {
    ...(startedAfter !== undefined ? { startedAfter } : {}),
    ...(startedBefore !== undefined ? { startedBefore } : {}),
  });
  const runs: RunSummary[] = [];
  let start = options.nextToken === undefined ? undefined : decodeToken(options.nextToken, workflow);
  for (let page = 0; runs.length < limit; page++) {
    const wanted = limit - runs.length;
    const { items: entries, lastKey } = await table.query({
      ...query,
      Limit: Math.min(MAX_PAGE, status === undefined ? wanted : wanted * 2 ** page),
      ExclusiveStartKey: start,
    });
    const records = await table.getMany(entries.map((e) => keyOf(e) ?? ''), { consistent: false, attributes: RUN_SUMMARY_ATTRIBUTES });
    let used = 0;
    for (const entry of entries) {
      if (runs.length === limit) break;
      used++;
      const record = records.get(keyOf(entry) ?? '');
      if (record === undefined) continue;
      const run = summary(entry, record);
      if (status === undefined || run.status === status) runs.push(run);
    }
    // The page holds more runs than wanted: go on after the last one looked at, not after the last one read.
    start = used < entries.length ? runsPageKey(entries[used - 1]) : lastKey;
    if (!start) break;
  }
  return { runs, ...(start ? { nextToken: encodeToken(start) } : {}) };
}
