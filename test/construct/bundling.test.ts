import * as fs from 'fs';
import * as path from 'path';
import { bundleNode, moduleExports, stageAsset, type ResolvedBundling } from '../../lib/construct/bundling';
import type { NodeIR } from '../../runtime/ir';
import { HANDLERS } from './fixtures/workflows';

const DEFAULTS: ResolvedBundling = { minify: true, sourceMap: false, bundleAwsSdk: false, target: 'node22' };

const PASS_IR: NodeIR = {
  version: 1,
  workflow: 'Flow',
  node: 'Start',
  entry: true,
  handler: { kind: 'pass' },
  instructions: [{ op: 'succeed' }],
  settings: { inlineLimitBytes: 32768, invokeConcurrency: 64, checkpointTtlSeconds: 604800, runRetentionSeconds: 2592000, timeoutSeconds: 30 },
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

  test('source maps are linked and name sources relative to the package root', () => {
    const { files } = bundleNode(HANDLERS, { ...DEFAULTS, sourceMap: true });
    expect(files['index.js']).toMatch(/\/\/# sourceMappingURL=index\.js\.map\s*$/);
    const map = JSON.parse(files['index.js.map']) as { sources: string[] };
    expect(map.sources).toEqual(expect.arrayContaining(['test/construct/fixtures/handlers.ts', 'runtime/handler.ts']));
    for (const source of map.sources) expect(path.isAbsolute(source)).toBe(false);
  });

  test('each distinct entry is bundled once', () => {
    expect(bundleNode(HANDLERS, DEFAULTS)).toBe(bundleNode(HANDLERS, DEFAULTS));
  });

  test('a node without user code bundles the runtime alone and loads its IR', () => {
    // With the SDK bundled, the staged directory runs anywhere (the SDK is not resolvable from the tmp dir).
    const asset = stageAsset(bundleNode(undefined, { ...DEFAULTS, bundleAwsSdk: true }), PASS_IR);
    expect(fs.readdirSync(asset.dir).sort()).toEqual(['index.js', 'unum-ir.json']);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(typeof (require(path.join(asset.dir, 'index.js')) as { handler: unknown }).handler).toBe('function');
  });

  test('staging is content-addressed: same content, same directory and hash', () => {
    const a = stageAsset(bundleNode(HANDLERS, DEFAULTS), PASS_IR);
    const b = stageAsset(bundleNode(HANDLERS, DEFAULTS), { ...PASS_IR });
    const c = stageAsset(bundleNode(HANDLERS, DEFAULTS), { ...PASS_IR, node: 'Other' });
    expect(b).toEqual(a);
    expect(c.hash).not.toBe(a.hash);
    expect(path.basename(a.dir)).toBe(a.hash);
  });

  test('exports are read statically', () => {
    expect(moduleExports(HANDLERS)).toEqual(expect.arrayContaining(['first', 'second', 'third', 'items', 'add']));
  });
});
