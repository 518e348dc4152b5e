/**
 * The emulator's on-failure destination records (issue 35): any event Lambda
 * accepted reaches the destination, however deeply it nests, without
 * taking the engine down; and, as Lambda does, a record whose event and
 * error together exceed 256 KB carries neither.
 */
import * as path from 'path';
import { readCloudAssembly, type LocalFunction } from '../../lib/local/assembly';
import { LambdaEmulator } from '../../lib/local/emulator';
import type { ExecutionOutcome, FunctionRunner } from '../../lib/local/function-runner';

const app = readCloudAssembly(path.join(__dirname, 'fixtures', 'emulator-app'));
/** Fails every execution (retried once), its failure record sent to the fixture's dead-letter queue. */
const lost = app.functions.get('emu-lost') as LocalFunction;

function failingEmulator(errorMessage: string): { emulator: LambdaEmulator; records: string[] } {
  const records: string[] = [];
  const failure: ExecutionOutcome = { kind: 'error', error: { errorType: 'Error', errorMessage, trace: [] } };
  const runner = { execute: async () => failure } as unknown as FunctionRunner;
  const emulator = new LambdaEmulator(app.functions, runner, { timeScale: 0.00001, sendToQueue: (_queue, body) => records.push(body) });
  return { emulator, records };
}

/** Levels of a value `[[[...'bottom'...]]]`, counted without recursion. */
function levels(v: unknown): number {
  let n = 0;
  for (let x = v; Array.isArray(x); x = x[0] as unknown) n++;
  return n;
}

test('an event nested 10,000 levels deep reaches the destination record whole, and the engine lives on', async () => {
  const { emulator, records } = failingEmulator('failed');
  const deep = `${'['.repeat(10_000)}"bottom"${']'.repeat(10_000)}`;
  emulator.accept(lost, deep);
  await emulator.pending.idle();
  expect(records).toHaveLength(1);
  const record = JSON.parse(records[0] as string) as { requestPayload: unknown; responsePayload: unknown; requestContext: { condition: string } };
  expect(levels(record.requestPayload)).toBe(10_000);
  expect(record).toMatchObject({ requestContext: { condition: 'RetriesExhausted' }, responsePayload: { errorType: 'Error', errorMessage: 'failed' } });
});

test.each([
  ['an event', 'x'.repeat(200 * 1024), 'e'.repeat(60 * 1024)],
  ['an error', '{"small":true}', 'e'.repeat(300 * 1024)],
])('over 256 KB with %s that large, the record carries neither payload, as Lambda\'s', async (_, payload, errorMessage) => {
  const { emulator, records } = failingEmulator(errorMessage);
  const requestId = emulator.accept(lost, JSON.stringify(payload));
  await emulator.pending.idle();
  const record = JSON.parse(records[0] as string) as Record<string, unknown>;
  expect(record).not.toHaveProperty('requestPayload');
  expect(record).not.toHaveProperty('responsePayload');
  expect(record).toMatchObject({ requestContext: { requestId, condition: 'RetriesExhausted', approximateInvokeCount: 2 } });
});

test('just under 256 KB, the record keeps both', async () => {
  const { emulator, records } = failingEmulator('e'.repeat(50 * 1024));
  emulator.accept(lost, JSON.stringify('x'.repeat(200 * 1024)));
  await emulator.pending.idle();
  expect(JSON.parse(records[0] as string)).toMatchObject({ requestPayload: 'x'.repeat(200 * 1024), responsePayload: { errorMessage: 'e'.repeat(50 * 1024) } });
});
