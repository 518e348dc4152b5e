/** How the layout encodes items: the key and TTL attributes, attribute values, and the expressions of its puts and updates. */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { UnumFormatError } from '../errors';

/** An item, a key, or the values of an expression, as DynamoDB carries them. */
export type Item = Record<string, AttributeValue>;

export const PK = 'pk';
const TTL = 'ttl';
/** Partition key of the runs index: the run's workflow name. Only run records carry it. */
export const RUNS = 'runs';
/** Sort key of the runs index: `<startedAt>#<workflowId>`, so a workflow's runs sort by start time, ids breaking ties. */
export const RUNS_SK = 'runsSk';
/**
 * The key and TTL attributes the table is created with (construct, local
 * engine), and its one index: `runs`, sparse (only run records carry its
 * keys) and KEYS_ONLY, so that listing the runs of a workflow is a Query, not
 * a Scan, and a run's final write never writes the index (docs/architecture.md
 * "The runs index").
 */
export const TABLE = {
  partitionKey: PK,
  ttlAttribute: TTL,
  runsIndex: { name: 'runs', partitionKey: RUNS, sortKey: RUNS_SK },
} as const;

export const S = (s: string): AttributeValue => ({ S: s });
export const N = (n: number): AttributeValue => ({ N: String(n) });
export const str = (item: Item, name: string): string | undefined => item[name]?.S;
export function num(item: Item, name: string): number | undefined {
  const n = item[name]?.N;
  return n === undefined ? undefined : Number(n);
}

export const keyItem = (key: string): Item => ({ [PK]: S(key) });

export const keyOf = (item: Item | undefined): string | undefined => item?.[PK]?.S;

/** Epoch seconds after which DynamoDB's TTL may delete the item; every item the runtime writes has one. */
export const ttlOf = (item: Item): number | undefined => num(item, TTL);

/**
 * The table format the runtime writes: 2 added the run's deployment (and
 * this attribute); 3 begins invocation names with the workflow's tag
 * (keys.ts `workflowTag`), so the keys built from them name their workflow,
 * and items are as in format 2. An item without `fv` is format 1, written
 * before: format 2 only adds attributes, so it reads as before. An item of a
 * newer format (a newer unum-cdk sharing the table) is refused, never
 * misread. A run keeps the format it started with: its deployment's runtime
 * names all of its invocations.
 */
export const TABLE_FORMAT = 3;
/** The format attribute every item the runtime creates carries. */
export const FORMAT = 'fv';

/** The format an item was written in (absent: format 1). */
export const formatOf = (item: Item): number => num(item, FORMAT) ?? 1;

/** `item`, after checking this runtime can read its format: a newer one throws `UnumFormatError` naming the key and both formats. */
export function readable(item: Item): Item {
  const format = formatOf(item);
  if (format > TABLE_FORMAT) {
    throw new UnumFormatError(`table item ${keyOf(item)} is of format ${format}, written by a newer unum-cdk; this runtime reads formats up to ${TABLE_FORMAT}`);
  }
  return item;
}

/** A new item's key, format and TTL: every item the runtime creates expires. */
export const newItem = (key: string, ttl: number): Item => ({ ...keyItem(key), [FORMAT]: N(TABLE_FORMAT), [TTL]: N(ttl) });

/** Condition: the item does not exist. */
export const ABSENT = 'attribute_not_exists(#pk)';
/** Condition: the item exists. */
export const PRESENT = 'attribute_exists(#pk)';

/**
 * What the `#placeholders` in the expressions below stand for: attribute names
 * and DynamoDB reserved words. DynamoDB rejects unused names, so a request
 * gets exactly those its expressions mention.
 */
const NAMES: Record<string, string> = { '#pk': PK, '#ttl': TTL, '#fv': FORMAT, '#ri': RUNS, '#rk': RUNS_SK, '#s': 'status', '#e': 'error', '#r': 'result', '#st': 'st', '#res': 'res', '#xid': 'xid' };
export function namesIn(...expressions: (string | undefined)[]): Record<string, string> | undefined {
  const used = expressions.join(' ').match(/#\w+/g);
  return used ? Object.fromEntries(used.map((n) => [n, NAMES[n]])) : undefined;
}

/** A PutItem as the layout makes it; the store adds the table and what it wants returned. */
export interface PutRequest {
  readonly Item: Item;
  readonly ConditionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
}

/** An UpdateItem as the layout makes it; the store adds the table and what it wants returned. */
export interface UpdateRequest {
  readonly Key: Item;
  readonly UpdateExpression: string;
  readonly ConditionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
  readonly ExpressionAttributeValues: Item;
}

export const put = (item: Item, condition?: string): PutRequest => ({ Item: item, ConditionExpression: condition, ExpressionAttributeNames: namesIn(condition) });

export const update = (key: string, expression: string, values: Item, condition?: string): UpdateRequest => ({
  Key: keyItem(key),
  UpdateExpression: expression,
  ConditionExpression: condition,
  ExpressionAttributeNames: namesIn(expression, condition),
  ExpressionAttributeValues: values,
});

/** Condition of a TTL renewal: the item exists and expires before `:t` (a renewal never shortens a TTL nor creates an item). */
const EXPIRES_BEFORE = `${PRESENT} AND #ttl < :t`;

/** Raise an item's TTL: what a run still needs (docs/architecture.md "Retention"), a result the run record references. */
export const ttlExtension = (key: string, ttl: number): UpdateRequest => update(key, 'SET #ttl = :t', { ':t': N(ttl) }, EXPIRES_BEFORE);

/** DynamoDB's 400 KB item limit minus room for the key, TTL and catch index: the largest value a record holds. */
export const MAX_VALUE_BYTES = 400 * 1024 - 512;

/** A JSON value's size as DynamoDB counts it. */
export const byteLength = (json: string): number => Buffer.byteLength(json, 'utf8');
