/**
 * Where the local commands find the app: a cloud assembly (`cdk.out`), or a
 * CDK app directory (with cdk.json) whose assembly is reused while it is
 * newer than the app's sources and synthesized again otherwise.
 */
import * as fs from 'fs';
import * as path from 'path';
import { UnumLocalError } from './errors';
import { synthesize } from './synth';

/** Directories never taken for app sources: dependencies, and hidden ones (.git, .unum). */
const NOT_SOURCES = new Set(['node_modules']);

/** The nearest directory upward from `from` that has a cdk.json. */
export function findAppDir(from: string = process.cwd()): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'cdk.json'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export function isCloudAssembly(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'manifest.json'));
}

/** Where the app's cdk.json has `cdk synth` write the assembly (its `output`, default cdk.out). */
function outputDir(appDir: string): string {
  const config = JSON.parse(fs.readFileSync(path.join(appDir, 'cdk.json'), 'utf8')) as { output?: unknown };
  return path.resolve(appDir, typeof config.output === 'string' ? config.output : 'cdk.out');
}

/** The newest modification time of a file under `dir`, skipping `skip`, dependencies and hidden directories. */
function newestSource(dir: string, skip: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== skip && !NOT_SOURCES.has(entry.name) && !entry.name.startsWith('.')) newest = Math.max(newest, newestSource(full, skip));
    } else if (entry.isFile()) {
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  }
  return newest;
}

export interface AssemblyOptions {
  /** Synthesize even when the app's assembly is newer than its sources. */
  readonly synth?: boolean;
  /** Says which assembly is used, and why. */
  readonly log: (line: string) => void;
}

/**
 * The cloud assembly to run. `app` is a cloud assembly, or a CDK app
 * directory; without it, the app of the current directory (cdk.json here or
 * above), else `./cdk.out`. An app's assembly is reused when it is newer than
 * every file of the app (node_modules and hidden directories aside).
 */
export async function cloudAssemblyOf(app: string | undefined, options: AssemblyOptions): Promise<string> {
  if (app !== undefined && isCloudAssembly(app)) {
    if (options.synth) throw new UnumLocalError(`${app} is a cloud assembly: --synth takes a CDK app directory (with cdk.json) as --app, or none`);
    return app;
  }
  const appDir = app ?? findAppDir();
  if (appDir === undefined || !fs.existsSync(path.join(appDir, 'cdk.json'))) {
    if (app === undefined && isCloudAssembly('cdk.out')) return 'cdk.out';
    throw new UnumLocalError(`${app ?? 'here'}: no cloud assembly (manifest.json) and no CDK app (cdk.json)${app === undefined ? ' here or above' : ''}: pass --app <cdk.out | app directory>`);
  }
  const outDir = outputDir(appDir);
  const shown = path.relative(process.cwd(), outDir) || '.';
  if (!options.synth && isCloudAssembly(outDir) && fs.statSync(path.join(outDir, 'manifest.json')).mtimeMs > newestSource(path.resolve(appDir), outDir)) {
    options.log(`using ${shown}: it is newer than the app's sources (--synth to synthesize again)`);
    return outDir;
  }
  options.log(`synthesizing ${path.join(path.relative(process.cwd(), appDir) || '.', 'cdk.json')} into ${shown} ...`);
  await synthesize({ appDir, outDir });
  return outDir;
}
