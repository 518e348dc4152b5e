/**
 * Figure 6: the runtime's minified size without the AWS SDK (esbuild of
 * runtime/entry/handler.ts as the construct bundles it), and the cold
 * initialisation of a function bundle built exactly as the construct builds it
 * (lib/construct/bundling.ts `bundleNode`: user module + runtime, minified, SDK
 * external), in a fresh `node` process: require of the bundle, which loads the
 * SDK clients it imports and runs `createHandler` (reads unum-ir.json).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';
import { compileWorkflow } from '../lib/compiler';
import { bundleNode } from '../lib/construct/bundling';
import { Definition, Task } from '../lib/definition';
import { IR_FILE_NAME } from '../runtime/contract/ir';
import { NODE_BUNDLE } from './node-bundle';
import { fmt, fmtBytes, fmtMs, median, percentile } from './stats';
import type { BenchContext, FigureOutput } from './types';

const PROBE = `
const { performance } = require('perf_hooks');
const t0 = performance.now();
const m = require(process.argv[1]);
const t1 = performance.now();
if (typeof m.handler !== 'function') throw new Error('the bundle exports no handler');
process.stdout.write(JSON.stringify({ initMs: t1 - t0, readyMs: t1 }));
`;

export async function run(ctx: BenchContext): Promise<FigureOutput> {
  const handlerEntry = path.join(ctx.root, 'runtime', 'entry', 'handler.ts');
  const runtimeOnly = buildSync({
    ...NODE_BUNDLE,
    entryPoints: [handlerEntry],
    legalComments: 'none',
    write: false,
    outfile: path.join(ctx.scratch, 'runtime.js'),
  }).outputFiles[0].contents;

  // A function bundle as the construct builds it, with a real node IR beside it.
  const entry = path.join(ctx.root, 'bench', 'fixtures', 'chain-handlers.ts');
  const a = new Task('S0', { entry, handler: 'step' });
  a.next(new Task('S1', { entry, handler: 'step' }));
  const compiled = compileWorkflow('Bundle', Definition.from(a));
  const ir = { ...compiled.nodes.S0.ir, functionNames: { S1: 'UnumBench-Bundle-S1' } };
  const bundle = bundleNode(entry, { minify: true, sourceMap: false, bundleAwsSdk: false, target: 'node22' });
  const dir = path.join(ctx.scratch, 'function-bundle');
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(bundle.files)) fs.writeFileSync(path.join(dir, name), text);
  fs.writeFileSync(path.join(dir, IR_FILE_NAME), JSON.stringify(ir));
  const indexJs = Buffer.from(bundle.files['index.js'] ?? '');

  const env = {
    ...process.env,
    NODE_PATH: path.join(ctx.root, 'node_modules'),
    UNUM_TABLE: 'bench-table',
    AWS_REGION: 'us-east-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  const probe = (): { initMs: number; readyMs: number } =>
    JSON.parse(execFileSync(process.execPath, ['-e', PROBE, path.join(dir, 'index.js')], { env, encoding: 'utf8' })) as { initMs: number; readyMs: number };
  probe(); // warm the file cache: every measured run reads the same files
  const n = 20;
  const init: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = probe();
    init.push(r.initMs);
    ready.push(r.readyMs);
  }
  ctx.log(`runtime ${runtimeOnly.length} B; cold init median ${fmtMs(median(init))}`);
  return {
    tables: [
      {
        caption: 'Size (esbuild, minified, `@aws-sdk/*` external, target node22)',
        headers: ['Artifact', 'Bytes', 'Size', 'gzip'],
        rows: [
          ['runtime/entry/handler.ts alone', fmt(runtimeOnly.length, 0), fmtBytes(runtimeOnly.length), fmtBytes(gzipSync(runtimeOnly).length)],
          ['function bundle (runtime + bench step handler), as deployed', fmt(indexJs.length, 0), fmtBytes(indexJs.length), fmtBytes(gzipSync(indexJs).length)],
        ],
      },
      {
        caption: `Cold initialisation of the function bundle in a fresh node process (${n} processes)`,
        headers: ['Measure', 'Median', 'p90', 'Min', 'Max'],
        rows: [
          ['require(bundle) + createHandler (loads the SDK clients, reads unum-ir.json)', fmtMs(median(init)), fmtMs(percentile(init, 90)), fmtMs(Math.min(...init)), fmtMs(Math.max(...init))],
          ['process start to handler ready (incl. Node.js bootstrap)', fmtMs(median(ready)), fmtMs(percentile(ready, 90)), fmtMs(Math.min(...ready)), fmtMs(Math.max(...ready))],
        ],
      },
    ],
    method: [
      'The function bundle is `bundleNode` of lib/construct/bundling.ts with the construct\'s defaults (minify, no source map, SDK external, node22): the same bytes a deployed node gets.',
      `Each probe is a new \`${process.execPath} -e\` process (Node.js ${process.version}; Lambda runs Node.js 22) with NODE_PATH at the repository's node_modules, where the SDK resolves as it does from the Lambda runtime; one unmeasured probe first warms the file cache.`,
    ],
  };
}
