/**
 * DynamoDB read and write request units of observed calls, by AWS's published
 * on-demand rules rather than by what an emulator reports (DynamoDB Local
 * under-reports transactions; see TOOLCHAIN.md):
 * - a write costs 1 unit per started KB of the larger of the item's size
 *   before and after it (so growing an item costs by its full size), at least 1;
 *   a conditional write whose condition fails is still charged;
 * - a transactional write or read costs twice as much;
 * - a strongly consistent read costs 1 unit per started 4 KB, an eventually
 *   consistent one half; a read of a missing item still costs the minimum;
 * - BatchGetItem and BatchWriteItem are billed per item, as single calls;
 *   Query and Scan by the total size read;
 * - the runs index (runtime/contract/table/: sparse, keys only) is written as
 *   DynamoDB bills a global secondary index: a write that puts an item into
 *   it (the item gains both its keys) or deletes one from it costs 1 unit
 *   per started KB of the index entry (its keys and the table's key), one
 *   that changes an entry's keys costs both, and one that changes neither
 *   membership nor keys (a run's final status: see `runFinish`) costs
 *   nothing, nor does a write whose condition fails; a transaction doubles
 *   it like the table write.
 * Items are identified by the workflow table's key `pk`.
 * Item sizes before a write are tracked by replaying the calls in order, so
 * feed the meter every call of a run, as issued.
 */
import { TABLE } from '../../runtime/contract/table';
import { attributeSize, itemSize, type WireItem, type WireValue } from './item-size';

/** One DynamoDB call as seen on the wire. */
export interface DynamoCall {
  /** `PutItem`, `UpdateItem`, ... */
  readonly operation: string;
  /** The request body (DynamoDB JSON). */
  readonly request: Record<string, unknown>;
  /** The response body, when the service answered. */
  readonly response?: Record<string, unknown>;
  /** The service answered 2xx. */
  readonly ok: boolean;
}

export interface CapacityTotals {
  readUnits: number;
  writeUnits: number;
  /** The part of `writeUnits` that wrote the runs index. */
  indexWriteUnits: number;
  /** Units and calls per operation, for the report's detail. */
  readonly byOperation: Record<string, { calls: number; readUnits: number; writeUnits: number }>;
}

const KB = 1024;
const READ_BLOCK = 4 * KB;

/** Attribute name -> billed size of the attribute (name + value). */
type Shape = Map<string, number>;

const total = (shape: Shape | undefined): number => [...(shape?.values() ?? [])].reduce((a, b) => a + b, 0);

const INDEX = TABLE.runsIndex;
const INDEX_KEYS: readonly string[] = [INDEX.partitionKey, INDEX.sortKey];
/** What an entry of the runs index holds (KEYS_ONLY): the table key and its own keys. */
const INDEX_ENTRY: ReadonlySet<string> = new Set([TABLE.partitionKey, ...INDEX_KEYS]);
/** An item is in the (sparse) index when it has both index keys. */
const inIndex = (shape: Shape | undefined): shape is Shape => INDEX_KEYS.every((k) => shape?.has(k) === true);
const entrySize = (shape: Shape): number => [...shape].reduce((sum, [name, size]) => sum + (INDEX_ENTRY.has(name) ? size : 0), 0);
const wcu = (before: number, after: number): number => Math.max(1, Math.ceil(Math.max(before, after) / KB));
const rru = (size: number, consistent: boolean): number => {
  const blocks = Math.max(1, Math.ceil(size / READ_BLOCK));
  return consistent ? blocks : blocks / 2;
};

function shapeOf(item: WireItem): Shape {
  return new Map(Object.entries(item).map(([k, v]) => [k, attributeSize(k, v)]));
}

export class CapacityMeter {
  private readonly items = new Map<string, Shape>();
  readonly totals: CapacityTotals = { readUnits: 0, writeUnits: 0, indexWriteUnits: 0, byOperation: {} };

  /** `onRead` hears of every item read (by its key), with the read units it was billed: the cost report prices some items' reads on their own. */
  constructor(private readonly onRead?: (table: string, key: WireItem, readUnits: number) => void) {}

  record(call: DynamoCall): void {
    const r = call.request;
    const res = call.response ?? {};
    const before = { read: this.totals.readUnits, write: this.totals.writeUnits };
    // A failed condition is billed; throttling and validation errors are not.
    const conditionFailed = !call.ok && /ConditionalCheckFailed|TransactionCanceled/.test(String(res.__type ?? ''));
    if (!call.ok && !conditionFailed) return;
    const table = String(r.TableName ?? '');
    switch (call.operation) {
      case 'GetItem':
        this.read(table, r.Key as WireItem, res.Item as WireItem | undefined, r.ConsistentRead === true, 1);
        break;
      case 'PutItem':
        this.put(table, r.Item as WireItem, call.ok, 1, res.Item as WireItem | undefined);
        break;
      case 'UpdateItem':
        this.update(table, r, res, call.ok, 1);
        break;
      case 'DeleteItem':
        this.delete(table, r.Key as WireItem, call.ok, 1);
        break;
      case 'BatchGetItem':
        this.batchGet(r, res);
        break;
      case 'BatchWriteItem':
        this.batchWrite(r, res);
        break;
      case 'TransactWriteItems':
        this.transactWrite(r, call.ok);
        break;
      case 'TransactGetItems':
        for (const t of (r.TransactItems as { Get: { TableName: string; Key: WireItem } }[]) ?? []) {
          this.read(t.Get.TableName, t.Get.Key, undefined, true, 2);
        }
        break;
      case 'Query':
      case 'Scan': {
        const size = ((res.Items as WireItem[] | undefined) ?? []).reduce((s, item) => s + itemSize(item), 0);
        this.totals.readUnits += rru(size, r.ConsistentRead === true);
        break;
      }
      default:
        break; // control-plane calls (CreateTable, DescribeTable, ...) are not request units
    }
    const op = (this.totals.byOperation[call.operation] ??= { calls: 0, readUnits: 0, writeUnits: 0 });
    op.calls++;
    op.readUnits += this.totals.readUnits - before.read;
    op.writeUnits += this.totals.writeUnits - before.write;
  }

  private keyOf(table: string, key: WireItem): string {
    return `${table}\u0000${JSON.stringify(Object.entries(key).sort(([a], [b]) => a.localeCompare(b)))}`;
  }

  private read(table: string, key: WireItem, returned: WireItem | undefined, consistent: boolean, factor: number): void {
    // A projection returns part of the item, but the whole item is billed: prefer the tracked size.
    const known = this.items.get(this.keyOf(table, key));
    const size = known ? total(known) : returned ? itemSize(returned) : 0;
    const units = factor * rru(size, consistent);
    this.totals.readUnits += units;
    this.onRead?.(table, key, units);
  }

  private put(table: string, item: WireItem, applied: boolean, factor: number, old?: WireItem): void {
    const key = this.keyOf(table, keyOfItem(item));
    const beforeSize = old ? itemSize(old) : total(this.items.get(key));
    this.totals.writeUnits += factor * wcu(beforeSize, itemSize(item));
    if (!applied) return;
    const after = shapeOf(item);
    const replaced = this.items.get(key);
    // A put replaces the whole item; only sizes are tracked, so a key of another size is another key.
    this.indexWrite(replaced, after, INDEX_KEYS.some((k) => replaced?.get(k) !== after.get(k)), factor);
    this.items.set(key, after);
  }

  private delete(table: string, keyItem: WireItem, applied: boolean, factor: number): void {
    const key = this.keyOf(table, keyItem);
    this.totals.writeUnits += factor * wcu(total(this.items.get(key)), 0);
    if (!applied) return;
    this.indexWrite(this.items.get(key), undefined, false, factor);
    this.items.delete(key);
  }

  private update(table: string, r: Record<string, unknown>, res: Record<string, unknown>, applied: boolean, factor: number): void {
    const keyItem = r.Key as WireItem;
    const key = this.keyOf(table, keyItem);
    const current = this.items.get(key) ?? shapeOf(keyItem);
    const changed = new Set<string>();
    const next = applyUpdate(current, String(r.UpdateExpression ?? ''), (r.ExpressionAttributeNames ?? {}) as Record<string, string>,
      (r.ExpressionAttributeValues ?? {}) as WireItem, changed);
    // ReturnValues ALL_NEW gives the exact item after the update.
    const after = r.ReturnValues === 'ALL_NEW' && res.Attributes ? shapeOf(res.Attributes as WireItem) : next;
    this.totals.writeUnits += factor * wcu(total(current), total(after));
    if (!applied) return;
    this.indexWrite(this.items.get(key), after, INDEX_KEYS.some((k) => changed.has(k)), factor);
    this.items.set(key, after);
  }

  /**
   * The runs index's part of an applied write from `before` to `after`
   * (undefined: no item), which changed the entry's keys if `keysChanged`
   * (sizes are tracked, not values: a key attribute the write set counts as a
   * new key; one `if_not_exists` left as it was does not). The index projects
   * keys only, so an item that stays in it with its keys unchanged changes
   * nothing the index holds, and DynamoDB writes no entry.
   */
  private indexWrite(before: Shape | undefined, after: Shape | undefined, keysChanged: boolean, factor: number): void {
    const was = inIndex(before);
    const is = inIndex(after);
    if (was && is && !keysChanged) return;
    const units = was && is
      ? wcu(entrySize(before), 0) + wcu(0, entrySize(after))
      : was || is ? wcu(was ? entrySize(before) : 0, is ? entrySize(after) : 0) : 0;
    this.totals.writeUnits += factor * units;
    this.totals.indexWriteUnits += factor * units;
  }

  private batchGet(r: Record<string, unknown>, res: Record<string, unknown>): void {
    const requested = (r.RequestItems ?? {}) as Record<string, { Keys: WireItem[]; ConsistentRead?: boolean }>;
    const unprocessed = (res.UnprocessedKeys ?? {}) as Record<string, { Keys: WireItem[] }>;
    const responses = (res.Responses ?? {}) as Record<string, WireItem[]>;
    for (const [table, { Keys, ConsistentRead }] of Object.entries(requested)) {
      const skipped = new Set((unprocessed[table]?.Keys ?? []).map((k) => this.keyOf(table, k)));
      const returned = new Map((responses[table] ?? []).map((item) => [this.keyOf(table, keyOfItem(item)), item]));
      for (const k of Keys) {
        const key = this.keyOf(table, k);
        if (!skipped.has(key)) this.read(table, k, returned.get(key), ConsistentRead === true, 1);
      }
    }
  }

  private batchWrite(r: Record<string, unknown>, res: Record<string, unknown>): void {
    const requested = (r.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: WireItem }; DeleteRequest?: { Key: WireItem } }[]>;
    const unprocessed = (res.UnprocessedItems ?? {}) as Record<string, unknown[]>;
    for (const [table, writes] of Object.entries(requested)) {
      const skipped = new Set((unprocessed[table] ?? []).map((w) => JSON.stringify(w)));
      for (const w of writes) {
        if (skipped.has(JSON.stringify(w))) continue;
        if (w.PutRequest) this.put(table, w.PutRequest.Item, true, 1);
        else if (w.DeleteRequest) this.delete(table, w.DeleteRequest.Key, true, 1);
      }
    }
  }

  private transactWrite(r: Record<string, unknown>, applied: boolean): void {
    type Action = { TableName: string; Item?: WireItem; Key?: WireItem } & Record<string, unknown>;
    for (const t of (r.TransactItems ?? []) as Record<string, Action>[]) {
      if (t.Put) this.put(t.Put.TableName, t.Put.Item as WireItem, applied, 2);
      else if (t.Update) this.update(t.Update.TableName, t.Update, {}, applied, 2);
      else if (t.Delete) this.delete(t.Delete.TableName, t.Delete.Key as WireItem, applied, 2);
      else if (t.ConditionCheck) {
        const size = total(this.items.get(this.keyOf(t.ConditionCheck.TableName, t.ConditionCheck.Key as WireItem)));
        this.totals.writeUnits += 2 * wcu(size, size);
      }
    }
  }
}

/** The key of an item of a workflow table: the meter knows no other schema. */
function keyOfItem(item: WireItem): WireItem {
  return { [TABLE.partitionKey]: item[TABLE.partitionKey] };
}

/** The item's shape after an UpdateExpression (SET, ADD, REMOVE, DELETE clauses); the attributes it changes are added to `changed`. */
export function applyUpdate(shape: Shape, expression: string, names: Record<string, string>, values: WireItem, changed = new Set<string>()): Shape {
  const next = new Map(shape);
  const resolve = (path: string): string => {
    // A nested path (a.b[0]) updates part of a top-level attribute: size it as that attribute.
    const top = path.trim().split(/[.[]/)[0];
    return names[top] ?? top;
  };
  const placeholders = (expr: string): WireValue[] => (expr.match(/:[A-Za-z0-9_]+/g) ?? []).map((p) => values[p]).filter((v) => v !== undefined);
  const clauses = expression.split(/\b(SET|ADD|REMOVE|DELETE)\b/i).slice(1);
  for (let i = 0; i < clauses.length; i += 2) {
    const kind = clauses[i].toUpperCase();
    for (const action of splitTopLevel(clauses[i + 1])) {
      if (kind === 'REMOVE') { changed.add(resolve(action)); next.delete(resolve(action)); continue; }
      const [path, expr] = kind === 'SET' ? action.split(/=(.*)/s, 2) : action.trim().split(/\s+(.*)/s, 2);
      const name = resolve(path);
      const vals = placeholders(expr ?? '');
      const existing = next.get(name);
      const sum = vals.reduce((s, v) => s + attributeSize('', v), 0);
      if (kind === 'SET') {
        const plain = /^\s*:[A-Za-z0-9_]+\s*$/.test(expr ?? '');
        if (/if_not_exists/i.test(expr ?? '') && existing !== undefined) continue;
        changed.add(name);
        // A plain or if_not_exists assignment replaces the value; arithmetic and list_append grow it (an upper bound).
        next.set(name, plain || /^\s*if_not_exists/i.test(expr ?? '') ? attributeSize(name, vals[vals.length - 1] ?? {}) : (existing ?? attributeSize(name, {})) + sum);
      } else if (kind === 'ADD') {
        changed.add(name);
        const isSet = vals.some((v) => v.NS || v.SS || v.BS);
        next.set(name, isSet ? (existing ?? attributeSize(name, {})) + sum : attributeSize(name, vals[0] ?? {}));
      } else if (kind === 'DELETE' && existing !== undefined) {
        changed.add(name);
        next.set(name, Math.max(attributeSize(name, {}), existing - sum));
      }
    }
  }
  return next;
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) { parts.push(s.slice(start, i)); start = i + 1; }
  }
  parts.push(s.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}
