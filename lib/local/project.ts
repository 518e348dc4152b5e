/**
 * Where the CLI finds things: the CDK app (the directory with cdk.json) and
 * the examples' inputs (`examples/<name>/input.json`).
 */
import * as fs from 'fs';
import * as path from 'path';

/** The nearest directory upward from `from` that has a cdk.json. */
export function findAppDir(from: string = process.cwd()): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'cdk.json'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** `examples/<dir>/input.json` whose directory name matches the workflow's name (case and dashes ignored). */
export function exampleInput(appDir: string, workflow: string): string | undefined {
  const examples = path.join(appDir, 'examples');
  if (!fs.existsSync(examples)) return undefined;
  const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const dir = fs.readdirSync(examples).find((d) => norm(d) === norm(workflow) && fs.existsSync(path.join(examples, d, 'input.json')));
  return dir === undefined ? undefined : path.join(examples, dir, 'input.json');
}
