/**
 * Listing a workflow's runs from the table's runs index (docs/architecture.md
 * "Table"): a Query, newest first, never a Scan. Index reads are eventually
 * consistent: a run started or finished a moment ago may show its previous state.
 */
import { decodeRunRecord, isRunsPageKey, type Item, keyOf, parseKey, RUN_STATUSES, runsPageKey, runsQuery } from '../../runtime/table';
import { UnumClientError } from './errors';
import type { TableReader } from './table';
import type { ListRunsOptions, RunList, RunSummary } from './types';

/** `listRuns` returns this many runs unless told. */
export const DEFAULT_LIST_LIMIT = 100;
/** A status-filtered listing reads at most this many index items per Query. */
const MAX_FILTERED_PAGE = 1000;

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

function summary(item: Item): RunSummary {
  const key = parseKey(keyOf(item) ?? '');
  if (key?.kind !== 'run') throw new UnumClientError(`the runs index holds an item that is not a run record: ${keyOf(item)}`);
  const { status, startedAt, finishedAt, error } = decodeRunRecord(item);
  return {
    workflowId: key.workflowId,
    status,
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(finishedAt !== undefined ? { finishedAt } : {}),
    ...(error ? { error } : {}),
  };
}

/**
 * Up to `limit` runs of `workflow`, newest first. With a status, the Query's
 * filter drops the other runs after reading them, so this reads on until it
 * has `limit` runs or the index ends: each further Query reads twice as many
 * items as the one before (up to `MAX_FILTERED_PAGE`), so a rare status costs
 * few round trips, and a common one little reading past the last run returned.
 */
export async function listRuns(table: TableReader, workflow: string, options: ListRunsOptions = {}): Promise<RunList> {
  const fail = (message: string): never => {
    throw new UnumClientError(`listRuns of workflow ${workflow}: ${message}`);
  };
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) fail(`limit must be a positive integer, got ${limit}`);
  if (options.status !== undefined && !RUN_STATUSES.includes(options.status)) fail(`status must be one of ${RUN_STATUSES.join(', ')}, got '${options.status}'`);
  const startedAfter = isoTime(options.startedAfter, 'startedAfter', workflow);
  const startedBefore = isoTime(options.startedBefore, 'startedBefore', workflow);
  if (startedAfter !== undefined && startedBefore !== undefined && startedAfter >= startedBefore) {
    fail(`startedAfter (${startedAfter}) must be before startedBefore (${startedBefore})`);
  }
  const query = runsQuery(workflow, {
    ...(options.status !== undefined ? { status: options.status } : {}),
    ...(startedAfter !== undefined ? { startedAfter } : {}),
    ...(startedBefore !== undefined ? { startedBefore } : {}),
  });
  const items: Item[] = [];
  let start = options.nextToken === undefined ? undefined : decodeToken(options.nextToken, workflow);
  for (let page = 0; items.length < limit; page++) {
    const wanted = limit - items.length;
    const { items: found, lastKey } = await table.query({
      ...query,
      Limit: options.status === undefined ? wanted : Math.min(MAX_FILTERED_PAGE, wanted * 2 ** page),
      ExclusiveStartKey: start,
    });
    items.push(...found.slice(0, wanted));
    // More found than wanted: go on after the last one returned, not after the last one read.
    start = found.length > wanted ? runsPageKey(found[wanted - 1]) : lastKey;
    if (!start) break;
  }
  return { runs: items.map(summary), ...(start ? { nextToken: encodeToken(start) } : {}) };
}
