/** Where the examples keep their inputs: `examples/<name>/input.json`, for the demo, the benchmarks and the tests. */
import * as fs from 'fs';
import * as path from 'path';

/** `examples/<dir>/input.json` whose directory name matches the workflow's name (case and dashes ignored). */
export function exampleInput(appDir: string, workflow: string): string | undefined {
  const examples = path.join(appDir, 'examples');
  if (!fs.existsSync(examples)) return undefined;
  const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const dir = fs.readdirSync(examples).find((d) => norm(d) === norm(workflow) && fs.existsSync(path.join(examples, d, 'input.json')));
  return dir === undefined ? undefined : path.join(examples, dir, 'input.json');
}
