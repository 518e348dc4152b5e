import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runClientCommand } from '../support/cli';
import { cliEmulators } from './support/cli-emulators';
import { createTable, RuntimeWriter, WORKFLOW } from './support/dynamodb';

const emulators = cliEmulators({ 'wf-Entry': (p) => onStart(p as { input: unknown; workflowId: string }) });
let table: string;
let writer: RuntimeWriter;
let onStart: (req: { input: unknown; workflowId: string }) => Promise<void>;

beforeEach(async () => {
  table = await createTable(emulators.dynamo.client);
  writer = new RuntimeWriter(emulators.dynamo.client, table);
  onStart = async (req) => {
    await writer.startRun(req.workflowId);
    await writer.succeed(req.workflowId, { got: req.input });
  };
});

/** Runs `unum <argv>` against the test table; returns exit code and output. */
function unum(argv: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  return runClientCommand([...argv, '--entry-function', 'wf-Entry', '--table', table, '--workflow', WORKFLOW], stdin);
}

test('start --input - --id --wait --json: starts, shows progress, prints the final status', async () => {
  const r = await unum(['start', '--input', '-', '--id', 'cli-1', '--wait', '--json'], '{"n": 3}');
  expect(r.code).toBe(0);
  expect(JSON.parse(r.out)).toMatchObject({ workflowId: 'cli-1', status: 'SUCCEEDED' });
  expect(r.err).toContain('cli-1  SUCCEEDED');
  expect(emulators.lambda.invocations.at(-1)).toMatchObject({ invocationType: 'Event', payload: { workflowId: 'cli-1', input: { n: 3 } } });
  expect(JSON.parse((await unum(['result', 'cli-1', '--json'])).out)).toEqual({ got: { n: 3 } });
});

test('start --input file prints the id; status prints a human table', async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'unum-cli-')), 'in.json');
  fs.writeFileSync(file, '[1,2]');
  const r = await unum(['start', '--input', file]);
  expect(r.out).toMatch(/^started [0-9a-f-]{36}\n$/);
  const id = r.out.trim().split(' ')[1];
  expect((await unum(['wait', id])).code).toBe(0);
  const status = await unum(['status', id]);
  expect(status.out).toMatch(new RegExp(`^run +${id}\nstatus +SUCCEEDED\nstarted +\\S+\nfinished +\\S+\nduration +[0-9.]+ s\n$`));
});

test('a failed run: status exits 1 with node and error; result names the failure', async () => {
  await writer.startRun('bad');
  await writer.fail('bad', { node: 'Charge', error: 'CardDeclined', cause: 'no funds' });
  const status = await unum(['status', 'bad']);
  expect(status.code).toBe(1);
  expect(status.out).toContain('node      Charge\nerror     CardDeclined\ncause     no funds');
  const result = await unum(['result', 'bad']);
  expect([result.code, result.err]).toEqual([1, 'unum: run bad failed at node Charge: CardDeclined (no funds)\n']);
});

test('wait --timeout exits 124 naming the run', async () => {
  await writer.startRun('slow');
  const r = await unum(['wait', 'slow', '--timeout', '0.3']);
  expect(r.code).toBe(124);
  expect(r.err).toContain('unum: run slow did not finish within 300 ms (last status RUNNING)');
});

test('inspect prints history and fan-in progress; --json gives the report', async () => {
  await writer.startRun('m');
  await writer.history('m', {
    node: { S: 'Split' }, inv: { S: 'inv-split' }, iteration: { N: '0' }, indexes: { S: '[]' }, at: { S: '2026-11-22T00:00:00.000Z' },
    outcome: { S: 'committed' }, fanInJoin: { S: 'JoinJoinJoin1' }, fanInSize: { N: '4' },
  });
  await writer.shard('JoinJoinJoin1', 0, 0, 4, [0, 2]);
  const r = await unum(['inspect', 'm']);
  expect(r.out).toContain('history (1 transitions)');
  expect(r.out).toMatch(/origin +join +arrived +expected +done\nSplit +JoinJoinJo… +2 +4 +50%/);
  expect(JSON.parse((await unum(['inspect', 'm', '--json'])).out).fanIns).toEqual([{ join: 'JoinJoinJoin1', origin: 'Split', arrived: 2, expected: 4, complete: false }]);
});

test('usage errors exit 2; bad input and bad ids exit 1 with a message', async () => {
  expect((await unum(['status'])).code).toBe(2);
  expect((await unum(['start', '--id', 'a b'])).err).toMatch(/invalid workflow id 'a b'/);
  expect((await unum(['start', '--input', '-'], '{oops')).err).toMatch(/input \(stdin\) is not JSON/);
  const help = await unum(['status', '--help']);
  expect([help.code, help.out.startsWith('usage:')]).toEqual([0, true]);
});
