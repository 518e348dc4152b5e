/**
 * The cloud assembly of one of the project's apps (the example app, the
 * fault-test app), synthesized once per content of what it is built from
 * and shared by every test file that runs it on the engine: `cdk synth` of
 * the fault-test app takes about 20 s on 2 cores, and eight files run it.
 *
 * The key hashes every file the synthesis can read from the project (the
 * library, the runtime, the examples, the fault-test app and the test
 * support it imports, the configuration and the lockfile) and the checkout's
 * path, so a change to any of them synthesizes again. Two workers that miss at once both
 * synthesize; the first rename wins. The assembly is read-only to its users.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { synthesize } from '../../lib/local/synth';

const ROOT = path.join(__dirname, '..', '..');
const CACHE = path.join(os.tmpdir(), 'unum-test-assemblies');
/** Under test/, only these feed a synthesis; docs and benchmarks feed none. */
const TEST_SOURCES = [path.join('test', 'faults', 'app'), path.join('test', 'support')];
/** Not read by a synthesis from the sources (`dist/` is the package's build, which the tests do not use). */
const SKIPPED = new Set(['node_modules', 'cdk.out', 'dist', 'docs', 'bench', 'coverage']);
/** An older assembly of the same app, unused for this long, is removed when a new one is written. */
const STALE_MS = 60 * 60_000;

/** Whether `rel` (a path in the project) is or may contain a file a synthesis reads. */
function feedsSynthesis(rel: string, isDirectory: boolean): boolean {
  if (rel !== 'test' && !rel.startsWith(`test${path.sep}`)) return true;
  return TEST_SOURCES.some((s) => rel === s || rel.startsWith(`${s}${path.sep}`) || (isDirectory && s.startsWith(`${rel}${path.sep}`)));
}

function sourceFiles(dir: string, out: string[]): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name) || entry.name.endsWith('.md')) continue;
    const full = path.join(dir, entry.name);
    if (!feedsSynthesis(path.relative(ROOT, full), entry.isDirectory())) continue;
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

function contentKey(): string {
  // The checkout too: an assembly may hold absolute paths into it.
  const hash = createHash('sha256').update(ROOT).update('\0');
  for (const file of sourceFiles(ROOT, []).sort()) hash.update(path.relative(ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 20);
}

function removeStale(app: string, keep: string): void {
  for (const name of fs.readdirSync(CACHE)) {
    const dir = path.join(CACHE, name);
    if (name.startsWith(`${app}-`) && dir !== keep && Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The directory of `appDir`'s cloud assembly (the app's cdk.json), synthesized if this content has none yet. */
export async function cachedAssembly(appDir: string): Promise<string> {
  const app = path.relative(ROOT, appDir).replace(/[^A-Za-z0-9]+/g, '-') || 'examples';
  const dir = path.join(CACHE, `${app}-${contentKey()}`);
  if (fs.existsSync(path.join(dir, 'manifest.json'))) return dir;
  fs.mkdirSync(CACHE, { recursive: true });
  const building = fs.mkdtempSync(path.join(CACHE, `.${app}-`));
  try {
    await synthesize({ appDir, outDir: building });
    fs.renameSync(building, dir);
  } catch (e) {
    // Another worker renamed its assembly there first: use it.
    if (!fs.existsSync(path.join(dir, 'manifest.json'))) throw e;
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
  removeStale(app, dir);
  return dir;
}
