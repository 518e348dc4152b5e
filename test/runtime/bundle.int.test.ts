/**
 * The runtime as the construct ships it: an esbuild bundle (SDK external)
 * with unum-ir.json beside it, default clients reaching DynamoDB Local and a
 * Lambda Invoke endpoint through AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL_LAMBDA.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { startTestDb, type TestDb } from '../support/dynamodb';
import { defineWorkflow, seq, succeed } from '../support/harness';
import { TEST_ENVELOPE_KEY, writeTestEnvelopeKey } from '../support/envelope-key';
import { macVerifies } from '../../runtime/contract/envelope-mac';

let db: TestDb;
let server: Server;
const invokes: { path: string; type?: string; body: string }[] = [];

beforeAll(async () => {
  db = await startTestDb();
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      invokes.push({ path: req.url ?? '', type: req.headers['x-amz-invocation-type'] as string | undefined, body });
      res.statusCode = 202;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await db?.stop();
});

test('a bundled function loads its IR beside the bundle, checkpoints and invokes through endpoint settings', async () => {
  const { name } = await db.table();
  const dir = mkdtempSync(join(tmpdir(), 'unum-bundle-'));
  writeFileSync(join(dir, 'user.ts'), 'export async function handler(x: { n: number }) { return { n: x.n + 1 }; }\n');
  const nodes = defineWorkflow('bundled', { A: { fn: () => 0, instructions: [seq('B')] }, B: { instructions: [succeed] } });
  buildSync({
    stdin: {
      contents: `import * as user from ${JSON.stringify(join(dir, 'user.ts'))};\nimport { createHandler } from ${JSON.stringify(resolve(__dirname, '../../runtime/entry/handler'))};\nexport const handler = createHandler(user);\n`,
      resolveDir: dir,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    external: ['@aws-sdk/*'],
    outfile: join(dir, 'out', 'index.js'),
    nodePaths: [resolve(__dirname, '../../node_modules')],
    logLevel: 'silent',
  });
  writeFileSync(join(dir, 'out', 'unum-ir.json'), JSON.stringify(nodes.A.ir));
  // The envelope key, which a deployment resource creates: the function reads it from its table.
  await writeTestEnvelopeKey(db.client, name, 'bundled');
  const address = server.address() as { port: number };
  // A child process with the SDK on NODE_PATH, as the Lambda Node.js runtime provides it.
  const script = `require(${JSON.stringify(join(dir, 'out', 'index.js'))}).handler({ workflowId: 'b1', input: { n: 1 } }, { awsRequestId: 'r1', getRemainingTimeInMillis: () => 30000 }).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); })`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_PATH: resolve(__dirname, '../../node_modules'),
    UNUM_TABLE: name,
    AWS_ENDPOINT_URL_DYNAMODB: db.endpoint,
    AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${address.port}`,
  };
  delete env.UNUM_IR_FILE;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { env });
  expect(stdout).toMatch(/"outcome":"committed"/);
  expect(invokes).toHaveLength(1);
  expect(invokes[0].path).toBe('/2015-03-31/functions/fn-B/invocations');
  expect(invokes[0].type).toBe('Event');
  const sent = JSON.parse(invokes[0].body) as { unum: Record<string, unknown>; mac: string };
  expect(sent.unum).toMatchObject({ node: 'B', inputs: [{ value: { n: 2 } }] });
  // Sealed with the key read from the table, and verified after Lambda's JSON round trip.
  expect(macVerifies(TEST_ENVELOPE_KEY, sent.unum, sent.mac)).toBe(true);
  expect((await db.run(name, 'b1'))?.status?.S).toBe('RUNNING');
});
