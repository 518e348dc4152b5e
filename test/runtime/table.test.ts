/**
 * The table layout (runtime/contract/table/): what the writers encode, the readers
 * decode to the same record, and keys parse back into their parts. And the
 * lint rule that keeps the layout in that one module.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import fc from 'fast-check';
import { ERROR_BOUNDS, truncated } from '../../runtime/contract/errors';
import {
  checkpointKey,
  checkpointPut,
  decodeCheckpoint,
  decodeHistoryEntry,
  decodeRunRecord,
  HISTORY_RETRIED_KEPT,
  historyEntryPut,
  historyItem,
  historyKey,
  type Item,
  isCheckpointKey,
  keyOf,
  parseKey,
  runKey,
  runFinish,
  runRejection,
  runStart,
  shardKey,
  ttlOf,
} from '../../runtime/contract/table';

const name = fc.stringMatching(/^[A-Za-z0-9_-]{43}$/);
const run = fc.record({ workflow: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), workflowId: fc.stringMatching(/^[A-Za-z0-9_.:-]{1,128}$/) });

test('every key parses back into the parts it was built from (property)', () => {
  fc.assert(
    fc.property(name, run, fc.nat(20), fc.nat(10_000), fc.nat(1_000_000), (inv, r, level, shard, seq) => {
      expect(parseKey(checkpointKey(inv))).toEqual({ kind: 'checkpoint', invocation: inv });
      expect(parseKey(shardKey(inv, level, shard))).toEqual({ kind: 'shard', join: inv, level, shard });
      expect(parseKey(runKey(r))).toEqual({ kind: 'run', ...r });
      expect(parseKey(historyKey(r))).toEqual({ kind: 'history', ...r });
      expect(parseKey(historyKey(r, seq))).toEqual({ kind: 'history', ...r, seq });
      expect(isCheckpointKey(checkpointKey(inv))).toBe(true);
      expect(isCheckpointKey(checkpointKey(inv.slice(1)))).toBe(false);
      expect(isCheckpointKey(runKey(r))).toBe(false);
    }),
  );
  expect(parseKey('other')).toBeUndefined();
  expect(parseKey('x#y')).toBeUndefined();
  // A run key of no workflow (the layout before keys carried it) names no run.
  expect(parseKey('run#id')).toBeUndefined();
});

test('a checkpoint decodes to the value and catch index it was put with; an item without a value to none', () => {
  fc.assert(
    fc.property(name, fc.json(), fc.option(fc.nat(9), { nil: undefined }), fc.nat(), (inv, json, catchIndex, ttl) => {
      const { Item } = checkpointPut(checkpointKey(inv), json, catchIndex, ttl);
      expect(keyOf(Item)).toBe(checkpointKey(inv));
      expect(ttlOf(Item)).toBe(ttl);
      expect(decodeCheckpoint(Item)).toEqual({ json, ...(catchIndex === undefined ? {} : { catchIndex }), ttl });
      expect(decodeCheckpoint({ pk: Item.pk, ttl: Item.ttl })).toBeUndefined();
    }),
  );
  expect(decodeCheckpoint(undefined)).toBeUndefined();
});

test('the entry\'s RUNNING record decodes; a status the layout does not have is an error naming the record', () => {
  const { Item } = runStart({ workflow: 'W', workflowId: 'w-1' }, '2026-11-22T00:00:00.000Z', 99);
  expect(decodeRunRecord(Item)).toEqual({ status: 'RUNNING', startedAt: '2026-11-22T00:00:00.000Z' });
  expect(() => decodeRunRecord({ ...Item, status: { S: 'PAUSED' } })).toThrow("run record run#W#w-1 has an unknown status 'PAUSED'");
});

test('a rejected start request\'s record is FAILED with its error, written only where no record is', () => {
  const error = { node: 'A', error: 'UnumEventError', cause: 'malformed start request: input is missing' };
  const request = runRejection({ workflow: 'W', workflowId: 'w-1' }, error, '2026-11-22T00:00:00.000Z', 99);
  expect(request.ConditionExpression).toBe('attribute_not_exists(#pk)');
  expect(ttlOf(request.Item)).toBe(99);
  expect(decodeRunRecord(request.Item)).toEqual({ status: 'FAILED', startedAt: '2026-11-22T00:00:00.000Z', finishedAt: '2026-11-22T00:00:00.000Z', error });
});

test('a history entry decodes to what the runtime logged (property)', () => {
  const transition = fc.record(
    {
      next: fc.array(name, { maxLength: 3 }),
      fanIn: fc.record({ join: name, size: fc.nat(1000) }),
      error: fc.record({ state: name, error: fc.string(), cause: fc.option(fc.string(), { nil: undefined }) }, { requiredKeys: ['error'] }),
    },
    { requiredKeys: [] },
  );
  // What the execution knows: its state, user-code time, handler attempts with their errors, the fan-in it joined.
  const facts = fc.record(
    {
      state: name,
      durationMs: fc.nat(),
      attempts: fc.integer({ min: 1, max: 30 }),
      attemptErrors: fc.array(name, { maxLength: 30 }),
      joined: name,
    },
    { requiredKeys: [] },
  );
  const outcome = fc.constantFrom('committed' as const, 'caught' as const, 'failed' as const);
  fc.assert(
    fc.property(name, name, fc.nat(5), fc.array(fc.nat(50), { maxLength: 4 }), outcome, transition, facts, fc.nat(100), (node, inv, iteration, indexes, out, t, f, seq) => {
      const item = historyItem(node, inv, iteration, indexes.map((index) => ({ index })), out, { next: t.next, join: t.fanIn?.join, size: t.fanIn?.size, error: t.error }, f);
      const { Item } = historyEntryPut({ workflow: 'W', workflowId: 'w' }, seq, item, 1);
      expect(keyOf(Item)).toBe(historyKey({ workflow: 'W', workflowId: 'w' }, seq));
      const entry = decodeHistoryEntry(seq, Item);
      const attempts = f.attempts ?? 0;
      expect(entry).toEqual({
        seq,
        node,
        state: f.state ?? node,
        invocation: inv,
        iteration,
        indexes,
        at: item.at,
        outcome: out,
        ...(f.durationMs === undefined ? {} : { durationMs: f.durationMs }),
        ...(attempts > 1 ? { attempts, retried: (f.attemptErrors ?? []).slice(0, attempts - 1).slice(-HISTORY_RETRIED_KEPT) } : {}),
        ...(t.next ? { next: t.next } : {}),
        ...(t.fanIn ? { fanIn: t.fanIn } : {}),
        ...(f.joined === undefined ? {} : { joined: f.joined }),
        ...(t.error ? { error: JSON.parse(JSON.stringify(t.error)) } : {}),
      });
    }),
  );
});

test('an entry keeps the last retried errors, each within the name bound', () => {
  const errors = Array.from({ length: 100 }, (_, i) => `E${i}${i === 99 ? 'x'.repeat(1000) : ''}`);
  const item = historyItem('A', 'i', 0, [], 'committed', {}, { attempts: 100, attemptErrors: errors });
  const retried = decodeHistoryEntry(1, historyEntryPut({ workflow: 'W', workflowId: 'w' }, 1, item, 1).Item)?.retried ?? [];
  // The 100th attempt succeeded: 99 were retried, the last HISTORY_RETRIED_KEPT of them are kept.
  expect(retried).toEqual(errors.slice(99 - HISTORY_RETRIED_KEPT, 99));
  const failedLast = historyItem('A', 'i', 0, [], 'failed', {}, { attempts: 3, attemptErrors: ['Busy', 'Busy', 'Fatal'.repeat(100)] });
  expect(JSON.parse(failedLast.retried ?? '[]')).toEqual(['Busy', 'Busy']);
});

test('a run record names the state where the run ended, within the bounds', () => {
  const end = { node: 'Validate', state: 'Declined '.repeat(100), error: 'Payment.Declined', cause: 'card expired' };
  const request = runFinish({ workflow: 'W', workflowId: 'w-1' }, { status: 'FAILED', error: end }, '2026-11-22T00:00:00.000Z', 99);
  const item = { pk: { S: 'run#W#w-1' }, status: { S: 'FAILED' }, error: request.ExpressionAttributeValues?.[':v3'] } as Item;
  expect(decodeRunRecord(item).error).toEqual({ ...end, state: truncated(end.state, ERROR_BOUNDS.name) });
});

describe('only runtime/contract/table/ names the layout (eslint.config.mjs)', () => {
  const root = path.join(__dirname, '..', '..');
  /** Lines of `source`, linted as the file `file`, that break the table rule. */
  function flaggedLines(file: string, source: string): number[] {
    const eslint = path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
    const run = spawnSync(process.execPath, [eslint, '--stdin', '--stdin-filename', file, '--format', 'json'], { cwd: root, input: source, encoding: 'utf8' });
    // Exit status 1 means lint errors were found; anything else but 0 is eslint failing.
    if (run.status !== 0 && run.status !== 1) throw new Error(`eslint exited with ${run.status}: ${run.stderr}`);
    const [result] = JSON.parse(run.stdout) as { messages: { line: number; ruleId: string | null }[] }[];
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.line);
  }
  const probes: [string, boolean][] = [
    ['declare const id: string; declare const item: Record<string, { S?: string; N?: string }>; declare const v: { S?: string };', false],
    ['export const key = { Key: { pk: { S: `run#${id}` } } };', true],
    ['export const ref = item.resultRef?.S;', true],
    ["export const value = item['v']?.S;", true],
    ["export const prefix = 'ckpt#' + id;", true],
    ['export const shards = /fanin#[a-z]+#/;', true],
    ["export const condition = 'attribute_exists(#pk)';", true],
    ['export const update = `SET n = :n`;', true],
    ["export const names = { '#s': 'status' };", true],
    ["export const attribute = 'startedAt';", true],
    ['export const generic = v.S;', false],
    ["export const values = { ':x': { N: '1' } };", false],
    ["export const words = 'running runs#, the run-# and a status';", false],
  ];
  const source = probes.map(([line]) => line).join('\n');
  const expected = probes.flatMap(([, flagged], i) => (flagged ? [i + 1] : []));

  test('in lib/, runtime/, bench/ and test/support/, each way of naming an item or attribute is an error', () => {
    for (const file of ['lib/client/probe.ts', 'runtime/probe.ts', 'bench/probe.ts', 'test/support/probe.ts']) {
      expect([...new Set(flaggedLines(file, source))]).toEqual(expected);
    }
  });

  test('runtime/contract/table/ may', () => {
    expect(flaggedLines('runtime/contract/table/probe.ts', source)).toEqual([]);
  });
});
