/**
 * Where the examples keep their inputs: `examples/<name>/input.json`, for the
 * demo, the benchmarks and the tests; and, for an example with a callback
 * Task, `examples/<name>/task-success.json`: what an approver answers.
 */
import * as fs from 'fs';
import * as path from 'path';

/** `examples/<dir>/input.json` whose directory name matches the workflow's name (case and dashes ignored). */
export function exampleInput(appDir: string, workflow: string): string | undefined {
  return exampleFile(appDir, workflow, 'input.json');
}

/** `examples/<dir>/task-success.json` of the workflow, as `exampleInput` finds its directory. */
export function exampleTaskSuccess(appDir: string, workflow: string): string | undefined {
  return exampleFile(appDir, workflow, 'task-success.json');
}

function exampleFile(appDir: string, workflow: string, file: string): string | undefined {
  const examples = path.join(appDir, 'examples');
  if (!fs.existsSync(examples)) return undefined;
  const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const dir = fs.readdirSync(examples).find((d) => norm(d) === norm(workflow) && fs.existsSync(path.join(examples, d, file)));
  return dir === undefined ? undefined : path.join(examples, dir, file);
}
