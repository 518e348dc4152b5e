/**
 * What the consumer test does to the package and the apps that install it:
 * `npm pack` once (prepack builds it), then apps in a temporary directory
 * outside the repository, each installing the tarball and some of the
 * repository's dependencies offline from the npm cache (lockfile.ts).
 */
import { type ChildProcess, execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { consumerLock, type PackedManifest, type PackedTarball } from './lockfile';

export const ROOT = path.join(__dirname, '..', '..');
const run = promisify(execFile);

/** The packed package: its tarball, what it holds, its package.json. */
export interface Packed extends PackedTarball {
  /** The paths the tarball holds, relative to its package/ folder. */
  readonly files: readonly string[];
}

/**
 * The environment of the app's commands: this one's, without any endpoint a test before set, and with
 * aws-cdk-lib's template validation on (test/setup-env.js turns it off), so the app synthesizes as a user's does.
 */
export function appEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const { AWS_ENDPOINT_URL_LAMBDA: _l, AWS_ENDPOINT_URL_DYNAMODB: _d, AWS_ENDPOINT_URL_SQS: _s, AWS_ENDPOINT_URL_SCHEDULER: _sc, CDK_VALIDATION: _v, ...env } = process.env;
  return { ...env, ...extra };
}

/** Runs `file` in `dir` with the app's environment. */
export function inDir(dir: string, file: string, args: readonly string[], extra: Readonly<Record<string, string>> = {}): Promise<{ stdout: string; stderr: string }> {
  return run(file, args, { cwd: dir, env: appEnv(extra), maxBuffer: 64 * 1024 * 1024 });
}

/** `npm pack` of the repository into `dir`. */
export async function pack(dir: string): Promise<Packed> {
  const { stdout } = await inDir(ROOT, 'npm', ['pack', '--json', '--pack-destination', dir]);
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
  const file = path.join(dir, info.filename);
  const manifest = JSON.parse((await run('tar', ['-xzOf', file, 'package/package.json'])).stdout) as PackedManifest;
  return { file, spec: `file:../${info.filename}`, manifest, files: info.files.map((f) => f.path) };
}

/**
 * A new app in `dir` (a sibling of the tarball) that depends on the packed
 * package (none: an app without it) and on `fromRepo` at the repository's
 * versions, installed offline, with `files` copied in (target -> source).
 */
export async function installApp(dir: string, packed: Packed | undefined, fromRepo: readonly string[], files: Readonly<Record<string, string>> = {}): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  for (const [target, source] of Object.entries(files)) fs.cpSync(source, path.join(dir, target), { recursive: true });
  const lock = consumerLock(path.join(ROOT, 'package-lock.json'), packed, fromRepo) as { packages: Record<string, { dependencies: object }> };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer-app', private: true, dependencies: lock.packages['']?.dependencies }, null, 2));
  fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
  await inDir(dir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund']);
}

/** Disk usage of `dir` in KiB, as `du -sk` counts it. */
export async function diskKiB(dir: string): Promise<number> {
  const { stdout } = await run('du', ['-sk', dir]);
  return Number(stdout.split(/\s/)[0]);
}

/** A child process with its output collected from the start. */
export function watch(child: ChildProcess): { child: ChildProcess; exitCode: Promise<number | null>; stderr: () => string; stdoutMatching: (pattern: RegExp) => Promise<string> } {
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
