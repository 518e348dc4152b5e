import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import { UnumWorkflow } from '../../lib/construct';
import { execFileSync } from 'child_process';
import { assetFiles, bundleNode, functionNodeOptions, moduleExports, resolveBundling } from '../../lib/construct/bundling';
import { Definition, Task } from '../../lib/definition';
import { noWorkflowError } from '../../lib/assembly';
import { readCloudAssembly } from '../../lib/local/assembly';
import type { NodeIR } from '../../runtime/contract/ir';
import { chain, HANDLERS } from './fixtures/workflows';

const DEFAULTS = resolveBundling();

const PASS_IR: NodeIR = {
  version: 2,
  workflow: 'Flow',
  node: 'Start',
  entry: true,
  handler: { kind: 'pass' },
  instructions: [{ op: 'succeed' }],
  settings: { inlineLimitBytes: 32768, invokeConcurrency: 64, checkpointTtlSeconds: 604800, runRetentionSeconds: 2592000, timeoutSeconds: 30, handoffSeconds: 21630 },
  deployment: 'd0123456789abcdef0123',
  functionNames: {},
};

describe('bundling', () => {
  test('the AWS SDK stays external unless bundleAwsSdk', () => {
    const external = bundleNode(HANDLERS, DEFAULTS).files['index.js'];
    expect(external).toMatch(/require\("@aws-sdk\/client-dynamodb"\)/);
    const bundled = bundleNode(HANDLERS, { ...DEFAULTS, bundleAwsSdk: true }).files['index.js'];
    expect(bundled).not.toMatch(/require\("@aws-sdk\/client-dynamodb"\)/);
    expect(bundled.length).toBeGreaterThan(external.length * 5);
  });

  test('defaults: minified, a source map, the SDK external, node22; Node told to use the map', () => {
    expect(DEFAULTS).toEqual({ minify: true, sourceMap: true, bundleAwsSdk: false, target: 'node22' });
    expect(functionNodeOptions(DEFAULTS)).toBe('--enable-source-maps');
    expect(functionNodeOptions(resolveBundling({ sourceMap: false }))).toBeUndefined();
  });

  test('source maps are linked, without the sources\' text, and name sources relative to the package root', () => {
    const { files } = bundleNode(HANDLERS, DEFAULTS);
    expect(files['index.js']).toMatch(/\/\/# sourceMappingURL=index\.js\.map\s*$/);
    const map = JSON.parse(files['index.js.map']) as { sources: string[]; sourcesContent?: unknown };
    expect(map.sources).toEqual(expect.arrayContaining(['test/construct/fixtures/handlers.ts', 'runtime/entry/handler.ts']));
    for (const source of map.sources) expect(path.isAbsolute(source)).toBe(false);
    expect(map.sourcesContent).toBeUndefined();
    const off = bundleNode(HANDLERS, resolveBundling({ sourceMap: false })).files;
    expect(Object.keys(off)).toEqual(['index.js']);
    expect(off['index.js']).not.toMatch(/sourceMappingURL/);
  });

  test('each distinct entry is bundled once', () => {
    expect(bundleNode(HANDLERS, DEFAULTS)).toBe(bundleNode(HANDLERS, DEFAULTS));
  });

  test('a node without user code bundles the runtime alone and loads its IR', () => {
    const { files } = assetFiles(bundleNode(undefined, { ...DEFAULTS, bundleAwsSdk: true }), PASS_IR);
    expect(Object.keys(files).sort()).toEqual(['index.js', 'index.js.map', 'unum-ir.json']);
    // With the SDK bundled, the files run anywhere (the SDK is not resolvable from a tmp dir).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-asset-'));
    try {
      for (const [name, contents] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), contents);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      expect(typeof (require(path.join(dir, 'index.js')) as { handler: unknown }).handler).toBe('function');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the asset digest is a function of the content only', () => {
    const a = assetFiles(bundleNode(HANDLERS, DEFAULTS), PASS_IR);
    const b = assetFiles(bundleNode(HANDLERS, DEFAULTS), { ...PASS_IR });
    const c = assetFiles(bundleNode(HANDLERS, DEFAULTS), { ...PASS_IR, node: 'Other' });
    expect(b).toEqual(a);
    expect(c.digest).not.toBe(a.digest);
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  test('with the function\'s NODE_OPTIONS, an error\'s stack names the TypeScript sources, not index.js', () => {
    // An IR of a version the runtime refuses: createHandler throws while the bundle loads.
    const { files } = assetFiles(bundleNode(undefined, { ...DEFAULTS, bundleAwsSdk: true }), { ...PASS_IR, version: 3 as 2 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-asset-'));
    try {
      for (const [name, contents] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), contents);
      const stackOf = (nodeOptions: string): string => execFileSync(process.execPath, ['-e', 'try { require(process.argv[1]); } catch (e) { process.stdout.write(e.stack); }', path.join(dir, 'index.js')], {
        env: { ...process.env, NODE_OPTIONS: nodeOptions },
        encoding: 'utf8',
      });
      expect(stackOf(functionNodeOptions(DEFAULTS) as string)).toMatch(/at createHandler \(.*runtime\/entry\/handler\.ts:\d+:\d+\)/);
      expect(stackOf('')).toMatch(/index\.js:\d+:\d+/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('exports are read statically', () => {
    expect(moduleExports(HANDLERS)).toEqual({ commonJs: false, names: ['add', 'first', 'items', 'second', 'third'] });
  });
});

type Resource = { Type: string; Properties: { Code?: { S3Key?: string } }; Metadata?: Record<string, unknown> };

/** Each function of `stackName` with its asset hash and the staged path CDK recorded (as the CLI synthesizes). */
function functionAssets(app: App, stackName: string): Array<{ hash: string; dir: string }> {
  const assembly = app.synth();
  const artifact = assembly.getStackByName(stackName);
  return Object.values((artifact.template as { Resources: Record<string, Resource> }).Resources)
    .filter((r) => r.Type === 'AWS::Lambda::Function')
    .map((r) => ({
      hash: String(r.Properties.Code?.S3Key).replace(/\.zip$/, ''),
      dir: path.resolve(assembly.directory, String(r.Metadata?.['aws:asset:path'])),
    }));
}

/** `aws:asset:path` metadata is what the CLI asks for, and what the local engine reads. */
const ASSET_METADATA = { 'aws:cdk:enable-asset-metadata': true };

describe('assets in the cloud assembly', () => {
  const outdirs: string[] = [];
  const newApp = (context: Record<string, unknown> = {}): App => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-assembly-'));
    outdirs.push(outdir);
    return new App({ outdir, context: { ...ASSET_METADATA, ...context } });
  };
  afterAll(() => {
    for (const dir of outdirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('carry aws:asset:path without the CLI (node app.js), unless the app turned asset metadata off', () => {
    const plain = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'unum-assembly-')) });
    outdirs.push(plain.outdir);
    new UnumWorkflow(new Stack(plain, 'Test'), 'Flow', { definition: chain() });
    for (const { hash, dir } of functionAssets(plain, 'Test')) expect(dir).toBe(path.join(plain.outdir, `asset.${hash}`));
    const off = newApp({ 'aws:cdk:enable-asset-metadata': false });
    new UnumWorkflow(new Stack(off, 'Test'), 'Flow', { definition: chain() });
    const template = off.synth().getStackByName('Test').template as { Resources: Record<string, Resource> };
    expect(Object.values(template.Resources).filter((r) => r.Metadata?.['aws:asset:path'] !== undefined)).toEqual([]);
  });

  test('are written by CDK straight into the assembly, as asset.<hash>', () => {
    const app = newApp();
    new UnumWorkflow(new Stack(app, 'Test'), 'Flow', { definition: chain() });
    const assets = functionAssets(app, 'Test');
    expect(assets).toHaveLength(6); // A, B, C, the failure recorder, the run-control function and the sweeper
    for (const { hash, dir } of assets) {
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(dir).toBe(path.join(app.outdir, `asset.${hash}`));
      expect(fs.readdirSync(dir)).toContain('index.js');
    }
    // The three nodes carry their IR; the recorder, the run-control function and the sweeper have none.
    expect(assets.filter(({ dir }) => fs.existsSync(path.join(dir, 'unum-ir.json')))).toHaveLength(3);
  });

  test('a stack excluded from bundling (aws:cdk:bundling-stacks) runs no esbuild and stages nothing', () => {
    // Fails the export check (esbuild) when bundled; must not even be read in an excluded stack.
    const broken = path.join(newApp().outdir, 'broken.ts');
    fs.writeFileSync(broken, 'export const first = (;\n');
    const definition = (): Definition => Definition.from(new Task('A', { entry: broken, handler: 'first' }));
    expect(() => new UnumWorkflow(new Stack(newApp(), 'Test'), 'Flow', { definition: definition() })).toThrow(
      /node 'A': cannot read exports of .*broken\.ts: .*broken\.ts:1:\d+: /,
    );

    const app = newApp({ 'aws:cdk:bundling-stacks': ['Other'] });
    new UnumWorkflow(new Stack(app, 'Test'), 'Flow', { definition: definition() });
    new UnumWorkflow(new Stack(app, 'Other'), 'Flow', { definition: chain() });
    const skipped = functionAssets(app, 'Test');
    expect(skipped).toHaveLength(4); // A, the failure recorder, the run-control function and the sweeper
    for (const { hash, dir } of skipped) {
      // CDK points a skipped asset at its (small, never copied) source directory.
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(path.relative(app.outdir, dir).startsWith('..')).toBe(true);
    }
    // Only the bundled stack's assets are in the assembly.
    const bundled = functionAssets(app, 'Other');
    const staged = fs.readdirSync(app.outdir).filter((name) => name.startsWith('asset.'));
    expect(staged.sort()).toEqual(bundled.map(({ hash }) => `asset.${hash}`).sort());
    // The local tools read workflows from the assets: they name the stack that has none rather than miss it silently.
    const local = readCloudAssembly(app.outdir);
    expect(local.unbundledStacks).toEqual(['Test']);
    expect(noWorkflowError(local, 'Nope')).toMatch(/^no workflow 'Nope' in .* \(have: Flow\); stack\(s\) Test were synthesized without their assets/);
  });
});
