/**
 * The file a sandbox worker thread runs. From the compiled package that is
 * `worker.js` beside this file; from the TypeScript sources (a fresh clone,
 * ts-node, jest) worker.ts is transpiled once with esbuild into a temporary
 * file, so sandboxes start in milliseconds without ts-node.
 */
import * as crypto from 'crypto';
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

let cached: string | undefined;

export function workerScript(): string {
  if (cached) return cached;
  const compiled = path.join(__dirname, 'worker.js');
  if (fs.existsSync(compiled)) return (cached = compiled);
  const source = path.join(__dirname, 'worker.ts');
  const text = fs.readFileSync(source, 'utf8');
  const hash = crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
  const out = path.join(os.tmpdir(), `unum-local-worker-${hash}.js`);
  if (!fs.existsSync(out)) {
    const tmp = `${out}.${process.pid}.tmp`;
    esbuild.buildSync({ entryPoints: [source], outfile: tmp, platform: 'node', format: 'cjs', target: 'node20', bundle: false, logLevel: 'silent' });
    fs.renameSync(tmp, out);
  }
  return (cached = out);
}
