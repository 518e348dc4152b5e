/**
 * `unum compile-asl file.json [--tasks tasks.json] [--name workflow] [--out dir]`:
 * compiles an Amazon States Language definition to unum's per-node IR.
 * Prints `{ "<node>": <NodeIR>, ... }`, or with `--out` writes `<dir>/<node>.json`
 * per node and prints the paths. Exit codes: 0 compiled, 1 rejected, 2 usage.
 *
 * `tasks.json` maps state names or resources to function settings (`entry`
 * relative to the tasks file); the key `"*"` gives the default. Without it,
 * every Task uses `handlers` beside the ASL file, export = the function name
 * the Task names (non-identifier characters as `_`): enough to inspect the IR.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileAsl, type AslTaskInfo, type AslTaskProps, type FromAslOptions } from '../asl';
import { UnumDefinitionError } from '../compiler';
import { parseArgs, UsageError, type ParsedArgs } from './argv';
import { usageLine } from './help';

/** Where the command writes; injectable for tests. */
export interface AslCliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

interface Args {
  readonly file: string;
  readonly tasks?: string;
  readonly name?: string;
  readonly out?: string;
}

export async function main(argv: string[], io: AslCliIo = process): Promise<number> {
  const args = parse(argv);
  if (typeof args === 'string') {
    io.stderr.write(`${usageLine('compile-asl', args)}\n`);
    return 2;
  }
  try {
    const workflow = args.name ?? workflowNameOf(args.file);
    const compiled = compileAsl(fs.readFileSync(args.file, 'utf8'), { workflowName: workflow, ...taskOptions(args) });
    for (const warning of compiled.warnings) io.stderr.write(`warning: ${warning}\n`);
    if (args.out === undefined) {
      const irs = Object.fromEntries(Object.entries(compiled.nodes).map(([name, node]) => [name, node.ir]));
      io.stdout.write(`${JSON.stringify(irs, null, 2)}\n`);
      return 0;
    }
    fs.mkdirSync(args.out, { recursive: true });
    for (const [name, node] of Object.entries(compiled.nodes)) {
      const file = path.join(args.out, `${name}.json`);
      fs.writeFileSync(file, `${JSON.stringify(node.ir, null, 2)}\n`);
      io.stdout.write(`${file}\n`);
    }
    return 0;
  } catch (e) {
    if (!(e instanceof UnumDefinitionError) && !isFileError(e)) throw e;
    io.stderr.write(`${(e as Error).message}\n`);
    return 1;
  }
}

function parse(argv: readonly string[]): Args | string {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv, { values: ['tasks', 'name', 'out'], flags: [] });
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  const files = parsed.positional;
  if (files.length !== 1) return files.length === 0 ? 'missing the ASL file' : `expected one ASL file, got ${files.length}`;
  return { file: files[0], ...Object.fromEntries(parsed.values) };
}

/** `chain-Chain10.embedded.asl.json` -> `chain-Chain10-embedded`: a valid workflow name from the file name. */
function workflowNameOf(file: string): string {
  const base = path.basename(file).replace(/(\.asl)?\.json$/i, '');
  return base.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 64) || 'asl';
}

function taskOptions(args: Args): Pick<FromAslOptions, 'tasks' | 'defaultTask'> {
  if (args.tasks === undefined) {
    const entry = path.resolve(path.dirname(args.file), 'handlers');
    return { defaultTask: (t: AslTaskInfo) => ({ entry, handler: identifier(t.functionName) }) };
  }
  const dir = path.dirname(path.resolve(args.tasks));
  const raw = JSON.parse(fs.readFileSync(args.tasks, 'utf8')) as Record<string, AslTaskProps>;
  const resolved = Object.fromEntries(Object.entries(raw).map(([key, props]) => [key, { ...props, entry: path.resolve(dir, props.entry) }]));
  const { '*': defaultTask, ...tasks } = resolved;
  return { tasks, ...(defaultTask !== undefined ? { defaultTask } : {}) };
}

function identifier(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_$]/g, '_');
  return /^[0-9]/.test(id) ? `_${id}` : id;
}

/** A file that cannot be read (fs error code) or a tasks file that is not JSON; checked by shape, as fs errors may come from another realm. */
function isFileError(e: unknown): boolean {
  const err = e as { name?: unknown; code?: unknown } | null;
  return typeof err === 'object' && err !== null && (typeof err.code === 'string' || err.name === 'SyntaxError');
}
