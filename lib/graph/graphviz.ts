/**
 * Renders DOT to SVG with Graphviz when `dot` is on the PATH (optional: the
 * Mermaid text is always available).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** The `dot` executable on the PATH, if any. */
export function findDot(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, 'dot');
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Writes `outFile` (SVG) from DOT text; false when Graphviz is absent or fails. */
export function renderSvg(dotText: string, outFile: string): boolean {
  const dot = findDot();
  if (!dot) return false;
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const r = spawnSync(dot, ['-Tsvg', '-o', outFile], { input: dotText, timeout: 20_000 });
  return r.status === 0;
}
