/**
 * Smoke test of the benchmark plumbing (not a timed test): the report writer
 * renders tables, verdicts and "not measured" figures, and the capacity
 * arithmetic the figures rely on follows AWS's published on-demand rules.
 */
import { CallLog, type ObservedCall, Pricer, returnedItemSize, roundTripsInRow } from '../../bench/calls';
import { renderReport, renderTable } from '../../bench/report';
import { median } from '../../bench/stats';
import type { FigureResult } from '../../bench/types';

const machine = { cpuModel: 'Test CPU', cores: 2, memoryGb: 4, node: 'v20.0.0', platform: 'linux', date: '2026-01-01T00:00:00.000Z', load: { start: '1.00 / 1.00 / 1.00', end: '2.00 / 1.00 / 1.00' } };

let seq = 0;
const call = (operation: string, request: Record<string, unknown>, response: Record<string, unknown> = {}, ok = true): ObservedCall => {
  seq += 2;
  return { operation, request, response, ok, seq: seq - 2, doneSeq: seq - 1, ms: 1, reported: 0 };
};
const timed = (issued: number, answered: number): ObservedCall => ({ operation: 'GetItem', request: {}, response: {}, ok: true, seq: issued, doneSeq: answered, ms: 1, reported: 0 });

describe('round trips in a row', () => {
  it('counts calls in flight together once, and a call issued after an answer as the next round trip', () => {
    expect(roundTripsInRow([])).toBe(0);
    const first = timed(0, 1);
    // Two calls issued together after the first answer, the second answered first.
    const together = [timed(2, 5), timed(3, 4)];
    expect(roundTripsInRow([first, ...together])).toBe(2);
    // One issued after the later of them was answered; one issued between their answers follows only the earlier.
    expect(roundTripsInRow([first, ...together, timed(6, 7)])).toBe(3);
    expect(roundTripsInRow([...together, timed(4.5, 8)].reverse())).toBe(2);
  });
});
const s = (n: number): { S: string } => ({ S: 'x'.repeat(n) });
const T = 'tbl';

describe('capacity arithmetic (AWS on-demand rules)', () => {
  it('prices writes per started KB of the larger of the item before and after', () => {
    const p = new Pricer();
    // pk "a" = 2 + 1 bytes; v = 1 + n bytes.
    expect(p.price([call('PutItem', { TableName: T, Item: { pk: { S: 'a' }, v: s(500) } })]).writeUnits).toBe(1);
    expect(p.price([call('PutItem', { TableName: T, Item: { pk: { S: 'b' }, v: s(1500) } })]).writeUnits).toBe(2);
    // Shrinking item b to a few bytes still costs its size before the write.
    expect(p.price([call('PutItem', { TableName: T, Item: { pk: { S: 'b' }, t: { N: '1' } } })]).writeUnits).toBe(2);
    // An item of exactly 1,024 bytes is one unit, one more byte is two.
    expect(p.price([call('PutItem', { TableName: T, Item: { pk: { S: 'c' }, v: s(1024 - 4) } })]).writeUnits).toBe(1);
    expect(p.price([call('PutItem', { TableName: T, Item: { pk: { S: 'd' }, v: s(1024 - 3) } })]).writeUnits).toBe(2);
  });

  it('charges a failed condition, and doubles transactions', () => {
    const p = new Pricer();
    const failed = call('PutItem', { TableName: T, Item: { pk: { S: 'a' }, v: s(100) }, ConditionExpression: 'attribute_not_exists(pk)' }, { __type: 'ConditionalCheckFailedException' }, false);
    expect(p.price([failed]).writeUnits).toBe(1);
    const tx = call('TransactWriteItems', { TransactItems: [
      { Put: { TableName: T, Item: { pk: { S: 'x' }, v: s(900) } } },
      { Put: { TableName: T, Item: { pk: { S: 'y' }, v: s(900) } } },
    ] });
    expect(p.price([tx]).writeUnits).toBe(4);
  });

  it('prices strongly consistent reads per 4 KB and eventually consistent reads at half', () => {
    const p = new Pricer();
    p.price([call('PutItem', { TableName: T, Item: { pk: { S: 'big' }, v: s(5000) } })]);
    expect(p.price([call('GetItem', { TableName: T, Key: { pk: { S: 'big' } }, ConsistentRead: true })]).readUnits).toBe(2);
    expect(p.price([call('GetItem', { TableName: T, Key: { pk: { S: 'big' } } })]).readUnits).toBe(1);
    expect(p.price([call('GetItem', { TableName: T, Key: { pk: { S: 'none' } }, ConsistentRead: true })]).readUnits).toBe(1);
  });

  it('prices an ADD to a number set by the item it grows into (ALL_NEW)', () => {
    const p = new Pricer();
    const ns = Array.from({ length: 300 }, (_, i) => String(1_000_001 + 2 * i)); // 7 significant digits: 5 bytes each
    const attrs = { pk: { S: 'set' }, n: { N: '300' }, arrived: { NS: ns } };
    const add = call('UpdateItem', { TableName: T, Key: { pk: { S: 'set' } }, UpdateExpression: 'ADD arrived :x', ExpressionAttributeValues: { ':x': { NS: [ns[0]] } }, ReturnValues: 'ALL_NEW' }, { Attributes: attrs });
    expect(p.price([add]).writeUnits).toBe(2);
    expect(returnedItemSize(add)).toBe(5 + 3 + 7 + 300 * 5);
  });

  it('splits totals by operation and keeps sinks apart from the stored log', () => {
    const seen: ObservedCall[] = [];
    const sunk = new CallLog((c) => seen.push(c));
    sunk.add(call('GetItem', { TableName: T, Key: { pk: { S: 'q' } } }));
    expect(seen).toHaveLength(1);
    expect(sunk.calls).toHaveLength(0);
    const priced = new Pricer().price([
      call('PutItem', { TableName: T, Item: { pk: { S: 'k' }, v: s(10) } }),
      call('GetItem', { TableName: T, Key: { pk: { S: 'k' } }, ConsistentRead: true }),
    ]);
    expect(priced.calls).toBe(2);
    expect(priced.byOperation.PutItem).toEqual({ calls: 1, writeUnits: 1, readUnits: 0 });
    expect(priced.byOperation.GetItem).toEqual({ calls: 1, writeUnits: 0, readUnits: 1 });
  });
});

describe('report writer', () => {
  const measured: FigureResult = {
    id: 'fan-in', number: 2, title: 'Fan-in', status: 'measured', quick: true, measuredAt: '2026-01-01T00:00:00.000Z', seconds: 1.5,
    tables: [{ caption: 'per branch', headers: ['N', 'WU | branch'], rows: [[10, '1.2'], [100, 'a|b']] }],
    targets: [{ name: 'at most 5 WU', met: true, detail: '1.2 WU' }, { name: 'no item over 4 KB', met: false, detail: '5 KB' }],
    method: ['how'],
    notes: ['note'],
  };
  const missing: FigureResult = { id: 'bundle', number: 6, title: 'Bundle', status: 'not measured', reason: 'runtime/entry/handler.ts is missing', quick: false, measuredAt: '2026-01-01T00:00:00.000Z', seconds: 0, tables: [] };

  it('renders markdown tables with escaped cells, quantities right-aligned', () => {
    const md = renderTable({ headers: ['a', 'b', 'c'], rows: [['row', 'x|y', '1,024 ms'], ['r2', '', '$13.92']] });
    expect(md.split('\n')).toEqual(['| a | b | c |', '|---|---|---:|', '| row | x\\|y | 1,024 ms |', '| r2 |  | $13.92 |']);
  });

  it('writes the machine, command, verdicts and not-measured figures', () => {
    const md = renderReport({ machine, command: 'npm run bench -- --quick', figures: [missing, measured], expected: [{ id: 'fan-in', number: 2, title: 'Fan-in' }, { id: 'bundle', number: 6, title: 'Bundle' }, { id: 'cost', number: 8, title: 'Cost' }] });
    expect(md).toContain('Command: `npm run bench -- --quick`');
    expect(md).toContain('Test CPU, 2 cores');
    expect(md).toContain('Node.js v20.0.0');
    expect(md).toContain('| 2. Fan-in | no item over 4 KB | **TARGET MISSED** | 5 KB |');
    expect(md).toContain('- met: at most 5 WU — 1.2 WU');
    expect(md).toContain('**not measured: runtime/entry/handler.ts is missing**');
    expect(md).toContain('- not measured: 8. Cost: not run in this report');
    expect(md).toContain('| 100 | a\\|b |');
    // Figures in issue order, whatever order they ran in.
    expect(md.indexOf('## 2. Fan-in')).toBeLessThan(md.indexOf('## 6. Bundle'));
    expect(md.endsWith('\n')).toBe(true);
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
