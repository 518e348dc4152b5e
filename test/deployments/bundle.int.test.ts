/**
 * The sweeper's bundle as lib/construct/bundling.ts builds a runtime entry
 * (esbuild, CommonJS, the AWS SDK external): it exports `handler`, and
 * loading it needs no IAM client, which the local engine's install lacks.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { compileFunction } from 'node:vm';
import { buildSync } from 'esbuild';

const ROOT = path.join(__dirname, '..', '..');

test('the sweeper bundle loads with the SDK clients of a deploy-only install and exports its handler', () => {
  const result = buildSync({
    entryPoints: [path.join(ROOT, 'runtime', 'deployments', 'handler.ts')],
    absWorkingDir: ROOT,
    outfile: path.join(ROOT, 'index.js'),
    write: false,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['@aws-sdk/*'],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  const required: string[] = [];
  const load = (id: string): unknown => {
    required.push(id);
    if (id === '@aws-sdk/client-iam') throw new Error('Cannot find module @aws-sdk/client-iam');
    return createRequire(__filename)(id);
  };
  const module = { exports: {} as Record<string, unknown> };
  // Run as Node runs a CommonJS file, with a require that has no IAM client.
  compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'])(module.exports, load, module, path.join(ROOT, 'index.js'), ROOT);
  expect(typeof module.exports.handler).toBe('function');
  expect([...new Set(required.filter((id) => id.startsWith('@aws-sdk/')))].sort()).toEqual(['@aws-sdk/client-dynamodb', '@aws-sdk/client-lambda']);
});
