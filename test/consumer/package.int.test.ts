/**
 * The package as a user installs it. `npm pack` (prepack builds it), then a
 * new app in a temporary directory outside the repository installs the
 * tarball with only its declared dependencies plus aws-cdk-lib and
 * constructs (offline, from the npm cache: see lockfile.ts). The app is plain
 * JavaScript run by plain Node: it loads every public entry, synthesizes a
 * workflow (`node app.js`), runs it with the installed `unum` bin, in the
 * user's own tests on `unum-cdk/local` (node:test), and on a `unum local
 * start` engine through `unum start` in another process.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtinModules } from 'node:module';
import { promisify } from 'node:util';
import { consumerLock, type PackedManifest } from './lockfile';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const ROOT = path.join(__dirname, '..', '..');
const run = promisify(execFile);
const EXPECTED = { shouted: 'HELLO UNUM WORLD', count: 3 };

let tmp: string;
let appDir: string;
let packed: { files: string[]; manifest: PackedManifest };

/**
 * The environment of the app's commands: this one's, without any endpoint a test before set, and with
 * aws-cdk-lib's template validation on (test/setup-env.js turns it off), so the app synthesizes as a user's does.
 */
function appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { AWS_ENDPOINT_URL_LAMBDA: _l, AWS_ENDPOINT_URL_DYNAMODB: _d, AWS_ENDPOINT_URL_SQS: _s, AWS_ENDPOINT_URL_SCHEDULER: _sc, CDK_VALIDATION: _v, ...env } = process.env;
  return { ...env, ...extra };
}

function inApp(file: string, args: readonly string[], extra: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return run(file, args, { cwd: appDir, env: appEnv(extra), maxBuffer: 64 * 1024 * 1024 });
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-consumer-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: ROOT, env: appEnv(), maxBuffer: 64 * 1024 * 1024 });
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
  const tarball = path.join(tmp, info.filename);
  const manifest = JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as PackedManifest;
  packed = { files: info.files.map((f) => f.path), manifest };

  appDir = path.join(tmp, 'app');
  fs.mkdirSync(appDir);
  for (const f of fs.readdirSync(path.join(__dirname, 'app'))) fs.copyFileSync(path.join(__dirname, 'app', f), path.join(appDir, f));
  const spec = `file:../${info.filename}`;
  const lock = consumerLock(path.join(ROOT, 'package-lock.json'), { file: tarball, spec, manifest }, ['aws-cdk-lib', 'constructs']) as { packages: Record<string, { dependencies: object }> };
  fs.writeFileSync(path.join(appDir, 'package.json'), JSON.stringify({ name: 'consumer-app', private: true, dependencies: lock.packages['']?.dependencies }, null, 2));
  fs.writeFileSync(path.join(appDir, 'package-lock.json'), JSON.stringify(lock, null, 2));
  await inApp('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund']);
});

afterAll(() => {
  if (tmp && !process.env.KEEP_CONSUMER) fs.rmSync(tmp, { recursive: true, force: true });
});

test('the tarball holds the library, the runtime, the CLI, the README and the LICENSE, and nothing else', () => {
  const outside = packed.files.filter((f) => !/^dist\/(lib|runtime)\/.+\.(js|d\.ts)$/.test(f) && !/^dist\/bin\/cli\.(js|d\.ts)$/.test(f));
  expect(outside.sort()).toEqual(['LICENSE', 'README.md', 'bin/unum.js', 'package.json']);
  expect(packed.files).toEqual(expect.arrayContaining(['dist/lib/index.js', 'dist/lib/client/index.js', 'dist/lib/local/index.js', 'dist/runtime/entry/handler.js', 'dist/bin/cli.js']));
  expect(packed.files.filter((f) => /(^|\/)(bench|examples|test|scripts)\/|\/(app|demo|bench|schema)\.(js|d\.ts)$/.test(f))).toEqual([]);
});

test('every module the shipped code requires is a Node built-in or a declared dependency', () => {
  const { dependencies = {}, peerDependencies = {} } = packed.manifest;
  const declared = new Set([...Object.keys(dependencies), ...Object.keys(peerDependencies)]);
  const installed = path.join(appDir, 'node_modules', packed.manifest.name);
  const undeclared = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.js')) {
        for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(/require(?:\.resolve)?\("([^".][^"]*)"/g)) {
          const name = (spec as string).startsWith('@') ? (spec as string).split('/').slice(0, 2).join('/') : (spec as string).split('/')[0] as string;
          if (!declared.has(name) && !builtinModules.includes(name.replace(/^node:/, ''))) undeclared.add(`${name} (${path.relative(installed, file)})`);
        }
      }
    }
  };
  walk(path.join(installed, 'dist'));
  expect([...undeclared]).toEqual([]);
});

test('every public entry loads; internals are not reachable', async () => {
  const script = `
    const entries = ['unum-cdk', 'unum-cdk/client', 'unum-cdk/local'];
    const loaded = Object.fromEntries(entries.map((e) => [e, Object.keys(require(e)).sort()]));
    let deep;
    try { require('unum-cdk/dist/lib/local/engine'); } catch (err) { deep = err.code; }
    console.log(JSON.stringify({ loaded, deep }));`;
  const { stdout } = await inApp(process.execPath, ['-e', script]);
  const { loaded, deep } = JSON.parse(stdout) as { loaded: Record<string, string[]>; deep: string };
  expect(loaded['unum-cdk']).toEqual(expect.arrayContaining(['UnumWorkflow', 'Definition', 'Task', 'compileWorkflow', 'fromAsl', 'UnumError']));
  expect(loaded['unum-cdk/client']).toEqual(expect.arrayContaining(['UnumClient', 'UnumClientError', 'UnumError']));
  expect(loaded['unum-cdk/local']).toEqual(expect.arrayContaining(['LocalEngine', 'startLocalEngine', 'UnumLocalError', 'UnumError']));
  expect(deep).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
});

describe('a plain JavaScript app', () => {
  beforeAll(async () => {
    await inApp(process.execPath, ['app.js'], { CDK_OUTDIR: 'cdk.out' });
  });

  test('synthesizes with node app.js: a cloud assembly with the workflow', () => {
    const metadata = JSON.parse(fs.readFileSync(path.join(appDir, 'cdk.out', 'ConsumerApp.metadata.json'), 'utf8')) as Record<string, { type: string; data?: { workflow?: string } }[]>;
    expect(metadata['/ConsumerApp/Shouter']).toContainEqual(expect.objectContaining({ type: 'unum:workflow', data: expect.objectContaining({ workflow: 'Shouter' }) }));
  });

  test('npx unum local run prints the result', async () => {
    const { stdout, stderr } = await inApp('npx', ['--no-install', 'unum', 'local', 'run', 'Shouter', '--app', 'cdk.out', '--input', 'input.json']);
    expect(JSON.parse(stdout)).toEqual(EXPECTED);
    expect(stderr).toMatch(/Shouter run \S+: SUCCEEDED \(5 executions/);
  });

  test("the user's own tests (node:test) run it on startLocalEngine, also under a fault seed", async () => {
    const { stdout } = await inApp(process.execPath, ['--test', 'shouter.test.js']);
    expect(stdout).toMatch(/^# pass 2$/m);
    expect(stdout).toMatch(/^# fail 0$/m);
  });

  test('unum local start keeps an engine for unum start --wait in another process; SIGINT stops it', async () => {
    // The bin itself, not npx, so that SIGINT reaches it as Ctrl-C would.
    const engine = watch(spawn(path.join(appDir, 'node_modules', '.bin', 'unum'), ['local', 'start', '--app', 'cdk.out'], { cwd: appDir, env: appEnv(), stdio: ['ignore', 'pipe', 'pipe'] }));
    try {
      const banner = await engine.stdoutMatching(/Ctrl-C stops the engine/);
      const environment = Object.fromEntries([...banner.matchAll(/^ {2}export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]])) as Record<string, string>;
      expect(Object.keys(environment).sort()).toEqual(['AWS_ACCESS_KEY_ID', 'AWS_ENDPOINT_URL_DYNAMODB', 'AWS_ENDPOINT_URL_LAMBDA', 'AWS_ENDPOINT_URL_SCHEDULER', 'AWS_ENDPOINT_URL_SQS', 'AWS_REGION', 'AWS_SECRET_ACCESS_KEY']);
      expect(banner).toMatch(/^ {2}Shouter +ConsumerApp-Shouter-Split +\S+$/m);
      const started = await inApp('npx', ['--no-install', 'unum', 'start', '--app', 'cdk.out', '--workflow', 'Shouter', '--input', 'input.json', '--id', 'consumer-1', '--wait', '--json'], environment);
      expect(JSON.parse(started.stdout)).toMatchObject({ workflowId: 'consumer-1', status: 'SUCCEEDED' });
      const result = await inApp('npx', ['--no-install', 'unum', 'result', 'consumer-1', '--app', 'cdk.out', '--workflow', 'Shouter', '--json'], environment);
      expect(JSON.parse(result.stdout)).toEqual(EXPECTED);
    } finally {
      engine.child.kill('SIGINT');
    }
    expect(await engine.exitCode).toBe(0);
    expect(engine.stderr()).toContain('engine stopped');
  });
});

/** A child process with its output collected from the start. */
function watch(child: ChildProcess): { child: ChildProcess; exitCode: Promise<number | null>; stderr: () => string; stdoutMatching: (pattern: RegExp) => Promise<string> } {
  let out = '';
  let err = '';
  const waiting: Array<() => void> = [];
  child.stdout?.on('data', (d: Buffer) => { out += d.toString(); waiting.forEach((w) => w()); });
  child.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
  const exitCode = new Promise<number | null>((resolve) => child.once('close', (code) => { resolve(code); waiting.forEach((w) => w()); }));
  return {
    child,
    exitCode,
    stderr: () => err,
    stdoutMatching: (pattern) => new Promise((resolve, reject) => {
      const check = (): void => {
        if (pattern.test(out)) resolve(out);
        else if (child.exitCode !== null || child.signalCode !== null) reject(new Error(`exited before printing ${pattern}:\n${out}\n${err}`));
      };
      waiting.push(check);
      check();
    }),
  };
}
