/**
 * Figure 6: the runtime's minified size without the AWS SDK (esbuild of
 * runtime/entry/handler.ts as the construct bundles it), and the cold
 * initialisation of a function bundle built exactly as the construct builds it
 * (lib/construct/bundling.ts `bundleNode` with `resolveBundling`'s defaults:
 * user module + runtime, minified, linked source map, SDK external), in a
 * fresh `node` process with the function's NODE_OPTIONS: require of the
 * bundle, which loads the SDK clients it imports and runs `createHandler`
 * (reads unum-ir.json), then the first error stack with the bundle's frames (mapped through
 * the source map when there is one). The same without the source map (`bundling.sourceMap: false`)
 * is measured in the same processes' alternation, so both see the same load.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';
import { compileWorkflow } from '../lib/compiler';
import { bundleNode, functionNodeOptions, resolveBundling } from '../lib/construct/bundling';
import { Definition, Task } from '../lib/definition';
import { IR_FILE_NAME } from '../runtime/contract/ir';
import { NODE_BUNDLE } from './node-bundle';
import { fmt, fmtBytes, fmtMs, median, percentile } from './stats';
import type { BenchContext, Cell, FigureOutput } from './types';

const PROBE = `
const { performance } = require('perf_hooks');
const t0 = performance.now();
const m = require(process.argv[1]);
const t1 = performance.now();
if (typeof m.handler !== 'function') throw new Error('the bundle exports no handler');
// An event whose first inspection throws: the error's stack has the bundle's frames, which the first
// access to .stack formats (through the source map when Node has one).
const bomb = () => { throw new Error('probe'); };
const event = new Proxy({}, { get: bomb, has: bomb, ownKeys: bomb, getOwnPropertyDescriptor: bomb });
m.handler(event, {}).then(() => { throw new Error('the probe event was accepted'); }, (e) => {
  const t2 = performance.now();
  const stack = String(e.stack);
  const t3 = performance.now();
  process.stdout.write(JSON.stringify({ initMs: t1 - t0, readyMs: t1, stackMs: t3 - t2, mapped: /\\.ts:\\d+/.test(stack) }));
});
`;

interface Probe {
  readonly initMs: number;
  readonly readyMs: number;
  readonly stackMs: number;
  readonly mapped: boolean;
}

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
  const deployed = resolveBundling({});
  const variants = [
    { name: 'source map (default)', dir: path.join(ctx.scratch, 'function-bundle'), options: deployed },
    { name: 'no source map (`bundling.sourceMap: false`)', dir: path.join(ctx.scratch, 'function-bundle-nomap'), options: { ...deployed, sourceMap: false } },
    { name: 'with the JSONata engine (a node whose IR has JSONata)', dir: path.join(ctx.scratch, 'function-bundle-jsonata'), options: deployed, jsonata: true },
  ].map((v) => {
    const bundle = bundleNode(entry, v.options, { jsonata: 'jsonata' in v });
    fs.mkdirSync(v.dir, { recursive: true });
    for (const [name, text] of Object.entries(bundle.files)) fs.writeFileSync(path.join(v.dir, name), text);
    fs.writeFileSync(path.join(v.dir, IR_FILE_NAME), JSON.stringify(ir));
    return { ...v, files: bundle.files, init: [] as number[], ready: [] as number[], stack: [] as number[], mapped: false };
  });

  const env = {
    ...process.env,
    NODE_PATH: path.join(ctx.root, 'node_modules'),
    UNUM_TABLE: 'bench-table',
    AWS_REGION: 'us-east-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  // The function's environment as the construct sets it (createFunction: NODE_OPTIONS with the source map).
  const probe = (v: (typeof variants)[number]): Probe =>
    JSON.parse(execFileSync(process.execPath, ['-e', PROBE, path.join(v.dir, 'index.js')], {
      env: { ...env, NODE_OPTIONS: functionNodeOptions(v.options) ?? '' },
      encoding: 'utf8',
    })) as Probe;
  variants.forEach(probe); // warm the file cache: every measured run reads the same files
  const n = 20;
  for (let i = 0; i < n; i++) {
    for (const v of variants) {
      const r = probe(v);
      v.init.push(r.initMs);
      v.ready.push(r.readyMs);
      v.stack.push(r.stackMs);
      v.mapped = r.mapped;
    }
  }
  const [withMap, withoutMap, withJsonata] = variants;
  // Bytes of the files, and the sum of their gzip sizes (about what the function's zip holds).
  const size = (...texts: (string | undefined)[]): string[] => {
    const files = texts.map((t) => Buffer.from(t ?? ''));
    const bytes = files.reduce((n, b) => n + b.length, 0);
    return [fmt(bytes, 0), fmtBytes(bytes), fmtBytes(files.reduce((n, b) => n + gzipSync(b).length, 0))];
  };
  // The difference of two files' sizes and of their gzip sizes.
  const added = (before = '', after = ''): string[] => {
    const bytes = Buffer.byteLength(after) - Buffer.byteLength(before);
    return [fmt(bytes, 0), fmtBytes(bytes), fmtBytes(gzipSync(after).length - gzipSync(before).length)];
  };
  const timing = (label: string, values: number[]): Cell[] => [label, fmtMs(median(values)), fmtMs(percentile(values, 90)), fmtMs(Math.min(...values)), fmtMs(Math.max(...values))];
  ctx.log(`runtime ${runtimeOnly.length} B; cold init median ${fmtMs(median(withMap.init))} with the source map, ${fmtMs(median(withoutMap.init))} without`);
  return {
    tables: [
      {
        caption: 'Size (esbuild, minified, `@aws-sdk/*` external, target node22)',
        headers: ['Artifact', 'Bytes', 'Size', 'gzip'],
        rows: [
          ['runtime/entry/handler.ts alone', fmt(runtimeOnly.length, 0), fmtBytes(runtimeOnly.length), fmtBytes(gzipSync(runtimeOnly).length)],
          ['function bundle index.js (runtime + bench step handler), as deployed', ...size(withMap.files['index.js'])],
          ['its source map index.js.map (mappings and names, no sources)', ...size(withMap.files['index.js.map'])],
          ['index.js without a source map', ...size(withoutMap.files['index.js'])],
          ['index.js + index.js.map, as deployed', ...size(withMap.files['index.js'], withMap.files['index.js.map'])],
          ['index.js of a node with JSONata (the `jsonata` engine registered), as deployed', ...size(withJsonata.files['index.js'])],
          ['what the JSONata engine adds to index.js', ...added(withMap.files['index.js'], withJsonata.files['index.js'])],
        ],
      },
      ...variants.map((v) => ({
        caption: `Cold initialisation, ${v.name}: NODE_OPTIONS='${functionNodeOptions(v.options) ?? ''}' (${n} processes, alternating with the other variants)`,
        headers: ['Measure', 'Median', 'p90', 'Min', 'Max'],
        rows: [
          timing('require(bundle) + createHandler (loads the SDK clients, reads unum-ir.json)', v.init),
          timing('process start to handler ready (incl. Node.js bootstrap)', v.ready),
          timing(`first error stack after that (${v.mapped ? 'mapped to the .ts sources' : 'bundle positions'})`, v.stack),
        ],
      })),
    ],
    method: [
      'The function bundle is `bundleNode` of lib/construct/bundling.ts with the construct\'s defaults (`resolveBundling({})`: minify, linked source map without sources, SDK external, node22): the same bytes a deployed node gets, run with the NODE_OPTIONS the construct sets.',
      `Each probe is a new \`${process.execPath} -e\` process (Node.js ${process.version}; Lambda runs Node.js 22) with NODE_PATH at the repository's node_modules, where the SDK resolves as it does from the Lambda runtime; one unmeasured probe first warms the file cache.`,
    ],
  };
}
