/**
 * Counts every DynamoDB call a client makes, with its request and response
 * (a middleware on the SDK client), and prices them by AWS's published
 * capacity rules (lib/cost/capacity.ts: writes per started 1 KB of the larger
 * of the item before and after, transactions doubled, strongly consistent
 * reads per started 4 KB, eventually consistent half). DynamoDB Local's own
 * `ConsumedCapacity` is kept beside for comparison only: it under-reports
 * transactions (TOOLCHAIN.md).
 */
import { performance } from 'node:perf_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CapacityMeter, type DynamoCall } from '../lib/cost/capacity';
import { itemSize, type WireItem } from '../lib/cost/item-size';

export interface ObservedCall extends DynamoCall {
  /** Order in which the call was issued (shared with other events through `CallLog.next`). */
  readonly seq: number;
  /** The sequence number taken when its answer came: a call issued before another's `doneSeq` overlapped it. */
  readonly doneSeq: number;
  readonly ms: number;
  /** Capacity DynamoDB Local reported (ReturnConsumedCapacity TOTAL). */
  readonly reported: number;
}

const DATA_PLANE = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchGetItem', 'BatchWriteItem', 'TransactWriteItems', 'TransactGetItems', 'Query', 'Scan']);

export class CallLog {
  readonly calls: ObservedCall[] = [];
  private seq = 0;
  /**
   * With `sink`, calls go to it as they complete and are not kept (large runs:
   * price each call at once instead of holding every response in memory).
   */
  constructor(private readonly sink?: (call: ObservedCall) => void) {}

  /** The next sequence number (for events that are not DynamoDB calls, e.g. an invoke). */
  next(): number {
    return this.seq++;
  }

  add(call: ObservedCall): void {
    if (this.sink) this.sink(call);
    else this.calls.push(call);
  }

  clear(): void {
    this.calls.length = 0;
  }

  /** Calls issued from index `from` on. */
  since(from: number): ObservedCall[] {
    return this.calls.slice(from);
  }
}

function reportedUnits(output: Record<string, unknown> | undefined): number {
  const c = output?.ConsumedCapacity as { CapacityUnits?: number } | { CapacityUnits?: number }[] | undefined;
  if (!c) return 0;
  return (Array.isArray(c) ? c : [c]).reduce((s, x) => s + (x.CapacityUnits ?? 0), 0);
}

/**
 * Round trips in a row among `calls`: the longest chain of calls each issued
 * after the one before it was answered (calls in flight together count once).
 */
export function roundTripsInRow(calls: readonly ObservedCall[]): number {
  const depth = new Map<ObservedCall, number>();
  for (const c of [...calls].sort((a, b) => a.seq - b.seq)) {
    depth.set(c, 1 + Math.max(0, ...calls.filter((p) => p.doneSeq < c.seq).map((p) => depth.get(p) ?? 0)));
  }
  return Math.max(0, ...depth.values());
}

/** Records every call `client` sends into `log`. */
export function instrument(client: DynamoDBClient, log: CallLog): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String((context as { commandName?: string }).commandName ?? 'Unknown').replace(/Command$/, '');
      const input = args.input as Record<string, unknown>;
      if (DATA_PLANE.has(operation) && input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'TOTAL';
      const seq = log.next();
      const t0 = performance.now();
      try {
        const r = await next(args);
        const output = r.output as unknown as Record<string, unknown>;
        log.add({ operation, seq, doneSeq: log.next(), ms: performance.now() - t0, ok: true, request: input, response: output, reported: reportedUnits(output) });
        return r;
      } catch (e) {
        const err = e as Error & { Item?: WireItem };
        const response: Record<string, unknown> = { __type: err.name, message: err.message, ...(err.Item ? { Item: err.Item } : {}) };
        log.add({ operation, seq, doneSeq: log.next(), ms: performance.now() - t0, ok: false, request: input, response, reported: 0 });
        throw e;
      }
    },
    { step: 'initialize', name: 'unumBenchCallLog', override: true },
  );
}

export interface Priced {
  calls: number;
  writeUnits: number;
  readUnits: number;
  /** What DynamoDB Local itself reported (for comparison only). */
  reported: number;
  readonly byOperation: Record<string, { calls: number; writeUnits: number; readUnits: number }>;
}

export const emptyPriced = (): Priced => ({ calls: 0, writeUnits: 0, readUnits: 0, reported: 0, byOperation: {} });

/**
 * Prices calls in issue (or completion) order with one meter: the item size
 * before a write comes from replaying the earlier calls on the same item.
 */
export class Pricer {
  readonly meter = new CapacityMeter();

  /** Prices one call and adds it to `into`; returns its units. */
  add(c: ObservedCall, into: Priced = emptyPriced()): { writeUnits: number; readUnits: number } {
    const w0 = this.meter.totals.writeUnits;
    const r0 = this.meter.totals.readUnits;
    this.meter.record(c);
    const writeUnits = this.meter.totals.writeUnits - w0;
    const readUnits = this.meter.totals.readUnits - r0;
    const o = (into.byOperation[c.operation] ??= { calls: 0, writeUnits: 0, readUnits: 0 });
    o.calls++;
    o.writeUnits += writeUnits;
    o.readUnits += readUnits;
    into.calls++;
    into.writeUnits += writeUnits;
    into.readUnits += readUnits;
    into.reported += c.reported;
    return { writeUnits, readUnits };
  }

  /** Prices `calls` in order and returns their totals. */
  price(calls: readonly ObservedCall[]): Priced {
    const out = emptyPriced();
    for (const c of calls) this.add(c, out);
    return out;
  }
}

/** Size (AWS's rules) of the largest item a call returned (ALL_NEW attributes, ALL_OLD, GetItem, BatchGetItem). */
export function largestReturnedItem(calls: readonly ObservedCall[]): number {
  return calls.reduce((max, c) => Math.max(max, returnedItemSize(c)), 0);
}

/** Size of the largest item one call returned. */
export function returnedItemSize(c: ObservedCall): number {
  const res = c.response ?? {};
  const items: WireItem[] = [];
  if (res.Attributes) items.push(res.Attributes as WireItem);
  if (res.Item) items.push(res.Item as WireItem);
  for (const list of Object.values((res.Responses ?? {}) as Record<string, WireItem[]>)) items.push(...list);
  return items.reduce((max, item) => Math.max(max, itemSize(item)), 0);
}

export { itemSize };
