import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { buildSync, type BuildFailure, type Loader, transformSync } from 'esbuild';
import { IR_FILE_NAME, RECORDER_FILE_NAME, type Instruction, type Invoke, type NodeIR, type RecorderSpec } from '../../runtime/contract/ir';
import { commonJsExports } from './commonjs-exports';
import type { UnumBundlingOptions } from './props';

/**
 * Paths are resolved from the package root (the repository, or `dist/` when
 * compiled), so `runtime/` is found in both layouts and source-map paths are
 * relative to it: the same on every machine, which keeps asset hashes stable.
 */
const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
const RUNTIME_HANDLER = path.join(PACKAGE_ROOT, 'runtime', 'entry', 'handler');
const CALLBACK_HANDLER = path.join(PACKAGE_ROOT, 'runtime', 'callbacks', 'callback-handler');
const FAILURE_RECORDER = path.join(PACKAGE_ROOT, 'runtime', 'entry', 'failure-recorder');
const TASK_RESPONDER = path.join(PACKAGE_ROOT, 'runtime', 'callbacks', 'task-response');
const SWEEPER = path.join(PACKAGE_ROOT, 'runtime', 'deployments', 'handler');
const RUN_CONTROL = path.join(PACKAGE_ROOT, 'runtime', 'control', 'handler');
const JSONATA = path.join(PACKAGE_ROOT, 'runtime', 'language', 'jsonata');
const JSONATA_ENGINE = path.join(PACKAGE_ROOT, 'runtime', 'language', 'jsonata-engine');

/**
 * The source directory `Code.fromAsset` requires. Its contents are irrelevant:
 * with a custom hash and local bundling CDK neither hashes nor copies it, and
 * only a stack excluded from bundling points its (unbuilt) assets at it. This
 * module's own directory: small, and present in the repository and in `dist/`.
 */
const ASSET_SOURCE = __dirname;

/**
 * Required by CDK's bundling options, never pulled or run: local bundling
 * always succeeds (or throws). Part of every asset hash (CDK hashes the
 * bundling options with the custom hash), so it must not change casually.
 */
const NO_DOCKER_IMAGE = DockerImage.fromRegistry('unum-cdk-local-bundling-only');

/** The construct's bundling: `UnumBundlingOptions` with the defaults filled in. */
export function resolveBundling(options: UnumBundlingOptions = {}): ResolvedBundling {
  return {
    minify: options.minify ?? true,
    sourceMap: options.sourceMap ?? true,
    bundleAwsSdk: options.bundleAwsSdk ?? false,
    // Syntax level of the bundle: the oldest runtime we deploy to (and the local engine's Node).
    target: 'node22',
  };
}

/**
 * NODE_OPTIONS of a function with this bundling: with a source map, Node maps
 * stack traces through it (at the first stack it formats, not at load).
 */
export function functionNodeOptions(options: ResolvedBundling): string | undefined {
  return options.sourceMap ? '--enable-source-maps' : undefined;
}

export interface ResolvedBundling {
  readonly minify: boolean;
  readonly sourceMap: boolean;
  readonly bundleAwsSdk: boolean;
  /** esbuild target, e.g. `node22`. */
  readonly target: string;
}

/** The output of one esbuild run: file name -> contents. */
export interface Bundle {
  readonly files: Readonly<Record<string, string>>;
}

/** A function's asset, in memory: file name -> contents, and a digest of exactly those files. */
export interface AssetFiles {
  readonly files: Readonly<Record<string, string>>;
  readonly digest: string;
}

/** Whether a node's IR has JSONata (its io, or a folded Pass's): its function needs the JSONata engine. */
export function usesJsonata(ir: NodeIR): boolean {
  const own = [ir.io, ir.join, ir.mapItems, ir.branchInput].some((part) => part?.queryLanguage === 'JSONata');
  return own || instructionsUseJsonata(ir.instructions) || (ir.join?.retry !== undefined && fanOutUsesJsonata(ir.join.retry.fanOut));
}

/** A JSONata Parallel's branch inputs or Map's items, made where the fan-out is. */
const fanOutUsesJsonata = (invoke: Invoke): boolean =>
  (invoke.kind === 'map' && invoke.queryLanguage === 'JSONata') || (invoke.kind === 'parallel' && invoke.input?.queryLanguage === 'JSONata');

/** A JSONata Pass, Choice rule, Wait, Fail or fan-out among the instructions, the Choice rules' own included. */
function instructionsUseJsonata(list: readonly Instruction[]): boolean {
  return list.some((i) => {
    switch (i.op) {
      case 'pass':
        return i.io?.queryLanguage === 'JSONata';
      case 'fail':
        return i.queryLanguage === 'JSONata';
      case 'invoke':
        return fanOutUsesJsonata(i.invoke) || (i.invoke.kind === 'scalar' && i.invoke.wait !== undefined && ('secondsExpression' in i.invoke.wait || 'timestampExpression' in i.invoke.wait));
      case 'choice':
        return i.rules.some((r) => r.when.kind === 'jsonata' || instructionsUseJsonata(r.then)) || instructionsUseJsonata(i.otherwise ?? []);
      default:
        return false;
    }
  });
}

/**
 * The bundle of a node's code. `entry` undefined = a node with no user code
 * (pass / implicit nodes); `callback`: a callback Task, whose runtime adds the
 * task-token part (runtime/callbacks/callback-handler.ts) that no other
 * function ships; `jsonata`: the node evaluates JSONata, and its bundle
 * registers the engine (the `jsonata` package), which no other function ships.
 */
export function bundleNode(entry: string | undefined, options: ResolvedBundling, kind: { readonly callback?: boolean; readonly jsonata?: boolean } = {}): Bundle {
  const user = entry === undefined ? 'const user = {};' : `import * as user from ${JSON.stringify(entry)};`;
  const [create, runtime] = kind.callback ? ['createCallbackHandler', CALLBACK_HANDLER] : ['createHandler', RUNTIME_HANDLER];
  const engine = kind.jsonata
    ? [`import { useJsonataEngine } from ${JSON.stringify(JSONATA)};`, `import { jsonataEngine } from ${JSON.stringify(JSONATA_ENGINE)};`, 'useJsonataEngine(jsonataEngine);']
    : [];
  const contents = [
    user,
    `import { ${create} } from ${JSON.stringify(runtime)};`,
    ...engine,
    `export const handler = ${create}(user);`,
  ].join('\n');
  return cached(`node:${kind.callback ? 'callback:' : ''}${kind.jsonata ? 'jsonata:' : ''}${entry ?? ''}`, options, () => build({ stdin: contents }, options));
}

/** The bundle of the workflow's task-response function (`grantTaskResponse`). */
export function bundleTaskResponder(options: ResolvedBundling): Bundle {
  return cached('task-response', options, () => build({ entryPoint: TASK_RESPONDER }, options));
}

/** The bundle of the workflow's run-control function (`grantStop`, `grantRedrive`). */
export function bundleRunControl(options: ResolvedBundling): Bundle {
  return cached('run-control', options, () => build({ entryPoint: RUN_CONTROL }, options));
}

/** The bundle of the construct's failure recorder (the on-failure destination). */
export function bundleFailureRecorder(options: ResolvedBundling): Bundle {
  return cached('failure-recorder', options, () => build({ entryPoint: FAILURE_RECORDER }, options));
}

/** The bundle of the workflow's sweeper, which records deployments and deletes those no run can use any more. */
export function bundleSweeper(options: ResolvedBundling): Bundle {
  return cached('sweeper', options, () => build({ entryPoint: SWEEPER }, options));
}

/** What a handler module exports, as far as it can be known without running it. */
export interface ModuleExports {
  /** The module is CommonJS (`exports.x =`, `module.exports =`), not an ES module. */
  readonly commonJs: boolean;
  /** The export names, sorted; undefined when they cannot be known statically (see commonjs-exports.ts). */
  readonly names?: readonly string[];
}

/**
 * The names a module exports, found statically (the module is never
 * executed): an ES module's from esbuild's metafile, a CommonJS module's
 * from its text (esbuild reports its format but not its exports).
 */
export function moduleExports(entry: string): ModuleExports {
  const hit = exportsCache.get(entry);
  if (hit !== undefined) return hit;
  const result = buildSync({
    entryPoints: [entry],
    absWorkingDir: PACKAGE_ROOT,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    outdir: path.join(PACKAGE_ROOT, '.unum-exports'),
    logLevel: 'silent',
  });
  const input = Object.entries(result.metafile.inputs).find(([p]) => path.resolve(PACKAGE_ROOT, p) === path.resolve(entry));
  const output = Object.values(result.metafile.outputs).find((o) => o.entryPoint !== undefined);
  const found: ModuleExports = input?.[1].format === 'cjs'
    ? { commonJs: true, names: commonJsExports(transformSync(fs.readFileSync(entry, 'utf8'), { loader: loaderOf(entry), logLevel: 'silent' }).code) }
    : { commonJs: false, names: [...(output?.exports ?? [])].sort() };
  exportsCache.set(entry, found);
  return found;
}

/** esbuild's loader for a source file (TypeScript is stripped to JavaScript before its exports are read). */
function loaderOf(entry: string): Loader {
  const ext = path.extname(entry).toLowerCase();
  if (ext === '.tsx' || ext === '.jsx') return ext.slice(1) as Loader;
  return ['.ts', '.mts', '.cts'].includes(ext) ? 'ts' : 'js';
}

/** A function's asset: its bundle plus, for a node, its `unum-ir.json`, for the failure recorder its `unum-recorder.json`. */
export function assetFiles(bundle: Bundle, ir?: NodeIR, recorder?: RecorderSpec): AssetFiles {
  const files: Record<string, string> = { ...bundle.files };
  if (ir !== undefined) files[IR_FILE_NAME] = `${JSON.stringify(ir, null, 2)}\n`;
  if (recorder !== undefined) files[RECORDER_FILE_NAME] = `${JSON.stringify(recorder, null, 2)}\n`;
  const hash = createHash('sha256');
  for (const name of Object.keys(files).sort()) hash.update(`${name}\0${Buffer.byteLength(files[name])}\0${files[name]}`);
  return { files, digest: hash.digest('hex') };
}

/**
 * The code of a function whose asset is built: CDK's local bundling writes the
 * files straight into the cloud assembly (`asset.<hash>/`). The asset hash is
 * derived from the content digest only (CDK hashes it with the constant
 * bundling options), so it is the same on every machine and checkout path.
 */
export function assetCode(asset: AssetFiles): lambda.Code {
  return localBundlingCode(asset.digest, (outputDir) => {
    for (const [name, contents] of Object.entries(asset.files)) fs.writeFileSync(path.join(outputDir, name), contents);
  });
}

/**
 * The code of a function in a stack excluded from bundling (context
 * `aws:cdk:bundling-stacks`, set by e.g. `cdk deploy A --exclusively`): CDK
 * skips bundling such stacks, so nothing is built and the asset hash is a
 * placeholder derived from `identity` (deterministic, but not a content hash:
 * such a template is not for deploying). CDK never asks for the files.
 */
export function unbundledCode(identity: unknown): lambda.Code {
  const placeholder = createHash('sha256').update(`unbundled\0${JSON.stringify(identity)}`).digest('hex');
  return localBundlingCode(placeholder, () => {
    throw new Error('an asset of a stack excluded from bundling was bundled');
  });
}

function localBundlingCode(assetHash: string, write: (outputDir: string) => void): lambda.Code {
  return lambda.Code.fromAsset(ASSET_SOURCE, {
    assetHash,
    assetHashType: AssetHashType.CUSTOM,
    bundling: {
      image: NO_DOCKER_IMAGE,
      local: {
        tryBundle(outputDir: string): boolean {
          write(outputDir);
          return true;
        },
      },
    },
  });
}

/** Text of an esbuild failure, for error messages. */
export function describeBuildFailure(err: unknown): string {
  const failure = err as Partial<BuildFailure>;
  if (Array.isArray(failure.errors) && failure.errors.length > 0) {
    return failure.errors
      .map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ${e.text}` : e.text))
      .join('; ');
  }
  return err instanceof Error ? err.message : String(err);
}

const bundleCache = new Map<string, Bundle>();
const exportsCache = new Map<string, ModuleExports>();

function cached(key: string, options: ResolvedBundling, make: () => Bundle): Bundle {
  const fullKey = `${key}|${JSON.stringify(options)}`;
  let bundle = bundleCache.get(fullKey);
  if (bundle === undefined) {
    bundle = make();
    bundleCache.set(fullKey, bundle);
  }
  return bundle;
}

function build(source: { stdin?: string; entryPoint?: string }, options: ResolvedBundling): Bundle {
  const result = buildSync({
    ...(source.stdin !== undefined
      ? { stdin: { contents: source.stdin, resolveDir: PACKAGE_ROOT, sourcefile: 'unum-entry.ts', loader: 'ts' as const } }
      : { entryPoints: [source.entryPoint as string] }),
    absWorkingDir: PACKAGE_ROOT,
    // Never written: the path only names the outputs and anchors source-map paths.
    outfile: path.join(PACKAGE_ROOT, 'index.js'),
    write: false,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: options.target,
    minify: options.minify,
    // `linked`: a separate index.js.map, loaded by Node (--enable-source-maps) through index.js's
    // sourceMappingURL comment, so the code Lambda parses is no larger. Without the sources' text:
    // a stack trace needs only the mappings, and the map stays about the size of the bundle.
    sourcemap: options.sourceMap ? 'linked' : false,
    sourcesContent: false,
    external: options.bundleAwsSdk ? [] : ['@aws-sdk/*'],
    legalComments: 'none',
    logLevel: 'silent',
  });
  const files: Record<string, string> = {};
  for (const file of result.outputFiles) files[path.basename(file.path)] = file.text;
  return { files };
}
