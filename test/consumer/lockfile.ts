/**
 * A package-lock.json for a fresh app that depends on the packed tarball plus
 * some of the repository's own dependencies, at the versions the repository's
 * lockfile pins. With it, `npm install` in the app needs no registry metadata:
 * every package is fetched by its integrity, from the npm cache `npm ci`
 * filled, so the consumer test runs offline. The tree is the part of the
 * repository's tree reachable from those dependencies (dev flags dropped),
 * so it holds exactly what they declare and nothing else.
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

export function consumerLock(repoLockFile: string, tarball: { file: string; spec: string; manifest: PackedManifest }, alsoFromRepo: readonly string[]): object {
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
    for (const name of Object.keys(entry.peerDependencies ?? {})) visit(location, name, entry.peerDependenciesMeta?.[name]?.optional === true);
  };

  const versions = Object.fromEntries(alsoFromRepo.map((name) => {
    const version = repo[`node_modules/${name}`]?.version;
    if (!version) throw new Error(`${name} is not in ${repoLockFile}`);
    return [name, version];
  }));
  const { manifest } = tarball;
  const integrity = `sha512-${createHash('sha512').update(fs.readFileSync(tarball.file)).digest('base64')}`;
  packages[''] = { name: 'consumer-app', dependencies: { [manifest.name]: tarball.spec, ...versions } };
  const fields = ['version', 'license', 'dependencies', 'optionalDependencies', 'peerDependencies', 'bin', 'engines'] as const;
  add(`node_modules/${manifest.name}`, {
    ...Object.fromEntries(fields.filter((f) => manifest[f] !== undefined).map((f) => [f, manifest[f]])),
    resolved: tarball.spec,
    integrity,
  });
  for (const name of alsoFromRepo) visit('', name, false);
  return { name: 'consumer-app', lockfileVersion: 3, requires: true, packages };
}
