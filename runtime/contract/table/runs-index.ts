/** The runs index `runs`: listing a workflow's runs by start time with a Query, not a Scan. */
import { FORMAT, type Item, PK, RUNS, RUNS_SK, S, TABLE, namesIn } from './encoding';
import { runKey } from './keys';
import { RUN_DEPLOYMENT } from './run-record';

/** A Query of the runs index as the layout makes it; the reader adds the table, the limit and where to start. */
export interface RunsQuery {
  readonly IndexName: string;
  readonly KeyConditionExpression: string;
  readonly ExpressionAttributeNames: Record<string, string>;
  readonly ExpressionAttributeValues: Item;
  /** Newest first. */
  readonly ScanIndexForward: false;
}

/** Which runs of a workflow a listing wants: start times as ISO-8601 (`toISOString`), both bounds exclusive. */
export interface RunsFilter {
  readonly startedAfter?: string;
  readonly startedBefore?: string;
}

/**
 * The runs of `workflow`, newest first. The time bounds are key conditions
 * (only the runs within them are read); the index holds keys only, so a
 * status is read from the run records (`RUN_SUMMARY_ATTRIBUTES`). `<after>$` sorts after every
 * `<after>#<id>` and before any later time, `<before>` before every
 * `<before>#<id>` and after any earlier time: both bounds exclude runs started
 * at exactly that time.
 */
export function runsQuery(workflow: string, filter: RunsFilter): RunsQuery {
  const values: Item = { ':w': S(workflow) };
  const after = filter.startedAfter === undefined ? undefined : `${filter.startedAfter}$`;
  const before = filter.startedBefore;
  if (after !== undefined) values[':a'] = S(after);
  if (before !== undefined) values[':b'] = S(before);
  const range = after !== undefined && before !== undefined ? ' AND #rk BETWEEN :a AND :b' : after !== undefined ? ' AND #rk > :a' : before !== undefined ? ' AND #rk < :b' : '';
  const condition = `#ri = :w${range}`;
  return {
    IndexName: TABLE.runsIndex.name,
    KeyConditionExpression: condition,
    ExpressionAttributeNames: namesIn(condition) as Record<string, string>,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
}

/**
 * The `dynamodb:LeadingKeys` patterns of a Query of `workflow`'s runs: on an
 * index the condition reads the index's partition key (`runs`, the
 * workflow's name: `runIndexAttributes`), and a name holds no IAM wildcard.
 */
export const runsIndexKeyPatterns = (workflow: string): string[] => [workflow];

/** What a run listing reads of each run record: its key, status, times, error, deployment and format (not its result). */
export const RUN_SUMMARY_ATTRIBUTES: readonly string[] = [PK, 'status', 'startedAt', 'finishedAt', 'error', RUN_DEPLOYMENT, FORMAT];

/** Where a listing that ended at index item `item` goes on: its table and index keys (what DynamoDB's LastEvaluatedKey holds). */
export const runsPageKey = (item: Item): Item => ({ [PK]: item[PK], [RUNS]: item[RUNS], [RUNS_SK]: item[RUNS_SK] });

/** True when `key` is a runs index position of a run of `workflow`: its three keys, naming the same run, and nothing else. */
export function isRunsPageKey(key: unknown, workflow: string): key is Item {
  if (typeof key !== 'object' || key === null || Array.isArray(key)) return false;
  const item = key as Record<string, unknown>;
  const text = (name: string): string | undefined => {
    const v = item[name] as { S?: unknown } | undefined;
    return typeof v === 'object' && v !== null && Object.keys(v).length === 1 && typeof v.S === 'string' ? v.S : undefined;
  };
  const sk = text(RUNS_SK) ?? '';
  const workflowId = sk.slice(sk.lastIndexOf('#') + 1);
  return Object.keys(item).length === 3 && text(RUNS) === workflow && sk.includes('#') && text(PK) === runKey({ workflow, workflowId });
}
