/**
 * The local engine of a fault-test file: the fault-test app (and, with
 * `examples`, the example app beside it) synthesized into temporary
 * directories and run before the file's tests, stopped after them.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LocalEngine } from '../../lib/local/engine';
import { synthesize } from '../../lib/local/synth';
import { FAULT_APP_DIR } from './app/targets';

export const ROOT = path.join(__dirname, '..', '..');

/** Registers the hooks; the returned function gives the engine inside tests. */
export function useFaultEngine(options: { readonly examples?: boolean } = {}): () => LocalEngine {
  let engine: LocalEngine | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    const apps = [...(options.examples ? [ROOT] : []), FAULT_APP_DIR];
    dirs.push(...apps.map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'unum-fault-app-'))));
    await Promise.all(apps.map((appDir, i) => synthesize({ appDir, outDir: dirs[i] as string })));
    engine = await LocalEngine.fromCloudAssembly(dirs, { timeScale: 0.0005, ttlIntervalMs: 60_000 });
  });
  afterAll(async () => {
    await engine?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  return () => {
    if (!engine) throw new Error('the fault-test engine is not started yet: use it inside tests');
    return engine;
  };
}
